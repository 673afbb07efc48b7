package server

import (
	"fmt"
	"testing"
	"time"

	"tickshot/internal/tool/liteclient"
	"tickshot/net/proto"
	"tickshot/net/transport"
)

// The big arena at the player cap (issue 23): 1 024 clients of the wire
// protocol (liteclient: join, snapshot deltas, acks, scripted usercmds that
// move, aim and fire) join a Local server on expanse over in-memory links,
// on a virtual clock, and play.

// scoreBytesBudget is the most a client may receive of scoreboard (the
// Scores rows and the match clock that comes with them), bytes a second
// averaged over a run, at the player cap: scoreBytesPerUpdate bytes of
// rows and the match clock, at most two scoreboards a second (while rows
// are pending; one a second or less otherwise).
const scoreBytesBudget = 1200

// bigRun is a Local server with clients on held pipes, stepped together.
type bigRun struct {
	l       *Local
	now     time.Time
	clients []*liteclient.Client
	pipes   []*transport.HeldEnd
	server  []*transport.HeldEnd
	// scoreBytes counts, per session (by player ID), the bytes of the
	// scoreboards written to it (Scores and the match clock).
	scoreBytes map[uint16]int
}

func newBigRun(t *testing.T, cfg Config, n int) *bigRun {
	t.Helper()
	l, err := NewLocal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &bigRun{l: l, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), scoreBytes: map[uint16]int{}}
	for i := range n {
		ct, st := transport.HeldPipe(proto.ClientOptions(), proto.ServerOptions(), func() time.Time { return r.now })
		l.Serve(st)
		r.clients = append(r.clients, liteclient.New(ct, liteclient.DefaultConfig(fmt.Sprintf("lite%d", i), uint64(i+1))))
		r.pipes, r.server = append(r.pipes, ct), append(r.server, st)
	}
	return r
}

// step runs one tick: the clients send, the server steps, the clients read.
func (r *bigRun) step(t *testing.T) {
	t.Helper()
	r.now = r.now.Add(time.Second / time.Duration(r.l.s.cfg.TickRate))
	for _, c := range r.clients {
		c.Tick(r.now)
	}
	for _, st := range r.server {
		st.Flush()
	}
	r.l.Step(r.now)
	tick := r.l.s.w.Tick
	for _, ss := range r.l.s.sessions {
		if ss.lastScor == tick {
			b, err := compactMsgpack(ss.out.scoreWire)
			if err != nil {
				t.Fatal(err)
			}
			r.scoreBytes[ss.player.ID] += len(b) + 8 // the match clock: an array of 4 small uints
		}
	}
	for i, ct := range r.pipes {
		ct.Flush()
		if err := r.clients[i].Poll(r.now); err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
	}
}

// TestExpanse1024Players: 1 024 clients join a Local server on expanse at
// 64 ticks/s (the player cap, server.MaxPlayersLimit) and play 4 s: every
// one is admitted as a player, receives snapshots and moves from where it
// spawned; the spawns are spread (95 % of the spawn points used, none by
// more than 3 × the mean); the scoreboard costs each client at most
// scoreBytesBudget bytes a second, and each client's table grows by at
// least 10 rows a scoreboard while it learns the 1 024.
func TestExpanse1024Players(t *testing.T) {
	if testing.Short() {
		t.Skip("1 024 clients for 4 s of game time: not in -short")
	}
	const n, tickRate, seconds = MaxPlayersLimit, 64, 4
	start := time.Now()
	r := newBigRun(t, Config{Map: "expanse", TickRate: tickRate, MaxPlayers: n, Seed: 23}, n)
	for range 8 {
		r.step(t)
	}
	w := r.l.s.w
	if len(w.Players) != n {
		t.Fatalf("%d players after the joins, want %d", len(w.Players), n)
	}
	at := map[[2]float64]int{}
	spawned := map[uint16][2]float64{}
	for _, p := range w.Players {
		at[[2]float64{p.LastSpawn.X, p.LastSpawn.Y}]++
		spawned[p.ID] = [2]float64{p.State.X, p.State.Y}
	}
	most := 0
	for _, k := range at {
		most = max(most, k)
	}
	if spawns := len(w.Map.Spawns); len(at) < spawns*95/100 || most > 3*n/spawns {
		t.Errorf("the %d players spawned on %d of the %d spawn points, at most %d on one: want 95 %% of them used, none with more than 3 × the mean",
			n, len(at), spawns, most)
	}
	clear(r.scoreBytes)
	for range seconds * tickRate {
		r.step(t)
	}
	moved, snaps := 0, 0
	for _, p := range w.Players {
		if s := spawned[p.ID]; p.State.X != s[0] || p.State.Y != s[1] || p.Deaths > 0 {
			moved++
		}
	}
	for i, c := range r.clients {
		st := c.Stats()
		if st.Snapshots < seconds*20*8/10 {
			t.Errorf("client %d: %d snapshots in %d s at cl_updaterate 20", i, st.Snapshots, seconds)
		}
		snaps += st.Snapshots
	}
	if moved < n*9/10 {
		t.Errorf("%d of %d players moved from their spawn", moved, n)
	}
	held := n
	for _, ss := range r.l.s.sessions {
		held = min(held, len(ss.view.scores.rows))
	}
	// 4 s of scoreboards every 500 ms, at least 10 new rows each (about
	// 26 fit with their names; the rest are rows held that changed since).
	if held < 2*seconds*10 {
		t.Errorf("after %d s the client holding the fewest rows holds %d", seconds, held)
	}
	total, worst := 0, 0
	for _, b := range r.scoreBytes {
		total += b
		worst = max(worst, b)
	}
	mean := float64(total) / float64(len(r.scoreBytes)) / seconds
	if float64(worst)/seconds > scoreBytesBudget {
		t.Errorf("scoreboard: worst client %.0f B/s, budget %d B/s", float64(worst)/seconds, scoreBytesBudget)
	}
	t.Logf("%d players on expanse, %d s at %d ticks/s: %d spawn points used (at most %d players on one), %d moved, %d snapshots; scoreboard per client mean %.0f B/s, worst %.0f B/s (budget %d), the fewest rows a client holds %d; %v of wall time",
		len(w.Players), seconds, tickRate, len(at), most, moved, snaps, mean, float64(worst)/seconds, scoreBytesBudget, held, time.Since(start).Round(time.Millisecond))
}
