package server_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/internal/tool/testserver"
	"tickshot/server"
)

// TestMatchClockInSnapshots: a client learns the match's start tick and
// limits from the scoreboard's snapshots (proto.MatchClock), and during the
// intermission the tick the next match starts, IntermissionSeconds after
// the match's end; the time left it derives from its server tick is the
// time limit's rest.
func TestMatchClockInSnapshots(t *testing.T) {
	_, addr := startServer(t, server.Config{Bots: 0,
		Cvars: [][2]string{{"mp_fraglimit", "7"}, {"mp_timelimit", "0.02"}}}) // 1.2 s matches
	c := testserver.Connect(t, addr, netclient.DefaultConfig("clock"))
	rate := c.View().TickRate
	var start uint32
	if !play(t, c, 5*time.Second, func() bool {
		clock, ok := c.Match().Clock()
		start = clock.Start
		return ok && clock.End == 0
	}) {
		t.Fatal("no match clock in 5 s")
	}
	clock, _ := c.Match().Clock()
	if clock.FragLimit != 7 || float64(clock.TimeLimit) != math.Ceil(0.02*60*float64(rate)) {
		t.Errorf("clock %+v: want frag limit 7 and a time limit of %v ticks", clock, 0.02*60*float64(rate))
	}
	left, ok := clock.TimeLeft(c.View().ServerTick, rate)
	if !ok || left > 1.2 || left < 0 {
		t.Errorf("time left %v (%v), want 0..1.2 s", left, ok)
	}
	if !play(t, c, 10*time.Second, func() bool {
		clock, _ := c.Match().Clock()
		return clock.End != 0 && clock.Start == start
	}) {
		t.Fatalf("no intermission in the clock after the time limit: %+v", clock)
	}
	clock, _ = c.Match().Clock()
	end := clock.Start + clock.TimeLimit
	if want := end + uint32(server.IntermissionSeconds*rate); clock.End < want-2 || clock.End > want+2 {
		t.Errorf("intermission ends at tick %d, want about %d (%d s after the match's end at %d)", clock.End, want, server.IntermissionSeconds, end)
	}
}

// playAll polls and ticks every client at 64 Hz until stop returns true or
// d passes; it reports whether stop held.
func playAll(t *testing.T, cs []*netclient.Client, d time.Duration, stop func() bool) bool {
	t.Helper()
	const dt = time.Second / 64
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(dt) {
		for i, c := range cs {
			if err := c.Poll(); err != nil {
				t.Fatalf("client %d: %v", i, err)
			}
			c.Tick(dt, netclient.Input{})
		}
		if stop() {
			return true
		}
	}
	return false
}

// TestMapVoteThreeClients: three clients over real websockets see the end
// of a match (statistics for every player, the winner) and the map vote
// (the three maps after the current one in the cycle); two vote for the
// third candidate and one for the second, and the third loads, not the
// cycle's next. A fourth client joining before it loads gets the end of
// the match and the tally. In the next intermission one votes 3 (after first voting
// 1: a vote may change), one 2, one not at all: the tie goes to the
// earlier candidate in cycle order. Each client's MapVote tells its own
// vote and the tally.
func TestMapVoteThreeClients(t *testing.T) {
	srv, addr := startServer(t, server.Config{Bots: 1,
		Cvars: [][2]string{{"mp_timelimit", "0.02"}, {"mp_chattime", "5"}}}) // 1.2 s matches, 5 s to vote
	var cs []*netclient.Client
	for _, name := range []string{"v1", "v2", "v3"} {
		cs = append(cs, testserver.Connect(t, addr, netclient.DefaultConfig(name)))
	}
	cycle := game.DefaultMapCycle()
	round := func(from string, votes [][]string, want string) {
		t.Helper()
		i := slices.Index(cycle, from)
		wantMaps := []string{cycle[(i+1)%len(cycle)], cycle[(i+2)%len(cycle)], cycle[(i+3)%len(cycle)]}
		if !playAll(t, cs, 10*time.Second, func() bool {
			for _, c := range cs {
				if st, v := c.Match().EndOfMatch(); st == nil || v == nil {
					return false
				}
			}
			return true
		}) {
			t.Fatalf("on %s: no end of match and map vote at every client within 10 s", from)
		}
		st, v := cs[0].Match().EndOfMatch()
		if !slices.Equal(v.Maps, wantMaps) {
			t.Fatalf("on %s: candidates %v, want the cycle's next three %v", from, v.Maps, wantMaps)
		}
		if len(st.Players) != 4 {
			t.Errorf("end of match: %d players' statistics, want 4 (3 clients and a bot): %+v", len(st.Players), st.Players)
		}
		for i, c := range cs {
			for _, vote := range votes[i] {
				c.SendCommand("vote "+vote, "")
			}
		}
		playAll(t, cs, 5*time.Second, func() bool {
			_, v := cs[0].Match().EndOfMatch()
			return v == nil || v.Votes[0]+v.Votes[1]+v.Votes[2] == uint16(countVoters(votes))
		})
		if _, v := cs[0].Match().EndOfMatch(); v != nil && v.Mine != mine(votes[0]) {
			t.Errorf("client 1's own vote %d, want %d", v.Mine, mine(votes[0]))
		}
		if from == "arena" {
			// A client joining now gets the end of the match and the vote so far.
			late := testserver.Connect(t, addr, netclient.DefaultConfig("late"))
			if !play(t, late, 3*time.Second, func() bool {
				st, v := late.Match().EndOfMatch()
				return st != nil && v != nil
			}) {
				t.Error("a client joining in the intermission got no end of match and vote")
			} else if st, v := late.Match().EndOfMatch(); len(st.Players) != 4 || v.Votes[2] != 2 || v.Mine != 0 {
				t.Errorf("the late joiner's end of match: %d players, votes %v, its own %d; want 4, two for bunker, none", len(st.Players), v.Votes, v.Mine)
			}
			late.Close("bye")
		}
		if !playAll(t, cs, 10*time.Second, func() bool {
			return srv.CurrentStatus().Map != from && cs[0].View().Map.Name != from
		}) {
			t.Fatalf("from %s: no map change within 10 s", from)
		}
		if got := srv.CurrentStatus().Map; got != want {
			t.Fatalf("from %s with votes %v: %s loaded, want %s", from, votes, got, want)
		}
	}
	// arena: foundry, plaza, bunker; bunker has two votes, plaza one.
	round("arena", [][]string{{"3"}, {"3"}, {"2"}}, "bunker")
	// bunker: sprawl, arena, foundry; foundry one (changed from sprawl),
	// arena one, and no vote from the third: arena, the earlier, wins.
	round("bunker", [][]string{{"1", "3"}, {"2"}, nil}, "arena")
}

// countVoters is how many of votes (each client's commands) vote at all.
func countVoters(votes [][]string) int {
	n := 0
	for _, v := range votes {
		if len(v) > 0 {
			n++
		}
	}
	return n
}

// mine is the vote a client's commands leave (its last), 0 for none.
func mine(cmds []string) uint8 {
	if len(cmds) == 0 {
		return 0
	}
	return cmds[len(cmds)-1][0] - '0'
}
