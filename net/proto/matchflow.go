package proto

import "fmt"

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
