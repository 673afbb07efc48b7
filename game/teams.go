package game

import (
	"fmt"

	"tickshot/shared"
)

// Team deathmatch (mp_gamemode tdm): two teams, red and blue, whose score is
// the sum of their players' frags. The rules follow Source's team games:
// players joining are put on the smaller team (mp_autoteambalance moves one
// player at their next respawn when a team ends up two or more players
// bigger), friendly fire is off unless mp_friendlyfire is 1, and jointeam
// refuses the bigger team while balance is on.

// Team is a player's team, numbered as Source numbers them and as the wire
// carries them (net/proto's Team* constants have the same values).
type Team uint8

// Teams.
const (
	TeamNone      Team = 0 // free-for-all (mp_gamemode dm)
	TeamSpectator Team = 1 // watching, no body
	TeamRed       Team = 2
	TeamBlue      Team = 3
)

// String is the team's name as players read it: "red", "blue", "spectator", "none".
func (t Team) String() string {
	switch t {
	case TeamRed:
		return "red"
	case TeamBlue:
		return "blue"
	case TeamSpectator:
		return "spectator"
	}
	return "none"
}

// Other is the opposing playing team (red for blue and blue for red);
// TeamNone for anything else.
func (t Team) Other() Team {
	switch t {
	case TeamRed:
		return TeamBlue
	case TeamBlue:
		return TeamRed
	}
	return TeamNone
}

// Playing reports whether t is one of the two playing teams.
func (t Team) Playing() bool { return t == TeamRed || t == TeamBlue }

// ParseTeam reads a team as jointeam takes it: "red" or "2", "blue" or
// "3", "auto" or "0" (TeamNone: the smaller team), "spectator" or "1".
func ParseTeam(s string) (Team, error) {
	switch s {
	case "red", "2":
		return TeamRed, nil
	case "blue", "3":
		return TeamBlue, nil
	case "auto", "0":
		return TeamNone, nil
	case "spectator", "spec", "1":
		return TeamSpectator, nil
	}
	return 0, fmt.Errorf("unknown team %q: want red (2), blue (3) or auto (0)", s)
}

// TeamBalanceReason is the Text of an EvTeam when mp_autoteambalance moved
// the player.
const TeamBalanceReason = "auto-balance"

// friendlySpared reports whether attacker's damage to victim is refused by
// friendly fire being off (mp_friendlyfire 0): teammates take none and the
// hit is not confirmed. Self-damage (one's own rocket) is not friendly fire.
func (w *World) friendlySpared(attacker, victim *Player) bool {
	return !w.Rules.FriendlyFire && w.Teammates(attacker, victim)
}

// setTeam moves p to team t and reports it with EvTeam (Text: why, when
// the server chose). The scoreboard changes.
func (w *World) setTeam(p *Player, t Team, reason string) {
	p.Team = t
	w.ScoresDirty = true
	w.emit(Event{Kind: EvTeam, A: p.ID, Value: int(t), Text: reason})
}

// JoinTeam is the jointeam command: p asks for team t (TeamNone: whichever
// is smaller). It refuses in deathmatch, for spectators (not available),
// and, with mp_autoteambalance, a team that would then have two or more
// players more than the other. A player who changes team while alive dies
// (no frag lost, no death counted) and respawns after the usual delay, as in
// Source.
func (w *World) JoinTeam(p *Player, t Team) error {
	if !w.teamPlay {
		return fmt.Errorf("this match is deathmatch (mp_gamemode dm): there are no teams")
	}
	switch {
	case t == TeamSpectator:
		return fmt.Errorf("spectating is not available on this server")
	case t == TeamNone:
		t = w.smallerTeam(p)
	case !t.Playing():
		return fmt.Errorf("unknown team %d", t)
	}
	if t == p.Team {
		return fmt.Errorf("you are already on the %s team", t)
	}
	if w.Rules.AutoTeamBalance {
		// Sizes after the move.
		to, other := w.TeamSize(t)+1, w.TeamSize(t.Other())
		if p.Team == t.Other() {
			other--
		}
		if to-other >= 2 {
			return fmt.Errorf("the %s team has enough players (%d against %d; mp_autoteambalance is on)", t, to-1, w.TeamSize(t.Other()))
		}
	}
	if p.Alive() {
		p.Health = 0
		p.State.Dead = true
		p.State.VX, p.State.VY = 0, 0
		p.RespawnTick = w.Tick + uint32(shared.Ticks(RespawnDelayMs, w.TickRate))
	}
	w.setTeam(p, t, "")
	return nil
}

// balanceAtRespawn moves p, about to respawn, to the other team when
// mp_autoteambalance is on and its team has two or more players more than
// the other (Source moves a player of the bigger team when they respawn).
func (w *World) balanceAtRespawn(p *Player) {
	if !w.teamPlay || !w.Rules.AutoTeamBalance || !p.Team.Playing() {
		return
	}
	if w.TeamSize(p.Team)-w.TeamSize(p.Team.Other()) >= 2 {
		w.setTeam(p, p.Team.Other(), TeamBalanceReason)
	}
}

// sparedTeammates returns boxes for p's hitscan trace with friendly fire
// off: its teammates' boxes marked not alive, so that the shot passes
// through them (as in TF2; nothing to confirm, the enemy behind is hit).
// boxes itself is not changed; the copy is reused by the next shot.
func (w *World) sparedTeammates(p *Player, boxes []Hitbox) []Hitbox {
	if !w.teamPlay || w.Rules.FriendlyFire || !p.Team.Playing() {
		return boxes
	}
	out := append(w.shotBoxBuf[:0], boxes...)
	w.shotBoxBuf = out
	for i := range out {
		if o := w.Player(out[i].ID); o != nil && w.Teammates(p, o) {
			out[i].Alive = false
		}
	}
	return out
}
