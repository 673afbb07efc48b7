package server

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// eagerView is the server's copy of a client's view as it was kept before
// issue 23, the oracle of the lazy one (clientView.entity): every snapshot
// that reached the client was applied at once, exactly as netclient does.
type eagerView struct {
	ents map[uint16]*game.EntityView
}

// apply updates the view with a snapshot the client received: players it
// carries are observed, players it no longer carries are forgotten (left
// the game or the view rectangle; a player coming back starts a new
// history, as after a teleport).
func (v *eagerView) apply(snap *sentSnap, tickRate int) {
	for _, es := range snap.ents {
		e := v.ents[es.ID]
		if e == nil {
			e = &game.EntityView{Teleport: es.Teleport}
			v.ents[es.ID] = e
		}
		e.Observe(es.Sample(es.Tick), es.Teleport, tickRate) // as netclient: a held copy's own, older tick
	}
	// The entities are in ID order, so a binary search finds them.
	for id := range v.ents {
		i := sort.Search(len(snap.ents), func(i int) bool { return snap.ents[i].ID >= id })
		if i == len(snap.ents) || snap.ents[i].ID != id {
			delete(v.ents, id)
		}
	}
}

// lazyWorld is one random run for TestLazyViewMatchesEager: the players a
// server sends one client, and that client's link.
type lazyWorld struct {
	rng      *rand.Rand
	tickRate int
	a        ackState
	v        clientView
	oracle   eagerView
	applied  uint32  // the oracle has every snapshot up to this seq
	hold     float64 // the chance that a player the baseline carries is held (send)
	ents     map[uint16]*lazyEnt
	// The client: the newest snapshot received and the 32 before it.
	newest uint32
	bits   uint32
	cmd    uint32 // newest command number made
	ran    uint32 // newest command number run
}

// lazyEnt is one player of a lazyWorld.
type lazyEnt struct {
	x, y     float64
	angle    float64
	teleport uint8
	alive    bool
	inView   bool
}

// feed brings the oracle up to the snapshots the lazy view marked reached,
// oldest first, as the eager view applied them when the acks were taken.
func (w *lazyWorld) feed() {
	for s := w.applied + 1; s <= w.a.appliedSeq; s++ {
		if snap := &w.a.sent[s%sentRing]; snap.seq == s && snap.reached {
			w.oracle.apply(snap, w.tickRate)
		}
	}
	w.applied = w.a.appliedSeq
}

// move advances every player one tick: walking, now and then a respawn
// (teleport counter), a jump with no respawn, a death, leaving or entering
// the client's view, or leaving the game (its id is taken by a newcomer).
func (w *lazyWorld) move() {
	step := shared.MaxSpeed / float64(w.tickRate)
	for id := uint16(1); int(id) <= len(w.ents); id++ { // in id order: the run is its seed's alone
		e := w.ents[id]
		r := w.rng.Float64()
		switch {
		case r < 0.01:
			e.teleport++
			e.x, e.y, e.alive = w.rng.Float64()*4000, w.rng.Float64()*3000, true
		case r < 0.02:
			e.x += 500 + w.rng.Float64()*1000 // a jump: no respawn, but too far to slide
		case r < 0.03:
			e.alive = !e.alive
		case r < 0.06:
			e.inView = !e.inView
		case r < 0.063:
			w.v.forget(id, w.a.appliedSeq)
			delete(w.oracle.ents, id)
			e.x, e.y, e.teleport, e.inView = w.rng.Float64()*4000, w.rng.Float64()*3000, uint8(w.rng.IntN(256)), w.rng.IntN(2) == 0
		default:
			e.x += (w.rng.Float64()*2 - 1) * step
			e.y += (w.rng.Float64()*2 - 1) * step
		}
		e.angle = math.Remainder(e.angle+w.rng.Float64()-0.5, 2*math.Pi)
	}
}

// send records the snapshot of tick; it reaches the client unless lost.
// With w.hold, a player in view that the baseline (the newest snapshot the
// view took) carries is now and then held, as priority.go holds one: the
// baseline's copy, its state and older Tick, which may be older than a
// fresh state of a snapshot sent after the baseline, and at most
// maxHeldTicks old.
func (w *lazyWorld) send(tick uint32, lost bool) {
	var base []proto.EntityState
	if b := &w.a.sent[w.a.appliedSeq%sentRing]; w.a.appliedSeq != 0 && b.seq == w.a.appliedSeq && b.reached &&
		w.a.nextSeq+1-w.a.appliedSeq < proto.FrameRingSize {
		base = b.ents
	}
	rec := w.a.record(tick, time.Time{}, w.v.leave)
	for id := uint16(1); int(id) <= len(w.ents); id++ {
		if e := w.ents[id]; e.inView {
			if i := findEntity(base, id); i >= 0 && tick-base[i].Tick < maxHeldTicks && w.rng.Float64() < w.hold {
				rec.ents = append(rec.ents, base[i])
				continue
			}
			fl := uint8(0)
			if e.alive {
				fl = proto.FlagAlive
			}
			rec.ents = append(rec.ents, proto.EntityState{ID: id, X: proto.ToFixed(e.x), Y: proto.ToFixed(e.y),
				Angle: proto.AngleToWire(e.angle), Flags: fl, Teleport: e.teleport, Tick: tick})
		}
	}
	if lost {
		return
	}
	if d := rec.seq - w.newest; d >= 32 {
		w.bits = 0
	} else {
		w.bits = w.bits<<d | 1<<(d-1)
	}
	w.newest = rec.seq
}

// message is a Cmds message of n new commands the client sends with its
// acks; a lost one never reaches the server. Each command carries the ack
// it was made with, as MadeAck gives (the oldest here may be older than
// the message's).
func (w *lazyWorld) message(n int, lost bool, older heldAck) {
	first := w.cmd + 1
	w.cmd += uint32(n)
	if lost || w.newest == 0 {
		return
	}
	if older.seq != 0 && older.seq <= w.a.nextSeq {
		w.v.hold(heldAck{before: first, seq: older.seq, bits: older.bits}, &w.a, w.tickRate)
		w.feed()
	}
	w.v.hold(heldAck{before: first + 1, seq: w.newest, bits: w.bits}, &w.a, w.tickRate)
	w.feed()
}

// run runs the queued commands up to number upTo (catchUp before each).
func (w *lazyWorld) run(upTo uint32) {
	for ; w.ran < upTo; w.ran++ {
		w.v.catchUp(w.ran+1, &w.a, w.tickRate)
		w.feed()
	}
}

// compare checks, for every player and many render ticks from sv_maxunlag's
// deepest (1 s) back to a quarter second of extrapolation ahead of now, that
// the lazy view rewinds to the oracle's sample bit for bit.
func (w *lazyWorld) compare(t *testing.T, seed uint64, now uint32) int {
	t.Helper()
	maxExtrap := float64(MaxExtrapolateMs) * float64(w.tickRate) / 1000
	n := 0
	for id := uint16(1); int(id) <= len(w.ents); id++ {
		o := w.oracle.ents[id]
		for k := 0; k < 12; k++ {
			rt := float64(now) - float64(w.tickRate)*w.rng.Float64()*1.25 + float64(w.tickRate)/4
			if k == 11 {
				rt = float64(now) - float64(w.tickRate) // sv_maxunlag's deepest, after shallower ones
			}
			lazy := w.v.entity(id, rt, &w.a, w.tickRate)
			if (lazy != nil) != (o != nil && o.Hist.Len() > 0) {
				t.Fatalf("seed %d tick %d player %d: lazy view holds it %v, eager view %v", seed, now, id, lazy != nil, o != nil)
			}
			if lazy == nil {
				break
			}
			got, _, _ := lazy.Hist.At(rt, maxExtrap)
			want, _, _ := o.Hist.At(rt, maxExtrap)
			if math.Float64bits(got.X) != math.Float64bits(want.X) || math.Float64bits(got.Y) != math.Float64bits(want.Y) ||
				got.Alive != want.Alive || math.Float64bits(got.Angle) != math.Float64bits(want.Angle) || got.Tick != want.Tick {
				t.Fatalf("seed %d tick %d player %d at render tick %.3f: lazy %+v, eager %+v", seed, now, id, rt, got, want)
			}
			n++
		}
	}
	return n
}

// The lazy view (clientView.entity: replay of the snapshots marked reached)
// rewinds every player to the very sample the eager view of before issue
// 23 (every reached snapshot applied at once) gives, over random runs:
// players walking, respawning, jumping, dying, entering and leaving the
// view, leaving the game with their id reused; snapshots every 1 to 4 ticks
// at 20, 64 and 128 ticks/s with random loss and stalls of up to 3 s (the
// sent ring of 128 overrun); Cmds messages lost, carrying older acks, and
// their commands run late in random bursts (hold, catchUp); players held at the baseline's copy, as priority.go holds them (a state and Tick older than a fresh one sent after the baseline).
func TestLazyViewMatchesEager(t *testing.T) {
	seeds, ticks := 400, 1500
	if testing.Short() {
		seeds = 60
	}
	checked := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		rng := rand.New(rand.NewPCG(seed, 23))
		w := &lazyWorld{rng: rng, tickRate: []int{20, 64, 128}[rng.IntN(3)], ents: map[uint16]*lazyEnt{}, oracle: eagerView{ents: map[uint16]*game.EntityView{}}}
		w.a.rttMs = -1
		if rng.IntN(3) != 0 {
			w.hold = rng.Float64() * 0.8 // priority's held players (a third of the runs hold none)
		}
		for id := uint16(1); int(id) <= 2+rng.IntN(15); id++ {
			w.ents[id] = &lazyEnt{x: rng.Float64() * 4000, y: rng.Float64() * 3000, alive: true, inView: rng.IntN(4) != 0}
		}
		every := 1 + rng.IntN(4)
		loss, msgLoss := rng.Float64()*0.6, rng.Float64()*0.5
		stall, stallLoses := 0, false
		var older heldAck
		for tick := uint32(1); tick <= uint32(ticks); tick++ {
			w.move()
			if stall == 0 && rng.IntN(400) == 0 {
				stall, stallLoses = rng.IntN(3*w.tickRate), rng.IntN(2) == 0
			}
			// The client's message of this tick, its commands run in bursts.
			if (stall == 0 || stallLoses) && rng.IntN(2) == 0 {
				w.message(1+rng.IntN(3), rng.Float64() < msgLoss, older)
				if rng.IntN(3) == 0 {
					older = heldAck{seq: w.newest, bits: w.bits}
				}
			}
			if stall == 0 && rng.IntN(3) != 0 {
				w.run(w.ran + uint32(rng.IntN(int(w.cmd-w.ran)+1)))
				if rng.IntN(10) == 0 {
					w.v.catchUp(^uint32(0), &w.a, w.tickRate) // syncView with none queued
					w.feed()
					w.ran = w.cmd
				}
			}
			if rng.IntN(3) == 0 {
				checked += w.compare(t, seed, tick)
			}
			if stall > 0 {
				stall--
			}
			if tick%uint32(every) == 0 && rng.IntN(10) != 0 { // now and then choked
				w.send(tick, rng.Float64() < loss || stall > 0 && stallLoses)
			}
		}
	}
	if checked < seeds*1000 {
		t.Fatalf("only %d rewinds compared", checked)
	}
	t.Logf("%d rewinds compared over %d seeds", checked, seeds)
}
