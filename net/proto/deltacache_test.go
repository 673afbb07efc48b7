package proto

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestDeltaCacheGoldenBytes pins the bytes of a cached delta, written by
// hand from the record format (delta.go), on the first write of each
// record and on the copies that follow.
func TestDeltaCacheGoldenBytes(t *testing.T) {
	base := []EntityState{
		{ID: 1, X: 6400, Y: 6400, Health: 100, Flags: FlagAlive},
		{ID: 3, X: 20, Health: 50, Flags: FlagAlive},
		{ID: 7, X: 1, Y: 2, Health: 100, Flags: FlagAlive},
	}
	cur := []EntityState{
		{ID: 1, X: 6464, Y: 6400, Health: 100, Flags: FlagAlive}, // X +64: zigzag 128
		{ID: 3, X: 20, Health: 50, Flags: FlagAlive},             // unchanged: no record
		{ID: 5, Health: 100, Flags: FlagAlive},                   // new: Health, Flags
		{ID: 9},                                                  // new, all zero: its ID and an empty mask
	} // 7 removed
	const want = "01" + "01" + "8001" + // 1: mask X, +64
		"05" + "18" + "64" + "01" + // 5: mask Health|Flags, 100, alive
		"07" + "80" + // 7: removed
		"09" + "00" // 9: new, nothing set
	var c EntityDeltaCache
	for i := range 3 {
		got := c.Append([]byte{0xee}, base, cur)
		if h := hex.EncodeToString(got); h != "ee"+want {
			t.Fatalf("write %d: %s, want ee%s", i, h, want)
		}
	}
	if direct := hex.EncodeToString(AppendEntityDelta(nil, base, cur)); direct != want {
		t.Fatalf("AppendEntityDelta: %s, want %s", direct, want)
	}
	// Three records written once (the removal is not a cached record), copied twice.
	if st := c.Stats(); st != (DeltaCacheStats{Hits: 6, Misses: 3}) {
		t.Errorf("stats %+v, want 6 hits, 3 misses", st)
	}
}

// cacheWorld is a random world's history for the cache property tests:
// frames[t] is the frame of tick t, sorted by ID; some entities stand
// still for a while (so different baselines share a state), others move,
// join, leave and respawn.
func cacheWorld(rng *rand.Rand, ticks, ids int) [][]EntityState {
	world := map[uint16]EntityState{}
	frames := make([][]EntityState, ticks)
	for t := range frames {
		for id := uint16(1); id <= uint16(ids); id++ {
			e, ok := world[id]
			switch r := rng.Float64(); {
			case !ok && r < 0.3:
				world[id] = EntityState{ID: id, X: rng.Int32N(1 << 20), Y: rng.Int32N(1 << 20), Health: 100, Flags: FlagAlive, Weapon: uint8(rng.IntN(3))}
			case ok && r < 0.03:
				delete(world, id)
			case ok && r < 0.6: // the others stand still this tick
				e.X += rng.Int32N(800) - 400
				e.Y += rng.Int32N(800) - 400
				e.Angle = int16(rng.IntN(62832) - 31416)
				if rng.Float64() < 0.05 {
					e.Health, e.Teleport, e.Flags = uint8(rng.IntN(101)), e.Teleport+1, e.Flags^FlagPowered
				}
				world[id] = e
			}
		}
		for id := uint16(1); id <= uint16(ids); id++ {
			if e, ok := world[id]; ok {
				frames[t] = append(frames[t], e)
			}
		}
	}
	return frames
}

// inView is the part of frame f a client sees: each entity kept with
// probability keep (interest management, by ID order as the frame).
func inView[T any](rng *rand.Rand, f []T, keep float64) []T {
	var out []T
	for _, e := range f {
		if rng.Float64() < keep {
			out = append(out, e)
		}
	}
	return out
}

// TestDeltaCacheMatchesDirect: over thousands of random frames, clients
// and baselines (several clients on each baseline tick, some on a full
// snapshot, views that differ), every delta the cache assembles from
// shared records is byte for byte AppendEntityDelta's, decodes to exactly
// the current frame, and records are shared (hits) once clients share a
// baseline. The cache is reset every tick for half the seeds and never for
// the others: its key is the records' whole values, so records kept from
// older ticks are still right.
func TestDeltaCacheMatchesDirect(t *testing.T) {
	var total DeltaCacheStats
	frames := 0
	for seed := uint64(1); seed <= 60; seed++ {
		rng := rand.New(rand.NewPCG(seed, 23))
		hist := cacheWorld(rng, 40, 1+rng.IntN(80))
		var c EntityDeltaCache
		for tick := 8; tick < len(hist); tick++ {
			if seed%2 == 0 {
				c.Reset()
			}
			for client := range 12 {
				var base []EntityState
				if client%6 != 0 { // every sixth client gets a full snapshot
					base = inView(rng, hist[tick-1-rng.IntN(3)], 0.8) // three baseline ticks shared by many
				}
				cur := inView(rng, hist[tick], 0.8)
				prefix := []byte{byte(client)}
				want := AppendEntityDelta(append([]byte(nil), prefix...), base, cur)
				got := c.Append(append([]byte(nil), prefix...), base, cur)
				if !bytes.Equal(got, want) {
					t.Fatalf("seed %d tick %d client %d: cached %x, direct %x", seed, tick, client, got, want)
				}
				dec, err := ApplyEntityDelta(nil, base, got[1:])
				if err != nil {
					t.Fatalf("seed %d tick %d client %d: %v", seed, tick, client, err)
				}
				if !reflect.DeepEqual(dec, cur) && !(len(dec) == 0 && len(cur) == 0) {
					t.Fatalf("seed %d tick %d client %d: decoded %+v, want %+v", seed, tick, client, dec, cur)
				}
				frames++
			}
		}
		st := c.Stats()
		total.Hits += st.Hits
		total.Misses += st.Misses
	}
	t.Logf("%d deltas; records: %d copied, %d written", frames, total.Hits, total.Misses)
	if frames < 2000 {
		t.Fatalf("only %d deltas checked", frames)
	}
	if total.Hits < total.Misses {
		t.Errorf("records copied %d < written %d: clients on one baseline tick should share most records", total.Hits, total.Misses)
	}
}

// TestPickupDeltaCacheMatchesDirect is TestDeltaCacheMatchesDirect for
// pickup frames: respawn ticks and takers change, pickups come and go
// from view.
func TestPickupDeltaCacheMatchesDirect(t *testing.T) {
	var c PickupDeltaCache
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 24
	hist := make([][]PickupState, 60)
	world := make([]PickupState, n)
	for i := range world {
		world[i] = PickupState{ID: uint16(i + 1), Kind: uint8(1 + rng.IntN(4)), X: rng.Int32N(1 << 20), Y: rng.Int32N(1 << 20)}
	}
	for tk := range hist {
		for i := range world {
			if rng.Float64() < 0.05 {
				world[i].RespawnTick, world[i].Taker = uint32(tk+rng.IntN(500)), uint16(rng.IntN(300))
			} else if rng.Float64() < 0.05 {
				world[i].RespawnTick = 0
			}
		}
		hist[tk] = append([]PickupState(nil), world...)
	}
	checked := 0
	for tk := 4; tk < len(hist); tk++ {
		c.Reset()
		for client := range 40 {
			var base []PickupState
			if client%5 != 0 {
				base = inView(rng, hist[tk-1-rng.IntN(3)], 0.7)
			}
			cur := inView(rng, hist[tk], 0.7)
			want := AppendPickupDelta(nil, base, cur)
			got := c.Append(nil, base, cur)
			if !bytes.Equal(got, want) {
				t.Fatalf("tick %d client %d: cached %x, direct %x", tk, client, got, want)
			}
			dec, err := ApplyPickupDelta(nil, base, got)
			if err != nil || (!reflect.DeepEqual(dec, cur) && len(cur)+len(dec) != 0) {
				t.Fatalf("tick %d client %d: decoded %+v (%v), want %+v", tk, client, dec, err, cur)
			}
			checked++
		}
	}
	if st := c.Stats(); st.Hits < st.Misses || checked < 2000 {
		t.Errorf("%d deltas, records %+v: want most copied", checked, st)
	}
}

// TestDeltaCacheNil: a nil cache writes every record afresh, the same bytes.
func TestDeltaCacheNil(t *testing.T) {
	base := []EntityState{{ID: 2, X: 5}}
	cur := []EntityState{{ID: 2, X: 9}, {ID: 4, Health: 1}}
	var c *EntityDeltaCache
	if got, want := c.Append(nil, base, cur), AppendEntityDelta(nil, base, cur); !bytes.Equal(got, want) {
		t.Errorf("nil cache %x, direct %x", got, want)
	}
	var pc *PickupDeltaCache
	pb := []PickupState{{ID: 1, Kind: 1}}
	if got, want := pc.Append(nil, nil, pb), AppendPickupDelta(nil, nil, pb); !bytes.Equal(got, want) {
		t.Errorf("nil pickup cache %x, direct %x", got, want)
	}
}

// BenchmarkEntityDeltaShared writes one tick's entity deltas for 64
// clients, each seeing 48 of 96 entities, against the frames of 4 baseline
// ticks (16 clients on each): every record written afresh ("records=direct") or
// from the tick's shared records ("records=cached", reset each tick). Reports ns
// per client delta and the share of records copied.
// `go test ./net/proto -run '^$' -bench EntityDeltaShared -count 6`
func BenchmarkEntityDeltaShared(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	hist := cacheWorld(rng, 12, 96)
	const clients = 64
	bases := make([][]EntityState, clients)
	curs := make([][]EntityState, clients)
	for i := range clients {
		bases[i] = inView(rng, hist[6+i%4], 0.5)
		curs[i] = inView(rng, hist[11], 0.5)
	}
	var dst []byte
	b.Run("records=direct", func(b *testing.B) {
		for b.Loop() {
			for i := range clients {
				dst = AppendEntityDelta(dst[:0], bases[i], curs[i])
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*clients), "ns/delta")
	})
	b.Run("records=cached", func(b *testing.B) {
		var c EntityDeltaCache
		for b.Loop() {
			c.Reset()
			for i := range clients {
				dst = c.Append(dst[:0], bases[i], curs[i])
			}
		}
		st := c.Stats()
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*clients), "ns/delta")
		b.ReportMetric(100*float64(st.Hits)/float64(max(st.Hits+st.Misses, 1)), "%copied")
	})
}
