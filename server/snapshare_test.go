package server

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"tickshot/net/proto"
)

// shareClient is a client of a shareRun: its session on the server and
// the acks on their way back.
type shareClient struct {
	ss      *session
	rttTick int      // ticks an ack takes to come back
	acks    []ackDue // in flight, in order
}

type ackDue struct {
	seq uint32
	at  int // tick it arrives
}

// shareRun drives the snapshot writer of one server as send does, with
// clients that join at random ticks (so their snapshot phases differ),
// random cl_updaterate, rate, RTT and loss, and acks that come back late
// or not at all; sessions have no connection, so the bytes written are
// handed to sink instead.
type shareRun struct {
	s       *Server
	clients []*shareClient
	now     time.Time
	tick    int
	written time.Duration // wall time spent writing snapshots (writeDue)
}

func newShareRun(t testing.TB, bots int, cache bool) *shareRun {
	s := lcServer(t, Config{MaxPlayers: 128, Bots: bots, Seed: 3})
	if !cache {
		s.snap.entDeltas, s.snap.pickDeltas = nil, nil
	}
	return &shareRun{s: s, now: time.Unix(1000, 0)}
}

// join adds a client with the given rates.
func (r *shareRun) join(name string, updateRate uint16, rate uint32, rttTick int, noDelta bool) {
	p := r.s.newPlayer(name, false)
	ss := newSession(nil, p, proto.Hello{InterpMs: 100, InterpRatio: 2, UpdateRate: updateRate, Rate: rate, NoDelta: noDelta},
		r.s.w.Tick, r.s.cfg.TickRate, 16)
	r.clients = append(r.clients, &shareClient{ss: ss, rttTick: rttTick})
}

// step runs one tick, then writes the snapshots due (writeDue, as send),
// passing each to sink with the client's index; lost(i) says whether
// client i's snapshot is lost. Acks that arrive this tick are taken first.
func (r *shareRun) step(lost func(i int) bool, sink func(i int, b []byte)) {
	r.tick++
	r.now = r.now.Add(time.Second / time.Duration(r.s.cfg.TickRate))
	r.s.Step(r.now)
	sessions := make([]*session, len(r.clients))
	index := make(map[*session]int, len(r.clients))
	for i, c := range r.clients {
		sessions[i], index[c.ss] = c.ss, i
		for len(c.acks) > 0 && c.acks[0].at <= r.tick {
			c.ss.acks.ack(c.acks[0].seq, 0, r.now)
			c.acks = c.acks[1:]
		}
	}
	r.s.snap.tickTimeUs, r.s.snap.tickStdUs = 0, 0 // wall-clock figures: the same for both servers
	t0 := time.Now()
	var outside time.Duration
	r.s.snap.writeDue(sessions, r.now, func(ss *session, b []byte) {
		o0 := time.Now()
		i := index[ss]
		sink(i, b)
		if !lost(i) {
			r.clients[i].acks = append(r.clients[i].acks, ackDue{ss.acks.nextSeq, r.tick + r.clients[i].rttTick})
		}
		outside += time.Since(o0)
	})
	r.written += time.Since(t0) - outside
}

// TestSharedRecordsWriteTheSameSnapshots: two identical servers, one
// writing its snapshots' entity and pickup deltas from the tick's shared
// records and one writing each client's afresh, over 30 clients (joining
// at random ticks, update rates 10 to 64 a second, some rate-limited into
// chokes, one asking for full snapshots, RTTs of 1 to 12 ticks, 0 to 30 %
// loss) and 1 500 ticks: every snapshot is the same bytes, and the shared
// records are used (copied more often than written).
func TestSharedRecordsWriteTheSameSnapshots(t *testing.T) {
	with, without := newShareRun(t, 30, true), newShareRun(t, 30, false)
	rng := rand.New(rand.NewPCG(5, 5))
	type joinPlan struct {
		at         int
		updateRate uint16
		rate       uint32
		rtt        int
		loss       float64
	}
	var plan []joinPlan
	for i := range 30 {
		p := joinPlan{at: rng.IntN(400), updateRate: []uint16{10, 20, 20, 33, 64}[rng.IntN(5)],
			rate: 30000, rtt: 1 + rng.IntN(12), loss: rng.Float64() * 0.3}
		if i%7 == 0 {
			p.rate = 3000 // chokes
		}
		plan = append(plan, p)
	}
	var losses []float64
	snaps, deltas := 0, 0
	for tick := 0; tick < 1500; tick++ {
		for i, p := range plan {
			if p.at == tick {
				for _, r := range []*shareRun{with, without} {
					r.join(fmt.Sprintf("c%d", i), p.updateRate, p.rate, p.rtt, i == 11)
				}
				losses = append(losses, p.loss)
			}
		}
		// One draw per client per tick, used by both servers.
		draws := make([]float64, len(losses))
		for i := range draws {
			draws[i] = rng.Float64()
		}
		lost := func(i int) bool { return draws[i] < losses[i] }
		var got [][]byte
		with.step(lost, func(i int, b []byte) {
			got = append(got, append([]byte(nil), b...))
			if with.s.snap.buf.snap.Baseline != 0 { // the snapshot just written
				deltas++
			}
		})
		k := 0
		without.step(lost, func(i int, b []byte) {
			if k >= len(got) || !bytes.Equal(got[k], b) {
				t.Fatalf("tick %d client %d: snapshot with shared records differs from one written afresh", tick, i)
			}
			k++
			snaps++
		})
		if k != len(got) {
			t.Fatalf("tick %d: %d snapshots with shared records, %d without", tick, len(got), k)
		}
	}
	st := with.s.snap.entDeltas.Stats()
	t.Logf("%d snapshots (%d deltas); entity records %d copied, %d written", snaps, deltas, st.Hits, st.Misses)
	if snaps < 5000 || deltas < snaps/2 {
		t.Fatalf("%d snapshots, %d deltas: too few exercised", snaps, deltas)
	}
	if st.Hits == 0 {
		t.Errorf("no entity record was shared: %+v", st)
	}
}

// BenchmarkSnapshotSharing measures how many entity records the clients'
// deltas share (%shared: copied from the tick's records rather than
// written), how bursty the snapshots are (burst: the most snapshots
// written in one tick over the mean; p99: the 99th percentile tick over
// the mean), and the wall time and bytes of a snapshot (ns/snapshot,
// B/snapshot), for 60 clients among 30 bots at cl_updaterate 20 and 64
// ticks/s over 20 s, 10 % loss, joined at random ticks. phases=joined: each
// client's snapshots keep the phase of its join (as before phase groups);
// phases=grouped: the clients of an update rate in phase groups
// (phases.go, the server's way); phases=one: all on the same ticks.
// records=afresh writes every client's records, records=shared the tick's
// shared ones (the server's way). rtt=same: every ack takes 4 ticks;
// rtt=spread: 1 to 12. phases=joined/records=afresh is the server before
// issue 23's item 3.
// `go test ./server -run '^$' -bench SnapshotSharing -benchtime 1x`
func BenchmarkSnapshotSharing(b *testing.B) {
	for _, c := range []struct {
		phases string
		shared bool
	}{{"joined", false}, {"joined", true}, {"grouped", true}, {"one", true}} {
		for _, spread := range []bool{false, true} {
			name := fmt.Sprintf("phases=%s/records=%s/rtt=%s", c.phases, map[bool]string{false: "afresh", true: "shared"}[c.shared],
				map[bool]string{false: "same", true: "spread"}[spread])
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					m := snapshotSharing(b, c.phases, c.shared, spread)
					for unit, v := range m {
						b.ReportMetric(v, unit)
					}
				}
			})
		}
	}
}

func snapshotSharing(b *testing.B, phases string, shared, spread bool) map[string]float64 {
	r := newShareRun(b, 30, shared)
	if phases != "grouped" {
		r.s.snap.phases = nil
	}
	rng := rand.New(rand.NewPCG(9, 9))
	joinAt := make([]int, 60)
	for i := range joinAt {
		if phases != "one" {
			joinAt[i] = rng.IntN(64)
		}
	}
	var perTick []int
	var st0 proto.DeltaCacheStats
	var written0 time.Duration
	bytes := 0
	const warm, ticks = 128, 20 * 64
	for tick := 0; tick < warm+ticks; tick++ {
		for i, at := range joinAt {
			if at == tick {
				rtt := 4
				if spread {
					rtt = 1 + rng.IntN(12)
				}
				r.join(fmt.Sprintf("c%d", i), 20, 30000, rtt, false)
			}
		}
		if tick == warm {
			st0, written0 = r.s.snap.entDeltas.Stats(), r.written
		}
		n, nb := 0, 0
		r.step(func(int) bool { return rng.Float64() < 0.1 }, func(_ int, w []byte) { n, nb = n+1, nb+len(w) })
		if tick >= warm {
			perTick = append(perTick, n)
			bytes += nb
		}
	}
	st := r.s.snap.entDeltas.Stats()
	h, m := st.Hits-st0.Hits, st.Misses-st0.Misses
	slices.Sort(perTick)
	total := 0
	for _, n := range perTick {
		total += n
	}
	mean := float64(total) / float64(len(perTick))
	return map[string]float64{
		"%shared":     100 * float64(h) / float64(max(h+m, 1)),
		"burst":       float64(perTick[len(perTick)-1]) / mean,
		"p99":         float64(perTick[len(perTick)*99/100]) / mean,
		"ns/snapshot": float64((r.written - written0).Nanoseconds()) / float64(total),
		"B/snapshot":  float64(bytes) / float64(total),
	}
}
