package netclient

import (
	"sort"

	"tickshot/net/proto"
)

// Match is what the server tells the client about the match besides the
// world (Client.Match): the scoreboard and every name heard, which a View
// shares, and the server events (kills, joins, team changes, level
// changes) and console prints, which the window takes once each. Poll
// fills it from each snapshot applied and each Print; it never starts a
// server and is tested alone (match_test.go). The scores slice and names
// map are replaced, never written, once handed out, so a View kept from an
// earlier frame keeps its own.
type Match struct {
	scores      []proto.ScoreEntry // sorted by ID as the server sends them; names filled in
	names       map[uint16]string  // every name heard, by player id
	lastEventID uint32             // newest event ID taken (events are deduplicated by it)
	events      []proto.Event      // taken by TakeEvents
	prints      []string           // taken by TakePrints
	clock       proto.MatchClock   // the newest scoreboard's match clock
	haveClock   bool               // clock was received
	// stats and vote are the end of the match and the map vote the server
	// sent during the intermission; nil outside one (cleared at the next
	// EvMatchStart).
	stats *proto.MatchStats
	vote  *proto.MapVote
}

// EndOfMatch returns the statistics of the match that just ended and the
// map vote, as the server sent them during this intermission (each nil
// until it arrives, and again once the next match starts).
func (m *Match) EndOfMatch() (*proto.MatchStats, *proto.MapVote) { return m.stats, m.vote }

// Clock returns the match's clock and limits from the newest snapshot that
// carried them (with a scoreboard); ok is false before the first.
func (m *Match) Clock() (clock proto.MatchClock, ok bool) { return m.clock, m.haveClock }

func newMatch() *Match { return &Match{names: map[uint16]string{}} }

// TakeEvents returns the server events that arrived since the last call,
// in order, each once (a snapshot resends an event until acked; it is
// taken the first time only).
func (m *Match) TakeEvents() []proto.Event {
	e := m.events
	m.events = nil
	return e
}

// TakePrints returns the lines the server sent for the console since the
// last call (Print messages, and "changelevel: map NAME" on a level change).
func (m *Match) TakePrints() []string {
	p := m.prints
	m.prints = nil
	return p
}

// ApplyTeamEvent applies an EvJoin's or EvTeam's team to the scoreboard at
// once (the next scoreboard, built after the event, agrees): player e.A's
// row takes team e.Value (Source's numbering: proto.TeamRed, ...), and an
// EvJoin of a player not on the board adds its row, named e.Text. A Value
// outside 0..proto.MaxTeam is no team and changes nothing; so do other
// kinds. Applying one twice changes nothing more. The window applies the
// events it takes (TakeEvents) as it shows them; the next View has it.
func (m *Match) ApplyTeamEvent(e *proto.Event) {
	if (e.Kind != proto.EvJoin && e.Kind != proto.EvTeam) || e.Value < 0 || e.Value > int16(proto.MaxTeam) {
		return
	}
	t := uint8(e.Value)
	rows := append([]proto.ScoreEntry(nil), m.scores...) // a View may hold the old rows
	i := sort.Search(len(rows), func(i int) bool { return rows[i].ID >= e.A })
	switch {
	case i < len(rows) && rows[i].ID == e.A:
		rows[i].Team = t
	case e.Kind == proto.EvJoin:
		rows = append(rows, proto.ScoreEntry{})
		copy(rows[i+1:], rows[i:])
		rows[i] = proto.ScoreEntry{ID: e.A, Name: e.Text, Team: t}
	default:
		return
	}
	m.scores = rows
}

// isNew reports whether event e has not been taken yet.
func (m *Match) isNew(e proto.Event) bool { return e.ID > m.lastEventID }

// take adds a snapshot's new events to the queue and takes its scoreboard,
// if it carries one.
func (m *Match) take(s *proto.Snapshot) {
	for _, e := range s.Events {
		if m.isNew(e) {
			m.lastEventID = e.ID
			m.events = append(m.events, e)
			if e.Kind == proto.EvMatchStart {
				m.stats, m.vote = nil, nil
			}
		}
	}
	if len(s.Scores) > 0 {
		m.takeScores(s.Scores) // a delta (docs/PROTOCOL.md §5.8)
	}
	if s.Match != nil {
		m.clock, m.haveClock = *s.Match, true
	}
}

// print queues a console line.
func (m *Match) print(text string) { m.prints = append(m.prints, text) }

// takeScores applies a scoreboard delta (proto.Snapshot.Scores) to the
// table: each row replaces the row of its ID or is added (a row without a
// name keeps the name this client has), a row of Team proto.ScoreGone
// removes it. The table is a new slice, sorted by ID, and the names a new
// map when a name is new or changed (a View may hold the old ones).
func (m *Match) takeScores(rows []proto.ScoreEntry) {
	table := append(make([]proto.ScoreEntry, 0, len(m.scores)+len(rows)), m.scores...)
	var heard []DemoName
	for _, r := range rows {
		i := sort.Search(len(table), func(i int) bool { return table[i].ID >= r.ID })
		found := i < len(table) && table[i].ID == r.ID
		switch {
		case r.Team == proto.ScoreGone:
			if found {
				table = append(table[:i], table[i+1:]...)
			}
			continue
		case r.Name == "":
			r.Name = m.names[r.ID]
		case m.names[r.ID] != r.Name:
			heard = append(heard, DemoName{ID: r.ID, Name: r.Name})
		}
		if found {
			table[i] = r
		} else {
			table = append(table, proto.ScoreEntry{})
			copy(table[i+1:], table[i:])
			table[i] = r
		}
	}
	m.scores = table
	m.hear(heard)
}

// hear adds names to those heard in a new map (a View may hold the old).
func (m *Match) hear(heard []DemoName) {
	if len(heard) == 0 {
		return
	}
	names := make(map[uint16]string, len(m.names)+len(heard))
	for id, n := range m.names {
		names[id] = n
	}
	for _, n := range heard {
		names[n.ID] = n.Name
	}
	m.names = names
}

// seed starts from a mid-game recording's state (DemoState): the newest
// event taken, the names heard and the scoreboard table (its names filled
// in from names).
func (m *Match) seed(lastEventID uint32, names []DemoName, scores []proto.ScoreEntry) {
	m.lastEventID = lastEventID
	m.hear(names)
	m.scores = nil
	m.takeScores(scores)
}

// heard returns the names heard, by ID (a DemoState's Names).
func (m *Match) heard() []DemoName {
	out := make([]DemoName, 0, len(m.names))
	for id, name := range m.names {
		out = append(out, DemoName{ID: id, Name: name})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
