package proto

import (
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"tickshot/shared"
)

func TestEntityDeltaRoundTripAndSize(t *testing.T) {
	base := []EntityState{
		{ID: 1, X: 6400, Y: 6400, Angle: 100, Health: 100, Flags: FlagAlive},
		{ID: 3, X: -500, Y: 20, Angle: -3000, Health: 50, Flags: FlagAlive | FlagBot, Teleport: 2},
		{ID: 7, X: 1, Y: 2, Health: 100, Flags: FlagAlive},
	}
	cur := []EntityState{
		{ID: 1, X: 6464, Y: 6400, Angle: 100, Health: 100, Flags: FlagAlive},                       // moved in X
		{ID: 3, X: -500, Y: 20, Angle: -3000, Health: 50, Flags: FlagAlive | FlagBot, Teleport: 2}, // unchanged
		{ID: 9}, // new, all zero
		{ID: 65535, X: 1 << 30, Y: -1 << 30, Angle: 32767, Health: 255, Flags: 0xff, Teleport: 255}, // new, extremes
	}
	d := AppendEntityDelta(nil, base, cur)
	got, err := ApplyEntityDelta(nil, base, d)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, cur) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, cur)
	}
	// ID 1: 1 (id) + 1 (mask) + 2 (X +64); ID 3: nothing; 7 removed: 2; 9 new: 2.
	if n := len(AppendEntityDelta(nil, base, cur[:3])); n != 4+2+2 {
		t.Errorf("delta of one moved, one unchanged, one removed, one new: %d bytes, want 8", n)
	}
	// Identical frames: an empty delta.
	if d := AppendEntityDelta(nil, cur, cur); len(d) != 0 {
		t.Errorf("delta of identical frames has %d bytes", len(d))
	}
	// Full snapshot = delta against nothing; it round-trips too.
	full := AppendEntityDelta(nil, nil, cur)
	if got, err := ApplyEntityDelta(nil, nil, full); err != nil || !reflect.DeepEqual(got, cur) {
		t.Fatalf("full: %v %+v", err, got)
	}
}

// TestEntityDeltaCarriesWeaponAndPower: another player's weapon (each of
// shared.NumWeapons) and its double damage (FlagPowered) round-trip, a
// weapon switch alone costs 3 bytes (id, mask, weapon), and a weapon
// past the last is refused (TestEntityDeltaRejectsBrokenInput).
func TestEntityDeltaCarriesWeaponAndPower(t *testing.T) {
	base := []EntityState{{ID: 4, X: 640, Health: 100, Flags: FlagAlive}}
	for w := range uint8(shared.NumWeapons) {
		cur := []EntityState{{ID: 4, X: 640, Health: 100, Flags: FlagAlive | FlagPowered, Weapon: w}}
		d := AppendEntityDelta(nil, base, cur)
		got, err := ApplyEntityDelta(nil, base, d)
		if err != nil || !reflect.DeepEqual(got, cur) {
			t.Fatalf("weapon %d: %v %+v, want %+v", w, err, got, cur)
		}
		switched := []EntityState{{ID: 4, X: 640, Health: 100, Flags: FlagAlive, Weapon: w}}
		if n := len(AppendEntityDelta(nil, base, switched)); w != 0 && n != 3 {
			t.Errorf("a switch to weapon %d alone: %d bytes, want 3", w, n)
		}
		if got, err := ApplyEntityDelta(nil, nil, AppendEntityDelta(nil, nil, cur)); err != nil || !reflect.DeepEqual(got, cur) {
			t.Errorf("full frame, weapon %d: %v %+v", w, err, got)
		}
	}
}

func TestEntityDeltaRejectsBrokenInput(t *testing.T) {
	base := []EntityState{{ID: 2, X: 10}, {ID: 5, X: 20}}
	cases := map[string][]byte{
		"truncated record":         {2},
		"ids out of order":         {5, DeltaHealth, 1, 2, DeltaHealth, 1},
		"duplicate id":             {2, DeltaHealth, 1, 2, DeltaHealth, 1},
		"remove missing entity":    {3, DeltaRemoved},
		"remove with fields":       {2, DeltaRemoved | DeltaX, 2},
		"truncated weapon (bit 6)": {2, 1 << 6},
		"weapon out of range":      {2, DeltaWeapon, shared.NumWeapons},
		"weapon 255":               {2, DeltaWeapon, 255},
		"truncated varint":         {2, DeltaX, 0x80},
		"truncated byte field":     {2, DeltaHealth},
		"id too large":             {0xff, 0xff, 0x04, 0},
		"int32 overflow":           append([]byte{2, DeltaX}, 0xfe, 0xff, 0xff, 0xff, 0x1f), // +2^32-1
		"angle overflow":           {2, DeltaAngle, 0xfe, 0xff, 0x07},                       // +65535
	}
	for name, d := range cases {
		if _, err := ApplyEntityDelta(nil, base, d); !errors.Is(err, ErrDelta) {
			t.Errorf("%s: err %v, want ErrDelta", name, err)
		}
	}
	var big []EntityState
	for id := 1; id <= MaxEntities+1; id++ {
		big = append(big, EntityState{ID: uint16(id), Health: 1})
	}
	if _, err := ApplyEntityDelta(nil, nil, AppendEntityDelta(nil, nil, big)); !errors.Is(err, ErrDelta) {
		t.Errorf("%d entities accepted", len(big))
	}
}

// TestEntityDeltaPipelineProperty drives a sender and a receiver the way
// the server and netclient use the codec, over random worlds, random loss,
// reordering and delayed or lost acks: every snapshot the receiver can
// decode equals the sender's frame for that Seq bit for bit, a baseline the
// receiver never acked is never used, and a delta is refused only when its
// baseline has left the receiver's ring (never by a decode error).
func TestEntityDeltaPipelineProperty(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		runPipeline(t, rng, 400)
	}
}

type wireSnap struct {
	seq, baseline uint32
	delta         []byte
}

func runPipeline(t *testing.T, rng *rand.Rand, steps int) {
	t.Helper()
	world := map[uint16]EntityState{}
	var sent FrameRing // the server's record of what each Seq carried
	var recv FrameRing // the client's frames
	acked := map[uint32]bool{}
	var ackSeq uint32 // newest ack the sender has
	var inflight []wireSnap
	type ackMsg struct {
		seq uint32
		due int
	}
	var acks []ackMsg
	var newestRecv uint32
	decoded, fulls, refused := 0, 0, 0
	lossPct := rng.Float64() * 40
	for step := 1; step <= steps; step++ {
		// The world changes: moves, joins, leaves, respawns.
		for id := uint16(1); id <= 40; id++ {
			e, ok := world[id]
			switch r := rng.Float64(); {
			case !ok && r < 0.05:
				world[id] = EntityState{ID: id, X: rng.Int32N(1 << 20), Y: rng.Int32N(1 << 20), Health: 100, Flags: FlagAlive}
			case ok && r < 0.03:
				delete(world, id)
			case ok && r < 0.8:
				e.X += rng.Int32N(800) - 400
				e.Y += rng.Int32N(800) - 400
				e.Angle = int16(rng.IntN(62832) - 31416)
				if rng.Float64() < 0.05 {
					e.Health, e.Teleport = uint8(rng.IntN(101)), e.Teleport+1
				}
				world[id] = e
			}
		}
		cur := make([]EntityState, 0, len(world))
		for _, e := range world {
			cur = append(cur, e)
		}
		slices.SortFunc(cur, func(a, b EntityState) int { return int(a.ID) - int(b.ID) })

		// The sender: delta against the newest acked Seq still in the window.
		seq := uint32(step)
		var base []EntityState
		baseline := uint32(0)
		if ackSeq != 0 && seq-ackSeq < FrameRingSize {
			if b, ok := sent.Get(ackSeq); ok {
				base, baseline = b, ackSeq
			}
		}
		if baseline != 0 && !acked[baseline] {
			t.Fatalf("sender used baseline %d that was never acked", baseline)
		}
		sent.Put(seq, cur)
		if rng.Float64()*100 >= lossPct {
			inflight = append(inflight, wireSnap{seq, baseline, AppendEntityDelta(nil, base, cur)})
		}
		// Reordering: sometimes the two newest in flight swap.
		if n := len(inflight); n >= 2 && rng.Float64() < 0.1 {
			inflight[n-1], inflight[n-2] = inflight[n-2], inflight[n-1]
		}
		// Delivery of some of what is in flight.
		for len(inflight) > 0 && rng.Float64() < 0.7 {
			w := inflight[0]
			inflight = inflight[1:]
			var b []EntityState
			if w.baseline != 0 {
				var ok bool
				if b, ok = recv.Get(w.baseline); !ok {
					refused++
					continue
				}
			} else {
				fulls++
			}
			got, err := ApplyEntityDelta(nil, b, w.delta)
			if err != nil {
				t.Fatalf("seq %d (baseline %d): %v", w.seq, w.baseline, err)
			}
			want, _ := sent.Get(w.seq)
			if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("seq %d (baseline %d): reconstructed frame differs\n got %+v\nwant %+v", w.seq, w.baseline, got, want)
			}
			decoded++
			recv.Put(w.seq, got)
			if w.seq > newestRecv {
				newestRecv = w.seq
				if rng.Float64() >= 0.2 { // the ack may be lost
					acks = append(acks, ackMsg{w.seq, step + rng.IntN(6)})
				}
			}
		}
		// Acks arrive after a delay, in order.
		for len(acks) > 0 && acks[0].due <= step {
			acked[acks[0].seq] = true
			if acks[0].seq > ackSeq {
				ackSeq = acks[0].seq
			}
			acks = acks[1:]
		}
	}
	if decoded == 0 || decoded == fulls {
		t.Fatalf("decoded %d snapshots, %d of them full: no deltas exercised", decoded, fulls)
	}
	if refused > decoded/10+5 {
		t.Errorf("%d deltas refused for a missing baseline against %d decoded", refused, decoded)
	}
}

func FuzzApplyEntityDelta(f *testing.F) {
	base := []EntityState{{ID: 1, X: 100, Health: 100, Flags: FlagAlive}, {ID: 4, Y: -7, Angle: 5}}
	cur := []EntityState{{ID: 1, X: 164, Health: 90, Flags: FlagAlive}, {ID: 6, X: 1 << 20}}
	f.Add(AppendEntityDelta(nil, base, cur))
	f.Add(AppendEntityDelta(nil, nil, cur))
	f.Add([]byte{1, DeltaRemoved, 4, DeltaRemoved})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0x3f})
	f.Fuzz(func(t *testing.T, d []byte) {
		got, err := ApplyEntityDelta(nil, base, d)
		if err != nil {
			if !errors.Is(err, ErrDelta) {
				t.Fatalf("error does not wrap ErrDelta: %v", err)
			}
			return
		}
		if len(got) > MaxEntities {
			t.Fatalf("%d entities", len(got))
		}
		for i := 1; i < len(got); i++ {
			if got[i].ID <= got[i-1].ID {
				t.Fatalf("entities out of order: %d after %d", got[i].ID, got[i-1].ID)
			}
		}
		// What was accepted re-encodes to a delta that gives the same frame.
		again, err := ApplyEntityDelta(nil, base, AppendEntityDelta(nil, base, got))
		if err != nil || !reflect.DeepEqual(again, got) && !(len(again) == 0 && len(got) == 0) {
			t.Fatalf("re-encoding an accepted frame: %v", err)
		}
	})
}

// TestDeltaBinSmallerThanMsgpackRecords backs the format choice in
// docs/ARCHITECTURE.md: the same delta records as a msgpack array of
// arrays (id, mask, changed fields) against the compact byte string, over
// frames of 16 players of whom about three quarters move between snapshots.
func TestDeltaBinSmallerThanMsgpackRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var binTotal, mpTotal int
	base := make([]EntityState, 16)
	for i := range base {
		base[i] = EntityState{ID: uint16(i + 1), X: rng.Int32N(1 << 17), Y: rng.Int32N(1 << 17), Angle: int16(rng.IntN(60000) - 30000), Health: 100, Flags: FlagAlive}
	}
	for round := 0; round < 200; round++ {
		cur := slices.Clone(base)
		for i := range cur {
			if rng.Float64() < 0.74 {
				cur[i].X += rng.Int32N(1200) - 600
				cur[i].Y += rng.Int32N(1200) - 600
				cur[i].Angle += int16(rng.IntN(2000) - 1000)
			}
		}
		binTotal += len(AppendEntityDelta(nil, base, cur))
		var recs [][]any
		for i := range cur {
			b, c := base[i], cur[i]
			if b == c {
				continue
			}
			rec := []any{c.ID, uint8(0)}
			var mask uint8
			if c.X != b.X {
				mask |= DeltaX
				rec = append(rec, c.X-b.X)
			}
			if c.Y != b.Y {
				mask |= DeltaY
				rec = append(rec, c.Y-b.Y)
			}
			if c.Angle != b.Angle {
				mask |= DeltaAngle
				rec = append(rec, c.Angle-b.Angle)
			}
			rec[1] = mask
			recs = append(recs, rec)
		}
		mp, err := msgpack.Marshal(recs)
		if err != nil {
			t.Fatal(err)
		}
		mpTotal += len(mp)
		base = cur
	}
	t.Logf("16 players, 200 snapshots: compact bin %.1f B, msgpack records %.1f B a snapshot (%.0f %%)",
		float64(binTotal)/200, float64(mpTotal)/200, 100*float64(binTotal)/float64(mpTotal))
	if binTotal >= mpTotal {
		t.Errorf("the compact delta (%d B) is not smaller than msgpack records (%d B)", binTotal, mpTotal)
	}
}

// TestEntityRecordLenMatchesRecord: on random baselines and states (every
// field changed or not, coordinates near and far, the whole range of each
// integer, held copies, new entities), EntityRecordLen counts exactly the
// bytes AppendEntityRecord writes.
func TestEntityRecordLenMatchesRecord(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 23))
	i32 := func() int32 {
		switch r.IntN(4) {
		case 0:
			return int32(r.Uint32()) // anywhere in range
		case 1:
			return []int32{math.MinInt32, math.MaxInt32, 0, -1, 63, 64, -64, -65, 8191, 8192}[r.IntN(10)]
		}
		return int32(r.IntN(20000) - 10000)
	}
	var buf []byte
	for range 200000 {
		base := EntityState{ID: uint16(r.Uint32()), X: i32(), Y: i32(), Angle: int16(r.Uint32()), Health: uint8(r.Uint32()),
			Flags: uint8(r.Uint32()), Teleport: uint8(r.Uint32()), Weapon: uint8(r.Uint32()), Tick: r.Uint32()}
		cur := base
		if r.IntN(2) == 0 {
			cur.X = i32()
		}
		if r.IntN(2) == 0 {
			cur.Y = i32()
		}
		if r.IntN(3) == 0 {
			cur.Angle = int16(r.Uint32())
		}
		if r.IntN(4) == 0 {
			cur.Health = uint8(r.Uint32())
		}
		if r.IntN(4) == 0 {
			cur.Flags = uint8(r.Uint32())
		}
		if r.IntN(5) == 0 {
			cur.Teleport = uint8(r.Uint32())
		}
		if r.IntN(5) == 0 {
			cur.Weapon = uint8(r.Uint32())
		}
		if r.IntN(3) > 0 {
			cur.Tick++ // fresh; else a held copy when nothing else changed
		}
		inBase := r.IntN(5) > 0
		if r.IntN(100) == 0 { // new, every field zero: a record of its ID and an empty mask
			cur, inBase = EntityState{ID: cur.ID}, false
		}
		buf = AppendEntityRecord(buf[:0], base, cur, inBase)
		if got := EntityRecordLen(base, cur, inBase); got != len(buf) {
			t.Fatalf("base %+v, cur %+v, in base %v: EntityRecordLen %d, the record %d bytes", base, cur, inBase, got, len(buf))
		}
	}
}
