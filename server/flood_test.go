package server

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"tickshot/internal/tool/liteclient"
	"tickshot/net/proto"
	"tickshot/net/transport"
)

// floodRig is a Local server at 128 ticks/s with one lite client sending
// at cl_cmdrate 128 over a held pipe, on a virtual clock: the server's
// stalls are steps it is not given, and nothing waits on the wall clock.
type floodRig struct {
	l      *Local
	now    time.Time
	c      *liteclient.Client
	ct, st *transport.HeldEnd
	log    *lockedBuffer
}

const floodTickRate = 128

func newFloodRig(t *testing.T) *floodRig {
	t.Helper()
	r := &floodRig{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), log: &lockedBuffer{}}
	l, err := NewLocal(Config{Map: "arena", TickRate: floodTickRate, Seed: 1, MaxPlayers: 4,
		Logger: slog.New(slog.NewTextHandler(r.log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	r.l = l
	r.ct, r.st = transport.HeldPipe(proto.ClientOptions(), proto.ServerOptions(), func() time.Time { return r.now })
	l.Serve(r.st)
	cfg := liteclient.DefaultConfig("steady", 3)
	cfg.CmdRate = floodTickRate
	r.c = liteclient.New(r.ct, cfg)
	r.play(t, time.Second)
	if !r.c.Joined() || r.c.Stats().Snapshots == 0 {
		t.Fatalf("the client did not join: %+v", r.c.Stats())
	}
	t.Cleanup(func() { r.c.Close("test over"); r.st.Flush(); r.ct.Flush() })
	return r
}

// play runs client and server together, tick by tick, for d of virtual time.
func (r *floodRig) play(t *testing.T, d time.Duration) {
	t.Helper()
	for range int(d * floodTickRate / time.Second) {
		r.c.Tick(r.now.Add(time.Second / floodTickRate))
		r.step(t)
	}
}

// stall moves the clock on by d while the server runs no tick: the client
// goes on making usercmds and sending them at its cl_cmdrate (extra more
// messages each of its ticks), and all of it waits for the next step.
func (r *floodRig) stall(d time.Duration, extra int) {
	dt := time.Second / floodTickRate
	for end := r.now.Add(d); r.now.Before(end); {
		r.now = r.now.Add(dt)
		r.c.Tick(r.now)
		r.flood(extra)
	}
}

// flood sends n more Cmds messages (no usercmds: each one only a message
// more than cl_cmdrate allows).
func (r *floodRig) flood(n int) {
	b := proto.MustEncode(&proto.Cmds{})
	for range n {
		r.ct.Send(b)
	}
}

// step runs one server tick on what has arrived, one tick after the last
// step or stall, and has the client read the answer.
func (r *floodRig) step(t *testing.T) {
	t.Helper()
	r.now = r.now.Add(time.Second / floodTickRate)
	r.st.Flush()
	r.l.Step(r.now)
	r.ct.Flush()
	if err := r.c.Poll(r.now); err != nil && !strings.Contains(err.Error(), "kicked") {
		t.Fatalf("client: %v", err)
	}
}

// kicked returns the session's kick reason ("" while it plays), the
// flood kicks counted and the kicks logged.
func (r *floodRig) kicked() (reason string, counted uint64, logged int) {
	for _, ss := range r.l.s.sessions {
		reason = ss.kicked
	}
	if len(r.l.s.sessions) == 0 {
		reason, _ = r.ct.Reason()
	}
	return reason, r.l.s.metrics.kicks[kickFlood].Load(), strings.Count(r.log.String(), "player kicked")
}

// After the server stalls for 5 s (a GC pause, a debugger, one huge tick),
// a client that kept sending at its normal cl_cmdrate has 5 s of messages
// waiting, all read at the next tick: more than MaxMsgsPerSecond, but
// sent over 5 s, so not a flood. The client plays on.
func TestLongTickIsNotAFlood(t *testing.T) {
	r := newFloodRig(t)
	const gap = 5 * time.Second
	before := r.st.Stats().PacketsIn
	r.stall(gap, 0)
	if n := r.st.Pending(); n <= MaxMsgsPerSecond {
		t.Fatalf("%d messages wait after the %v stall, want more than MaxMsgsPerSecond (%d) for the test to mean anything",
			n, gap, MaxMsgsPerSecond)
	}
	r.step(t)
	ranBefore := r.l.Clients()[0].Ran
	r.play(t, 2*time.Second)
	if reason, counted, logged := r.kicked(); reason != "" || counted != 0 || logged != 0 {
		t.Fatalf("after a %v stall with the client's normal backlog (%d messages): kicked %q, %d flood kicks counted, %d logged",
			gap, r.st.Stats().PacketsIn-before, reason, counted, logged)
	}
	if ran := r.l.Clients()[0].Ran; ran-ranBefore < 3*floodTickRate/2 {
		t.Errorf("the server ran %d usercmds in the 2 s after the stall, want about %d: the client does not play on",
			ran-ranBefore, 2*floodTickRate)
	}
}

// A real flood is kicked with its reason, counted once and logged once:
// far more messages than cl_cmdrate allows within one second, and the same
// rate spread over a stall of the server.
func TestMessageFloodIsKicked(t *testing.T) {
	for _, c := range []struct {
		name  string
		stall time.Duration
		extra int // messages a client tick beyond cl_cmdrate's
	}{
		{"within a second", 0, 0},
		{"over a 5 s stall", 5 * time.Second, 8}, // 9 x cl_cmdrate 128: 1 152 messages/s
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newFloodRig(t)
			if c.stall == 0 {
				r.flood(3 * MaxMsgsPerSecond)
			} else {
				r.stall(c.stall, c.extra)
			}
			r.step(t)
			// Kicked in the tick's read, it leaves before the world steps
			// (the tick's second dropClosed): its player is not simulated
			// nor sent to anyone at that tick.
			if n, players := len(r.l.s.sessions), len(r.l.s.w.Players); n != 0 || players != 0 {
				t.Errorf("after the tick that kicked it, %d sessions and %d players are left, want none", n, players)
			}
			r.play(t, time.Second/4)
			reason, counted, logged := r.kicked()
			if !strings.Contains(reason, "message flood") || counted != 1 || logged != 1 {
				t.Fatalf("kicked %q, %d flood kicks counted, %d logged; want a message flood kick counted and logged once",
					reason, counted, logged)
			}
		})
	}
}
