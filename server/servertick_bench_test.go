package server_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/internal/tool/liteclient"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/server"
)

// tickPopulations are ServerTick's populations, each on the map of its
// size (the same player density): 64 players on arena (64x48 tiles), 256
// on sprawl (120x90), 1 024 on expanse (256x192).
var tickPopulations = []struct {
	players int
	gameMap string
}{{64, "arena"}, {256, "sprawl"}, {1024, "expanse"}}

// BenchmarkServerTick is one server tick with N human sessions, each a
// lite client (internal/tool/liteclient: the join, snapshot deltas
// decoded and acked, one scripted usercmd per tick sent at cl_cmdrate 64,
// moving, aiming at the nearest player and firing a burst every 1-2.5 s so
// lag compensation runs, as a running server's: Local.JudgeShots off) on
// an in-memory link (transport.HeldPipe), the
// server stepped on a virtual clock at sv_tickrate 64 and 128 with no
// bots and a match that does not end (mp_fraglimit 0, mp_timelimit 0):
//
//	go test ./server -run '^$' -bench 'ServerTick/players=(64|256|1024)' -benchmem
//
// ns/op is the server's work for one tick: decoding the usercmds and acks
// that arrived since the last (over sockets its read goroutines' work)
// and Step (usercmds, the world, lag compensation, every client's
// snapshot); step-ns/tick is Step alone. B/client/s is what the server
// sent each client, snapshots and all, per second of game time.
// client-ns/tick is the N lite clients' own work a tick (reading their
// snapshots, making usercmds), outside the timer. A socket's write is not
// in it. Each population runs 8 s of game time before the timer starts,
// so every client is in play with delta snapshots and each session's ring
// of sent snapshots (sentRing, 128: 6.4 s at cl_updaterate 20) has filled
// its storage: the steady state of a running server, not its first
// seconds' allocations (with -short, as make bench-short runs it, 1/8 s:
// enough to check it runs, not to measure).
func BenchmarkServerTick(b *testing.B) {
	for _, pop := range tickPopulations {
		b.Run(fmt.Sprintf("players=%d", pop.players), func(b *testing.B) {
			for _, tickRate := range []int{64, 128} {
				b.Run(fmt.Sprintf("tickrate=%d", tickRate), func(b *testing.B) {
					newTickRig(b, pop.players, pop.gameMap, tickRate).bench(b) // once: b.Loop finds b.N
				})
			}
		})
	}
}

// tickRig is a Local server with its lite clients on a virtual clock.
type tickRig struct {
	l        *server.Local
	now      time.Time
	dt       time.Duration
	tickRate int
	clients  []*liteclient.Client
	toClient []*transport.HeldEnd // each client's end: the server's frames wait here
	toServer []*transport.HeldEnd // the server's end of each: the client's frames wait here
	cold     bool                 // bench empties the caches before each tick (BenchmarkServerTickColdCache)
}

func newTickRig(b testing.TB, players int, mapName string, tickRate int) *tickRig {
	b.Helper()
	if !slices.Contains(game.MapNames(), mapName) || players > server.MaxPlayersLimit {
		b.Skipf("players=%d needs the map %s and a player cap of at least %d (server.MaxPlayersLimit is %d): not here yet",
			players, mapName, players, server.MaxPlayersLimit)
	}
	l, err := server.NewLocal(server.Config{Map: mapName, TickRate: tickRate, MaxPlayers: players, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	for _, cmd := range []string{"mp_fraglimit 0", "mp_timelimit 0"} {
		l.Exec(cmd)
	}
	l.JudgeShots(false) // a running server's lag compensation, not the lab's record of every box
	r := &tickRig{l: l, now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), dt: time.Second / time.Duration(tickRate), tickRate: tickRate}
	clock := func() time.Time { return r.now }
	for i := range players {
		ct, st := transport.HeldPipe(proto.ClientOptions(), proto.ServerOptions(), clock)
		l.Serve(st)
		cfg := liteclient.DefaultConfig(fmt.Sprintf("lite%d", i), uint64(i)+1)
		cfg.CmdRate = 64
		r.clients = append(r.clients, liteclient.New(ct, cfg))
		r.toClient, r.toServer = append(r.toClient, ct), append(r.toServer, st)
	}
	warmup := 8 * tickRate
	if testing.Short() {
		warmup = tickRate / 8 // make bench-short: a snapshot or two each, not the steady state
	}
	for range warmup {
		r.clientsTick()
		r.serverTick()
		r.clientsRead(b)
	}
	for _, c := range r.clients {
		if !c.Joined() || c.Accept().Spectator || c.Stats().Snapshots == 0 {
			b.Fatalf("client %d: joined %v, %+v after %d ticks", c.ID(), c.Joined(), c.Stats(), warmup)
		}
	}
	return r
}

// clientsTick moves the clock a tick on and has every client make its
// usercmd (sent when cl_cmdrate says).
func (r *tickRig) clientsTick() {
	r.now = r.now.Add(r.dt)
	for _, c := range r.clients {
		c.Tick(r.now)
	}
}

// serverTick is the server's work: the clients' frames read, one Step.
// It returns how long Step took.
func (r *tickRig) serverTick() time.Duration {
	for _, st := range r.toServer {
		st.Flush()
	}
	t0 := time.Now()
	r.l.Step(r.now)
	return time.Since(t0)
}

// clientsRead has every client read what the server sent it.
func (r *tickRig) clientsRead(b testing.TB) {
	for i, c := range r.clients {
		r.toClient[i].Flush()
		if err := c.Poll(r.now); err != nil {
			b.Fatalf("client %d: %v", c.ID(), err)
		}
	}
}

// sentBytes is what the server has sent all clients.
func (r *tickRig) sentBytes() uint64 {
	var n uint64
	for _, st := range r.toServer {
		n += st.Stats().BytesOut
	}
	return n
}

// BenchmarkServerTickColdCache is BenchmarkServerTick at 64 ticks/s with
// the CPU's caches emptied before each tick (evictCaches, outside the
// timer): every population's tick starts the way the 1 024-player one
// does anyway. At 64 players the server's heap (27 MiB with the lite
// clients') stays in the caches from one tick to the next; at 256
// and 1 024 (124 and 556 MiB) the clients' work between two ticks evicts
// it, so BenchmarkServerTick's ratio of the two compares a tick served
// from the caches with one served from memory. This one compares the
// same work, cold both, which is what grows with the players and what
// interest management, the spatial index and priority are there to hold
// down (docs/MEASUREMENTS.md, "The tick's ratio and the caches"):
//
// The eviction reads (evictCaches), so it leaves no modified lines of its
// own for the timed tick to write back.
//
//	go test ./server -run '^$' -bench '^BenchmarkServerTickColdCache$/players=(64|1024)$' -benchtime 300x
//
// Its first population, 4 players on arena, bounds what emptying the caches
// costs any tick whatever its players (the code, the world, the runtime's
// own state fetched again).
func BenchmarkServerTickColdCache(b *testing.B) {
	pops := append([]struct {
		players int
		gameMap string
	}{{4, "arena"}}, tickPopulations...)
	for _, pop := range pops {
		b.Run(fmt.Sprintf("players=%d", pop.players), func(b *testing.B) {
			r := newTickRig(b, pop.players, pop.gameMap, 64)
			r.cold = true
			b.Cleanup(func() { evictBuf = nil }) // 128 MiB not kept live for the benchmarks after
			r.bench(b)
		})
	}
}

// evictSize is what evictCaches writes, bytes: several times the largest
// last-level cache of the machines this runs on (35.8 MiB on the 2-core
// machine of MEASUREMENTS.md).
const evictSize = 128 << 20

var (
	evictBuf  []byte
	evictSink byte // what the sweep read, so that it is not optimized away
)

// evictCaches reads one byte of every cache line of a buffer several
// times any last-level cache, which leaves none of the server's state in
// the caches (nor, with 4 KiB pages, its pages in the TLB). It reads
// rather than writes: written lines would wait in the caches to be
// written back, and the timed tick would pay for that. The buffer is
// written once, when made, so that its pages are its own (an untouched
// page reads as the kernel's one zero page).
func evictCaches() {
	if evictBuf == nil {
		evictBuf = make([]byte, evictSize)
		for i := range evictBuf {
			evictBuf[i] = byte(i)
		}
	}
	var x byte
	for i := 0; i < len(evictBuf); i += 64 {
		x += evictBuf[i]
	}
	evictSink += x
}

func (r *tickRig) bench(b *testing.B) {
	b.ReportAllocs()
	sent0 := r.sentBytes()
	var step, clients time.Duration
	ticks := 0
	for b.Loop() {
		b.StopTimer()
		t0 := time.Now()
		r.clientsTick()
		clients += time.Since(t0)
		if r.cold {
			evictCaches()
		}
		b.StartTimer()
		step += r.serverTick()
		b.StopTimer()
		t0 = time.Now()
		r.clientsRead(b)
		clients += time.Since(t0)
		b.StartTimer()
		ticks++
	}
	seconds := float64(ticks) / float64(r.tickRate)
	b.ReportMetric(float64(r.sentBytes()-sent0)/float64(len(r.clients))/seconds, "B/client/s")
	b.ReportMetric(float64(step.Nanoseconds())/float64(ticks), "step-ns/tick")
	b.ReportMetric(float64(clients.Nanoseconds())/float64(ticks), "client-ns/tick")
}
