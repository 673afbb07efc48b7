package proto

import (
	"fmt"

	"tickshot/game"
)

// The match's flow as the wire carries it: its clock and limits (MatchClock,
// in snapshots that carry a scoreboard), the end-of-match statistics
// (MatchStats, once at the intermission) and the vote for the next map
// (MapVote, at the intermission and at every change of the tally).
// docs/PROTOCOL.md §5.13 and §15.6.

// MatchClock is the match's clock: a client derives the time left (and the
// intermission's countdown) from the server tick it estimates, never from
// its wall clock, and shows the score to beat from FragLimit.
type MatchClock struct {
	_msgpack struct{} `msgpack:",as_array"`
	// Start is the tick the current match started.
	Start uint32
	// End is the tick the intermission ends and the next match starts; 0
	// while the match is on.
	End uint32
	// FragLimit is mp_fraglimit (0: none): a player's kills, or in team
	// deathmatch a team's score, that win.
	FragLimit uint16
	// TimeLimit is mp_timelimit in ticks (0: none): the match ends at
	// Start+TimeLimit.
	TimeLimit uint32
}

// TimeLeft returns the seconds left in the match at (fractional) server
// tick tick at tickRate ticks/s: the time limit's rest while a match is on,
// the intermission's rest during one; ok is false when there is neither
// (no time limit and no intermission). Never negative.
func (m *MatchClock) TimeLeft(tick float64, tickRate int) (secs float64, ok bool) {
	var end float64
	switch {
	case m.End != 0:
		end = float64(m.End)
	case m.TimeLimit != 0:
		end = float64(m.Start) + float64(m.TimeLimit)
	default:
		return 0, false
	}
	return max(end-tick, 0) / float64(max(tickRate, 1)), true
}

func checkMatchClock(m *MatchClock) error {
	if m != nil && m.End != 0 && m.End < m.Start {
		return fmt.Errorf("match clock: intermission ends at tick %d, before the match's start %d", m.End, m.Start)
	}
	return nil
}

// Limits of the end-of-match messages.
const (
	MaxStatsRows = 1024 // PlayerStats rows in a MatchStats: the server's player cap (server.MaxPlayersLimit)
	MaxAwards    = 8    // Awards in a MatchStats
	MaxVoteMaps  = 9    // candidate maps in a MapVote (keys 1..9)
	MaxMapName   = 64   // bytes of a map name
)

// Award kinds (Award.Kind): what an award is for and what its Value
// counts; game.MatchStats.Awards owns them (the same numbers).
const (
	AwardMostKills   = uint8(game.AwardMostKills)  // Value: kills
	AwardAccuracy    = uint8(game.AwardAccuracy)   // Value: shots hit per game.AccuracyScale (1000) shots fired (at least MinAwardShots shots)
	AwardStreak      = uint8(game.AwardStreak)     // Value: the most kills in one life
	AwardMostDamage  = uint8(game.AwardMostDamage) // Value: hit points of damage dealt to others
	maxAwardKind     = AwardMostDamage
	MinAwardShots    = game.MinAwardShots // shots a player fires to be up for AwardAccuracy
	maxAccuracyValue = game.AccuracyScale
)

// PlayerStats is one player's match, as the end-of-match screen shows it.
type PlayerStats struct {
	_msgpack struct{} `msgpack:",as_array"`
	ID       uint16
	Name     string
	Team     uint8 // as ScoreEntry.Team
	Kills    int16 // the scoreboard's frags (a teamkill counts -1)
	Deaths   int16
	// Shots is the shots fired (one per EvShot: a rifle or shotgun shot,
	// whatever its pellets, or a rocket); Hits the ticks in which the
	// player hurt another (a shotgun's pellets or a rocket's splash on two
	// players count one; Hits is at most Shots).
	Shots, Hits uint16
	// Damage is the hit points of damage dealt to other players.
	Damage uint32
	// BestStreak is the most kills in one life.
	BestStreak uint16
}

// Accuracy is the share of shots that hit, 0..1 (0 without shots).
func (p *PlayerStats) Accuracy() float64 {
	if p.Shots == 0 {
		return 0
	}
	return float64(p.Hits) / float64(p.Shots)
}

// Award is one award of a match: player ID won Kind with Value.
type Award struct {
	_msgpack struct{} `msgpack:",as_array"`
	Kind     uint8
	ID       uint16
	Value    int32
}

// MatchStats is the end of a match: the winner and every player's
// statistics and the awards, sent once to every client when the
// intermission starts (game.MatchStats keeps them).
type MatchStats struct {
	_msgpack struct{} `msgpack:",as_array"`
	// Winner is EvMatchEnd's text: the winner's name, "red team" or "blue
	// team"; "" for a draw.
	Winner string
	// WinnerID is the winning player (0: a team or a draw).
	WinnerID uint16
	// Players are the players at the end, best first (kills, then fewer
	// deaths), at most MaxStatsRows.
	Players []PlayerStats
	// Awards are at most MaxAwards, one per kind at most, each naming a
	// player of Players.
	Awards []Award
}

// Type implements Message.
func (*MatchStats) Type() MsgType { return MsgMatchStats }

// MapVote is the vote for the next map during the intermission: the
// candidates, the votes for each so far, the receiver's own vote and when
// it closes. The server sends it when the intermission starts and again
// after the tally changed, at most 4 times a second.
type MapVote struct {
	_msgpack struct{} `msgpack:",as_array"`
	// Maps are the candidates in the map cycle's order from the cycle's
	// next map on (1..MaxVoteMaps names): a vote is `vote N` for Maps[N-1];
	// the most votes win, a tie goes to the earlier, no vote at all to
	// Maps[0], the cycle's next.
	Maps []string
	// Votes are the votes for each of Maps (same length).
	Votes []uint16
	// Mine is the receiver's vote, 1..len(Maps); 0: none yet.
	Mine uint8
	// Ends is the tick the vote closes: the intermission's end, when the
	// winner loads.
	Ends uint32
}

// Type implements Message.
func (*MapVote) Type() MsgType { return MsgMapVote }

func checkMatchStats(m *MatchStats) error {
	if err := checkText("winner", m.Winner, MaxNameLen+16); err != nil {
		return err
	}
	if len(m.Players) > MaxStatsRows {
		return fmt.Errorf("%d stats rows, limit %d", len(m.Players), MaxStatsRows)
	}
	ids := make(map[uint16]bool, len(m.Players))
	for _, p := range m.Players {
		if err := checkText("stats name", p.Name, MaxNameLen); err != nil {
			return err
		}
		if p.Team > MaxTeam {
			return fmt.Errorf("team %d of player %d does not exist", p.Team, p.ID)
		}
		if p.Hits > p.Shots {
			return fmt.Errorf("player %d hit %d of %d shots", p.ID, p.Hits, p.Shots)
		}
		ids[p.ID] = true
	}
	if len(m.Awards) > MaxAwards {
		return fmt.Errorf("%d awards, limit %d", len(m.Awards), MaxAwards)
	}
	for _, a := range m.Awards {
		if a.Kind == 0 || a.Kind > maxAwardKind {
			return fmt.Errorf("award kind %d outside 1..%d", a.Kind, maxAwardKind)
		}
		if !ids[a.ID] {
			return fmt.Errorf("award %d to player %d, who has no stats row", a.Kind, a.ID)
		}
		if a.Value < 0 || a.Kind == AwardAccuracy && a.Value > maxAccuracyValue {
			return fmt.Errorf("award %d value %d out of range", a.Kind, a.Value)
		}
	}
	return nil
}

func checkMapVote(m *MapVote) error {
	if len(m.Maps) == 0 || len(m.Maps) > MaxVoteMaps {
		return fmt.Errorf("%d vote maps, want 1..%d", len(m.Maps), MaxVoteMaps)
	}
	if len(m.Votes) != len(m.Maps) {
		return fmt.Errorf("%d vote counts for %d maps", len(m.Votes), len(m.Maps))
	}
	for _, n := range m.Maps {
		if err := checkText("vote map", n, MaxMapName); err != nil {
			return err
		}
		if n == "" {
			return fmt.Errorf("empty vote map name")
		}
	}
	if int(m.Mine) > len(m.Maps) {
		return fmt.Errorf("own vote %d outside 0..%d", m.Mine, len(m.Maps))
	}
	return nil
}
