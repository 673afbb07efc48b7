package liteclient_test

import (
	"math"
	"testing"
	"time"

	"tickshot/internal/tool/liteclient"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/server"
)

// A lite client joins a Local server over a HeldPipe on a virtual clock:
// its snapshots decode into the server's own world (every player in its
// frame where the server has it at that tick), after the first full one
// every snapshot is a delta against a baseline it acked (the acks reach
// the server, whose RTT of it is the virtual round trip), its usercmds run
// and move its player, and its shots are lag-compensated: rewound to the
// render time it claimed, never refused.
func TestLiteClientPlaysOnLocal(t *testing.T) {
	const tickRate = 64
	l, err := server.NewLocal(server.Config{Map: "arena", TickRate: tickRate, Seed: 1, Bots: 6, MaxPlayers: 16})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ct, st := transport.HeldPipe(proto.ClientOptions(), proto.ServerOptions(), func() time.Time { return now })
	l.Serve(st)
	c := liteclient.New(ct, liteclient.DefaultConfig("lite", 7))
	dt := time.Second / tickRate
	var spawnX, spawnY int32
	matched, shots, unlagged := 0, 0, 0
	for i := 0; i < 6*tickRate; i++ {
		now = now.Add(dt)
		c.Tick(now)
		st.Flush()
		l.Step(now)
		ct.Flush()
		before := c.Stats().Snapshots
		if err := c.Poll(now); err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		if c.Stats().Snapshots == 1 && before == 0 {
			spawnX, spawnY = c.Self().X, c.Self().Y
		}
		if c.Stats().Snapshots > before {
			tick, ents, _ := c.Frame()
			w := l.World()
			if w.Tick != tick {
				t.Fatalf("snapshot of tick %d after the step of tick %d", tick, w.Tick)
			}
			for _, e := range ents {
				p := w.Player(e.ID)
				if p == nil {
					t.Fatalf("tick %d: player %d in the frame is not on the server", tick, e.ID)
				}
				if e.X != proto.ToFixed(p.State.X) || e.Y != proto.ToFixed(p.State.Y) {
					t.Fatalf("tick %d: player %d at (%d, %d) in the frame, (%d, %d) on the server", tick, e.ID,
						e.X, e.Y, proto.ToFixed(p.State.X), proto.ToFixed(p.State.Y))
				}
				matched++
			}
		}
		for _, js := range l.TakeShots() {
			if js.Shooter != c.ID() {
				continue
			}
			shots++
			if js.Unlagged && !js.Refused {
				unlagged++
			}
		}
	}
	s := c.Stats()
	if !c.Joined() || c.ID() == 0 {
		t.Fatal("not joined")
	}
	if s.Snapshots < 6*20*9/10 || s.FullSnapshots != 1 || s.BaselineMissing != 0 || s.Lost != 0 || matched == 0 {
		t.Errorf("stats %+v, %d frame entities matched: want about 120 snapshots, one full, none lost or without baseline", s, matched)
	}
	// The server measures the round trip from its send to the ack: the
	// client answers at the next tick, one tick (15.6 ms) later.
	if tickMs := 1000.0 / tickRate; float64(s.PingMs) < tickMs-1 || float64(s.PingMs) > 2*tickMs {
		t.Errorf("the server's RTT of the client %d ms, want about one tick (%.1f ms): acks do not reach it", s.PingMs, tickMs)
	}
	t.Logf("stats %+v, %d matched, %d shots, %d unlagged", s, matched, shots, unlagged)
	cl := l.Clients()
	if len(cl) != 1 || cl[0].ID != c.ID() || cl[0].Ran < uint32(s.Cmds)-4 {
		t.Errorf("server's clients %+v, want ours with about %d usercmds run", cl, s.Cmds)
	}
	self := c.Self()
	if math.Hypot(float64(self.X-spawnX), float64(self.Y-spawnY)) == 0 && !self.Dead {
		t.Errorf("the player stayed at its spawn (%d, %d): usercmds do not move it", spawnX, spawnY)
	}
	if shots == 0 || unlagged != shots {
		t.Errorf("%d shots judged, %d of them rewound to the claimed render time; want every one", shots, unlagged)
	}
	c.Close("done")
	st.Flush()
	ct.Flush()
}
