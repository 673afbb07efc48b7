package server

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"tickshot/game"
	"tickshot/net/proto"
)

// The end of a match: when a match ends (EvMatchEnd) every client gets the
// match's statistics and awards (proto.MatchStats, from game.MatchStats)
// and the vote for the next map opens (proto.MapVote): the candidates are
// the next VoteMaps maps of the map cycle after the current one, in cycle
// order; each connected client (a player or a spectator: bots have no vote)
// votes with the console command `vote N` (the client's keys 1..N or a
// click), may change its vote, and has one; when the intermission ends the
// map with the most votes loads, a tie going to the earlier candidate (the
// cycle's order), so that with no vote at all the cycle's next map loads,
// as it did before the vote existed. Like TF2's and Xonotic's end-of-match
// map vote, over the commands and messages the server already has.

// VoteMaps is how many maps a map vote offers at most.
const VoteMaps = 3

// mapVote is the map vote of one intermission: its candidates and each
// voter's choice. The tick goroutine owns it (levels.vote).
type mapVote struct {
	maps   []string         // the candidates; empty: no vote open
	votes  map[uint16]uint8 // player ID -> its vote, 1..len(maps)
	ends   uint32           // the tick the intermission ends
	dirty  bool             // the tally changed since it was last sent (send)
	sentAt uint32           // the tick it was last sent; 0: not since open
	// stats is the end of the match the vote follows, for clients that
	// join during the intermission (greet).
	stats *proto.MatchStats
}

// open starts a vote among the VoteMaps maps that follow current in cycle
// (all of them but current when fewer), closing at tick ends; with no
// other map in the cycle no vote opens.
func (v *mapVote) open(cycle []string, current string, ends uint32) {
	v.close()
	i := slices.Index(cycle, current)
	for k := 1; k <= len(cycle) && len(v.maps) < VoteMaps; k++ {
		m := cycle[(i+k+len(cycle))%len(cycle)]
		if m != current && !slices.Contains(v.maps, m) {
			v.maps = append(v.maps, m)
		}
	}
	v.ends = ends
	v.votes = map[uint16]uint8{}
	v.dirty, v.sentAt = len(v.maps) > 0, 0
}

// isOpen reports whether a vote is open.
func (v *mapVote) isOpen() bool { return len(v.maps) > 0 }

// close ends the vote (the next map is chosen, or a new match started).
func (v *mapVote) close() {
	v.maps, v.votes, v.dirty, v.stats = nil, nil, false, nil
}

// cast is the console command `vote N` of player id (args are its
// arguments): its vote for candidate N (1-based), replacing an earlier
// one. It returns the line for the player's console.
func (v *mapVote) cast(id uint16, args []string) string {
	if !v.isOpen() {
		return "vote: no map vote now (one opens when a match ends)"
	}
	n, err := 0, error(nil)
	if len(args) == 1 {
		n, err = strconv.Atoi(args[0])
	}
	if len(args) != 1 || err != nil || n < 1 || n > len(v.maps) {
		return "usage: vote 1.." + strconv.Itoa(len(v.maps)) + " (" + v.list() + ")"
	}
	if v.votes[id] != uint8(n) {
		v.votes[id] = uint8(n)
		v.dirty = true
	}
	return "vote: you voted for " + v.maps[n-1]
}

// list is the candidates as "1 foundry, 2 plaza".
func (v *mapVote) list() string {
	parts := make([]string, len(v.maps))
	for i, m := range v.maps {
		parts[i] = fmt.Sprintf("%d %s", i+1, m)
	}
	return strings.Join(parts, ", ")
}

// tally counts the votes per candidate of the voters present reports
// still connected.
func (v *mapVote) tally(present func(uint16) bool) []uint16 {
	n := make([]uint16, len(v.maps))
	for id, c := range v.votes {
		if present(id) {
			n[c-1]++
		}
	}
	return n
}

// winner is the candidate with the most votes of voters still present, the
// earlier candidate on a tie (so the cycle's next with no vote); "" with
// no vote open.
func (v *mapVote) winner(present func(uint16) bool) string {
	if !v.isOpen() {
		return ""
	}
	t := v.tally(present)
	best := 0
	for i, n := range t {
		if n > t[best] {
			best = i
		}
	}
	return v.maps[best]
}

// message is the vote as client id receives it.
func (v *mapVote) message(id uint16, tally []uint16) *proto.MapVote {
	return &proto.MapVote{Maps: v.maps, Votes: tally, Mine: v.votes[id], Ends: v.ends}
}

// voteSendsPerSecond is how often, at most, the vote goes out again while
// votes come in: a voter's own vote is answered at once by its command
// (cast); the tally others see may wait this long.
const voteSendsPerSecond = 4

// send sends the vote to every client of sessions, when its tally changed
// since it was last sent: at once when the vote opens, then at most
// voteSendsPerSecond times a second at tick (of tickRate), however many
// votes came in. At 1 024 players voting, once a tick was 1 024 messages
// a tick and some 2 kB/s to each client.
func (v *mapVote) send(sessions []*session, tick uint32, tickRate int) {
	if !v.dirty || (v.sentAt != 0 && tick-v.sentAt < uint32(tickRate/voteSendsPerSecond)) {
		return
	}
	v.dirty, v.sentAt = false, tick
	tally := v.tally(presentIn(sessions))
	for _, ss := range sessions {
		ss.conn.Send(v.message(ss.player.ID, tally))
	}
}

// presentIn reports whether a player has a session in sessions.
func presentIn(sessions []*session) func(uint16) bool {
	ids := sessionsByID(sessions)
	return func(id uint16) bool { return ids[id] != nil }
}

// greet sends a client that joins during the intermission what the others
// got when the match ended: the statistics and the vote as it stands.
func (v *mapVote) greet(ss *session, sessions []*session) {
	if !v.isOpen() {
		return
	}
	if v.stats != nil {
		ss.conn.Send(v.stats)
	}
	ss.conn.Send(v.message(ss.player.ID, v.tally(presentIn(sessions))))
}

// matchStats is the end of the match that e (EvMatchEnd) announced in w,
// as clients receive it: the winner, every player's scoreboard line and
// statistics, best first, and the awards.
func matchStats(w *game.World, e *game.Event) *proto.MatchStats {
	m := &proto.MatchStats{Winner: proto.TruncateUTF8(e.Text, proto.MaxNameLen+16), WinnerID: e.A}
	players := slices.Clone(w.Players)
	slices.SortStableFunc(players, func(a, b *game.Player) int {
		if a.Kills != b.Kills {
			return b.Kills - a.Kills
		}
		return a.Deaths - b.Deaths
	})
	players = players[:min(len(players), proto.MaxStatsRows)]
	for _, p := range players {
		st := w.Stats.Of(p.ID)
		m.Players = append(m.Players, proto.PlayerStats{ID: p.ID, Name: p.Name, Team: uint8(p.Team),
			Kills: int16(p.Kills), Deaths: int16(p.Deaths),
			Shots: uint16(min(st.Shots, 0xffff)), Hits: uint16(min(st.Hits, st.Shots, 0xffff)),
			Damage: uint32(st.Damage), BestStreak: uint16(min(st.BestStreak, 0xffff))})
	}
	for _, a := range w.Stats.Awards(players) {
		m.Awards = append(m.Awards, proto.Award{Kind: uint8(a.Kind), ID: a.ID, Value: int32(a.Value)})
	}
	return m
}

// endOfMatch runs at a match's end (EvMatchEnd e, after the world emitted
// it): every client gets the match's statistics and the map vote opens.
func endOfMatch(s *Server, e *game.Event) {
	stats := matchStats(s.w, e)
	for _, ss := range s.sessions {
		ss.conn.Send(stats)
	}
	s.levels.vote.open(s.levels.cycle, s.w.Map.Name, s.w.Intermission)
	s.levels.vote.stats = stats
}
