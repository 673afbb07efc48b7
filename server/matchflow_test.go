package server_test

import (
	"math"
	"testing"
	"time"

	"tickshot/client/netclient"
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
