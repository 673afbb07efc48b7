//go:build !headless

package client

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/shared"
)

// fakeWorld describes the state a fake server gives a client: players
// others besides the local one, all within its view.
type fakeWorld struct {
	others int     // other players, alive, in view
	lossAt []int   // snapshot indices (0-based) preceded by a lost snapshot
	selfX  float64 // the local player's position (0: the map's centre)
	selfY  float64
	snaps  int // snapshots to send (default 60: three seconds at 20/s)
	// pickups: every pickup of the map in every snapshot, those of
	// awayKind taken (back in 5 s), and the local player with 50 armour
	// and 10 s of double damage left.
	pickups  bool
	awayKind game.PickupKind
}

// newFakeClient connects a real netclient.Client to a fake server over an
// in-memory pipe and feeds it w.snaps snapshots (20/s at 64 ticks/s) with
// w.others players scattered over the local player's view, their names and
// scores: the state Draw reads, without a server or sockets.
func newFakeClient(tb testing.TB, w fakeWorld) *netclient.Client {
	tb.Helper()
	ct, st := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
	sc := proto.NewConn(st)
	tb.Cleanup(func() { sc.Close("test over") })
	const tickRate, tick0, step = 64, 1000, 3
	m, err := game.LoadMap("arena")
	if err != nil {
		tb.Fatal(err)
	}
	if w.selfX == 0 && w.selfY == 0 {
		w.selfX, w.selfY = m.Width/2, m.Height/2
	}
	if w.snaps == 0 {
		w.snaps = 60
	}
	go func() {
		<-sc.Recv() // hello
		sc.Send(&proto.Accept{PlayerID: 1, TickRate: tickRate, Map: "arena", Tick: tick0, UpdateRate: 20})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := netclient.Connect(ctx, func(context.Context, string) (transport.Transport, error) { return ct, nil }, "pipe", netclient.DefaultConfig("you"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { c.Close("test over") })

	rng := rand.New(rand.NewPCG(1, 2))
	type mover struct{ x, y, vx, vy, angle float64 }
	movers := make([]mover, w.others)
	for i := range movers {
		// Scattered over the view, none on top of the local player.
		for {
			x := w.selfX + (rng.Float64()-0.5)*(game.ViewWidth-120)
			y := w.selfY + (rng.Float64()-0.5)*(game.ViewHeight-120)
			if math.Hypot(x-w.selfX, y-w.selfY) > 80 {
				a := rng.Float64() * 2 * math.Pi
				movers[i] = mover{x, y, math.Cos(a) * 150, math.Sin(a) * 150, a}
				break
			}
		}
	}
	scores := []proto.ScoreEntry{{ID: 1, Name: "you"}}
	for i := range movers {
		scores = append(scores, proto.ScoreEntry{ID: uint16(i + 2), Name: fmt.Sprintf("Player %d", i+2), Kills: int16(i % 7), Bot: i%2 == 0})
	}
	self := proto.MakeSelf(shared.NewPlayerState(w.selfX, w.selfY), 100, 0, false, nil)
	seq := uint32(0)
	for k := 0; k < w.snaps; k++ {
		seq++
		for _, l := range w.lossAt {
			if l == k {
				seq++
			}
		}
		ents := make([]proto.EntityState, 0, len(movers))
		for i := range movers {
			mv := &movers[i]
			dt := float64(step) / tickRate
			mv.x, mv.y = mv.x+mv.vx*dt, mv.y+mv.vy*dt
			if math.Abs(mv.x-w.selfX) > game.ViewWidth/2-60 {
				mv.vx = -mv.vx
			}
			if math.Abs(mv.y-w.selfY) > game.ViewHeight/2-60 {
				mv.vy = -mv.vy
			}
			ents = append(ents, proto.EntityState{ID: uint16(i + 2), X: proto.ToFixed(mv.x), Y: proto.ToFixed(mv.y),
				Angle: proto.AngleToWire(mv.angle), Health: uint8(20 + (i*37)%81), Flags: proto.FlagAlive | proto.FlagBot*uint8(1-i%2)})
		}
		s := &proto.Snapshot{Tick: tick0 + uint32(k*step), Seq: seq, Self: self, PingMs: 40,
			EntityDelta: proto.AppendEntityDelta(nil, nil, ents)}
		if w.pickups {
			s.PickupDelta = proto.AppendPickupDelta(nil, nil, fakePickups(m, s.Tick, tickRate, w.awayKind))
			s.Self.Armour, s.Self.PowerTicks = 50, 10*tickRate
		}
		if lo := k * proto.MaxScoreRows; lo < len(scores) { // the table in deltas of at most MaxScoreRows
			s.Scores = scores[lo:min(lo+proto.MaxScoreRows, len(scores))]
		}
		sc.Send(s)
	}
	deadline := time.Now().Add(10 * time.Second)
	for c.View().Stats.SnapshotsReceived < w.snaps {
		if time.Now().After(deadline) {
			tb.Fatalf("the fake server's %d snapshots did not arrive (%d did)", w.snaps, c.View().Stats.SnapshotsReceived)
		}
		if err := c.Poll(); err != nil {
			tb.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	c.Resync()
	c.Advance(time.Millisecond)
	if got := len(c.View().Rendered); got != w.others {
		tb.Fatalf("the fake client renders %d others, want %d", got, w.others)
	}
	return c
}

// newDrawGame is a Game playing on c, w×h pixels, with net_graph at level
// netGraph: what Draw needs, without a window of its own.
func newDrawGame(c *netclient.Client, w, h, netGraph int) *Game {
	g := newGame(Options{Addr: "pipe", AutoPlay: true, Width: w, Height: h})
	g.started = time.Now().Add(-time.Minute)
	g.scenes.Switch(newPlayScene(g, c, "pipe"))
	_ = g.cv.netGraph.Set(fmt.Sprint(netGraph))
	return g
}

// fakePickups is every pickup of m at tick, those of kind away taken and
// back in 5 s.
func fakePickups(m *game.Map, tick uint32, tickRate int, away game.PickupKind) []proto.PickupState {
	var picks []proto.PickupState
	for i, sp := range m.Pickups {
		pk := proto.PickupState{ID: uint16(i + 1), Kind: uint8(sp.Kind), X: proto.ToFixed(sp.At.X), Y: proto.ToFixed(sp.At.Y)}
		if sp.Kind == away {
			pk.RespawnTick, pk.Taker = tick+uint32(5*tickRate), 2
		}
		picks = append(picks, pk)
	}
	return picks
}
