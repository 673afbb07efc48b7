package game

import (
	"fmt"
	"sort"
	"unicode/utf8"
)

// Roster owns who is in the world: the players with a body (Players) and
// those without (Spectators), each sorted by ID, the next ID to hand out,
// and whether the scoreboard changed (ScoresDirty). It answers the lookups
// and the team counts that the rules and the server ask of it; it emits no
// events and moves nobody (World does, through it). IDs are unique across
// both lists and never 0.
type Roster struct {
	// Players are sorted by ID (snapshots list them in this order).
	Players []*Player
	// Spectators are the players without a body, sorted by ID (spectate.go).
	Spectators []*Player
	// ScoresDirty is set when kills, deaths, teams or the player list
	// changed; the caller clears it when it has sent the scoreboard.
	ScoresDirty bool

	nextID uint16 // the next ID to try (1 at the start; wraps after 65535)
	// gen counts the changes of Players (a join, a leave): Near's items
	// are indices into it.
	gen uint64
}

// Player returns the player with id, or nil.
func (r *Roster) Player(id uint16) *Player {
	if i := r.PlayerIndex(id); i >= 0 {
		return r.Players[i]
	}
	return nil
}

// PlayerIndex is the index of player id in Players, or -1.
func (r *Roster) PlayerIndex(id uint16) int { return indexByID(r.Players, id) }

// Spectator returns the spectator with id, or nil.
func (r *Roster) Spectator(id uint16) *Player {
	if i := indexByID(r.Spectators, id); i >= 0 {
		return r.Spectators[i]
	}
	return nil
}

// indexByID is the index of id in ps (sorted by ID), or -1.
func indexByID(ps []*Player, id uint16) int {
	i := sort.Search(len(ps), func(i int) bool { return ps[i].ID >= id })
	if i < len(ps) && ps[i].ID == id {
		return i
	}
	return -1
}

// insertByID puts p into ps (sorted by ID) at its place.
func insertByID(ps []*Player, p *Player) []*Player {
	i := sort.Search(len(ps), func(i int) bool { return ps[i].ID > p.ID })
	ps = append(ps, nil)
	copy(ps[i+1:], ps[i:])
	ps[i] = p
	return ps
}

// newID hands out the next free ID: neither a player's nor a spectator's,
// never 0.
func (r *Roster) newID() uint16 {
	id := r.nextID
	for r.idTaken(id) {
		id++ // IDs wrap after 65535 joins
	}
	r.nextID = id + 1
	return id
}

// idTaken reports whether id is a player's or a spectator's (or 0, never used).
func (r *Roster) idTaken(id uint16) bool {
	return id == 0 || r.Player(id) != nil || r.Spectator(id) != nil
}

// nameTaken reports whether a player or a spectator is called name.
func (r *Roster) nameTaken(name string) bool {
	for _, p := range r.Players {
		if p.Name == name {
			return true
		}
	}
	for _, p := range r.Spectators {
		if p.Name == name {
			return true
		}
	}
	return false
}

// UniqueName returns name, or, when a player already has it, name with
// "(2)", "(3)", ... appended; the result is at most maxLen bytes (the base
// is cut at a rune boundary to make room for the suffix).
func (r *Roster) UniqueName(name string, maxLen int) string {
	base := name
	for n := 2; ; n++ {
		if !r.nameTaken(name) {
			return name
		}
		suffix := fmt.Sprintf("(%d)", n)
		cut := min(len(base), max(maxLen-len(suffix), 0))
		for cut > 0 && cut < len(base) && !utf8.RuneStart(base[cut]) {
			cut--
		}
		name = base[:cut] + suffix
	}
}

// Generation counts the changes of Players (a join, a leave, a move to or
// from the spectators): an index into Players taken at one generation
// names the same player while it stays the same.
func (r *Roster) Generation() uint64 { return r.gen }

// insertPlayer adds p to Players at its place; the scoreboard changes.
func (r *Roster) insertPlayer(p *Player) {
	r.Players = insertByID(r.Players, p)
	r.gen++
	r.ScoresDirty = true
}

// removePlayerAt takes Players[i] out (order kept).
func (r *Roster) removePlayerAt(i int) {
	r.Players = append(r.Players[:i], r.Players[i+1:]...)
	r.gen++
}

// insertSpectator adds p to Spectators at its place; the scoreboard changes.
func (r *Roster) insertSpectator(p *Player) {
	r.Spectators = insertByID(r.Spectators, p)
	r.ScoresDirty = true
}

// takeSpectator takes spectator id out of Spectators and returns it, or nil.
func (r *Roster) takeSpectator(id uint16) *Player {
	i := indexByID(r.Spectators, id)
	if i < 0 {
		return nil
	}
	p := r.Spectators[i]
	r.Spectators = append(r.Spectators[:i], r.Spectators[i+1:]...)
	return p
}

// TeamSize is the number of players on team t.
func (r *Roster) TeamSize(t Team) int {
	n := 0
	for _, p := range r.Players {
		if p.Team == t {
			n++
		}
	}
	return n
}

// TeamScore is team t's score: the sum of its players' frags (Player.Kills;
// a teamkill or, with friendly fire, a suicide costs one). A player who
// leaves takes their frags along, one who changes team brings them: the
// client derives the same figure from the scoreboard rows.
func (r *Roster) TeamScore(t Team) int {
	s := 0
	for _, p := range r.Players {
		if p.Team == t {
			s += p.Kills
		}
	}
	return s
}

// smallerTeam is the team a joining player goes to: the one with fewer
// players, on a tie the one with the lower score, then red. except is left
// out of the counts (a player choosing again).
func (r *Roster) smallerTeam(except *Player) Team {
	var n, score [4]int
	for _, p := range r.Players {
		if p != except && p.Team.Playing() {
			n[p.Team]++
			score[p.Team] += p.Kills
		}
	}
	switch {
	case n[TeamBlue] < n[TeamRed]:
		return TeamBlue
	case n[TeamRed] < n[TeamBlue]:
		return TeamRed
	case score[TeamBlue] < score[TeamRed]:
		return TeamBlue
	}
	return TeamRed
}

// leader is the player with the most frags, nil when the top score is
// shared (or there is nobody): a draw.
func (r *Roster) leader() *Player {
	var leader *Player
	tied := false
	for _, p := range r.Players {
		switch {
		case leader == nil || p.Kills > leader.Kills:
			leader, tied = p, false
		case p.Kills == leader.Kills:
			tied = true
		}
	}
	if tied {
		return nil
	}
	return leader
}

// leadingTeam is the team with the higher score, TeamNone on a tie.
func (r *Roster) leadingTeam() Team {
	red, blue := r.TeamScore(TeamRed), r.TeamScore(TeamBlue)
	switch {
	case red > blue:
		return TeamRed
	case blue > red:
		return TeamBlue
	}
	return TeamNone
}
