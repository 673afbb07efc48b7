package game

// IntermissionSeconds is the pause between matches, seconds, when
// Rules.ChatTime (mp_chattime) does not say: time to read the end of the
// match and vote for the next map (Source's mp_chattime is 10 s too).
const IntermissionSeconds = 10

// chatTime is the intermission's length under rules r, seconds.
func chatTime(r *Rules) int {
	if r.ChatTime > 0 {
		return r.ChatTime
	}
	return IntermissionSeconds
}

// Match owns the match's flow: when it started, whether it is in the
// intermission, and its mode (deathmatch or team deathmatch, which changes
// only at a match start). It scores kills against mp_fraglimit, ends the
// match at the frag or time limit (EvMatchEnd) and starts the next one after
// IntermissionSeconds (EvMatchStart: scores reset, everyone respawned).
// World calls run once a tick (Step) and scoreKill at each kill; the world
// it is handed gives the players, the rules and the clock.
type Match struct {
	// MatchStart is the tick the current match started; Intermission the
	// tick the next one starts, 0 while a match is on.
	MatchStart, Intermission uint32

	teamPlay bool // the current match is team deathmatch (TeamPlay)
}

// TeamPlay reports whether the current match is team deathmatch. A change of
// Rules.TeamPlay restarts the match (run) and takes effect then.
func (m *Match) TeamPlay() bool { return m.teamPlay }

// Teammates reports whether a and b are two players on the same playing
// team of a team match (never in deathmatch, never a player with itself).
func (m *Match) Teammates(a, b *Player) bool {
	return m.teamPlay && a != b && a.ID != b.ID && a.Team.Playing() && a.Team == b.Team
}

// run is the match's part of a tick: a changed game mode restarts the
// match, the intermission's end starts the next one, and mp_timelimit ends
// the current one (the leader, or the leading team, wins; a shared top
// score is a draw).
func (m *Match) run(w *World) {
	if w.Rules.TeamPlay != m.teamPlay {
		// mp_gamemode changed: the match restarts in the new mode.
		m.setMode(w)
		m.start(w)
		return
	}
	if m.Intermission != 0 {
		if w.Tick >= m.Intermission {
			m.start(w)
		}
		return
	}
	if w.Rules.TimeLimit > 0 && float64(w.Tick-m.MatchStart) >= w.Rules.TimeLimit*60*float64(w.TickRate) {
		if m.teamPlay {
			m.endTeams(w, w.leadingTeam())
			return
		}
		m.end(w, w.leader())
	}
}

// start resets the scores, clears the projectiles and respawns everyone
// (EvMatchStart).
func (m *Match) start(w *World) {
	m.Intermission = 0
	m.MatchStart = w.Tick
	w.Flight.clear()
	w.Stock.reset(w.Map)
	for _, p := range w.Players {
		p.Kills, p.Deaths = 0, 0
		w.spawn(p)
	}
	for _, p := range w.Spectators {
		p.Kills, p.Deaths = 0, 0
	}
	w.ScoresDirty = true
	w.emit(Event{Kind: EvMatchStart})
}

// end announces the winner (nil: nobody) and starts the intermission.
func (m *Match) end(w *World, winner *Player) {
	e := Event{Kind: EvMatchEnd, Value: chatTime(&w.Rules)}
	if winner != nil {
		e.A, e.Text = winner.ID, winner.Name
	}
	m.pause(w, e)
}

// endTeams announces the winning team (TeamNone: a draw) with EvMatchEnd
// (A = 0, B = the team) and starts the intermission.
func (m *Match) endTeams(w *World, winner Team) {
	e := Event{Kind: EvMatchEnd, Value: chatTime(&w.Rules), B: uint16(winner)}
	if winner != TeamNone {
		e.Text = winner.String() + " team"
	}
	m.pause(w, e)
}

// pause emits the match's end e and starts the intermission: the next match
// starts e.Value seconds (chatTime) from now.
func (m *Match) pause(w *World, e Event) {
	w.emit(e)
	m.Intermission = w.Tick + uint32(e.Value*w.TickRate)
	w.ScoresDirty = true // the scoreboard's match clock says when the next match starts
}

// scoreKill scores attacker's kill of victim. Deathmatch: a frag, none for
// a suicide. Team deathmatch: a frag for an enemy, minus one for a teamkill
// and, with friendly fire on, for a suicide. At mp_fraglimit (the player's
// frags, or in tdm its team's score) the match ends, unless it already has.
func (m *Match) scoreKill(w *World, attacker, victim *Player) {
	limit := w.Rules.FragLimit
	if !m.teamPlay {
		if attacker.ID != victim.ID {
			attacker.Kills++
			if limit > 0 && attacker.Kills >= limit && m.Intermission == 0 {
				m.end(w, attacker)
			}
		}
		return
	}
	switch {
	case attacker.ID == victim.ID:
		if w.Rules.FriendlyFire {
			attacker.Kills--
		}
		return
	case m.Teammates(attacker, victim):
		attacker.Kills--
		return
	}
	attacker.Kills++
	if limit > 0 && m.Intermission == 0 && attacker.Team.Playing() && w.TeamScore(attacker.Team) >= limit {
		m.endTeams(w, attacker.Team)
	}
}

// setMode switches to the rules' game mode: in team deathmatch every player
// is put on a team (in ID order, each on the smaller one), in deathmatch
// nobody is on one. The caller restarts the match.
func (m *Match) setMode(w *World) {
	m.teamPlay = w.Rules.TeamPlay
	for _, p := range w.Players {
		p.Team = TeamNone
	}
	if m.teamPlay {
		for _, p := range w.Players {
			p.Kills = 0 // ties go by score: the new match starts at zero
			p.Team = w.smallerTeam(p)
		}
	}
	w.ScoresDirty = true
}
