package server

import (
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// ---- helpers (prefixed lc to stay clear of other tests in package server) ----

func lcQuiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// lcServer makes a server that is never Run: the tests drive it with Step or
// call its internals directly.
func lcServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	cfg.Logger = lcQuiet()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// lcSession is a session without a connection, for rewind tests: measured
// RTT rttMs, announced cl_interp 100 ms, cl_interp_ratio 2, cl_updaterate 20.
func lcSession(p *game.Player, rttMs float64) *session {
	ss := newSession(nil, p, proto.Hello{InterpMs: 100, InterpRatio: 2, UpdateRate: 20}, 0, DefaultTickRate, 16)
	ss.acks.rttMs = rttMs
	return ss
}

// testSession is a session without a connection for player p (no RTT
// measured yet, cl_updaterate 20) that has acked the snapshot of tick ackTick.
func testSession(p *game.Player, ackTick uint32) *session {
	return newSession(nil, p, proto.Hello{UpdateRate: 20}, ackTick, DefaultTickRate, 16)
}

// lcRun steps s for n ticks at its tick rate from *now; when ss is not nil,
// every snapshotEvery ticks the snapshot the server would send ss is applied
// to ss's view, as if the client had received and acknowledged it.
func lcRun(s *Server, now *time.Time, n int, ss *session, snapshotEvery int) {
	dt := time.Second / time.Duration(s.cfg.TickRate)
	for i := 0; i < n; i++ {
		*now = now.Add(dt)
		s.Step(*now)
		if ss != nil && s.w.Tick%uint32(snapshotEvery) == 0 {
			s.snap.buildFrame()
			snap := s.snap.selectFor(ss)
			s.applyToView(ss, &sentSnap{seq: s.w.Tick, tick: s.w.Tick, ents: snap.Entities})
		}
	}
}

// lcBitsEqual reports whether a and b are identical bit for bit (floats
// compared by their bits, so -0 != 0 and NaN == the same NaN), following
// pointers, arrays, slices, maps and unexported fields.
func lcBitsEqual(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() || a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !lcBitsEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Array, reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !lcBitsEqual(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return lcBitsEqual(a.Elem(), b.Elem())
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !lcBitsEqual(it.Value(), bv) {
				return false
			}
		}
		return true
	}
	panic("lcBitsEqual: unhandled kind " + a.Kind().String())
}

func lcSame(a, b any) bool { return lcBitsEqual(reflect.ValueOf(a), reflect.ValueOf(b)) }

// ---- lagRing ----

func TestLagRingInterpolates(t *testing.T) {
	var r lagRing
	for tick := uint32(1); tick <= 10; tick++ {
		r.record(lagRecord{Sample: game.Sample{Tick: tick, X: float64(tick) * 10, Y: 100 - float64(tick)*3, Alive: true}})
	}
	for _, tt := range []float64{1, 2.5, 5.25, 7.999, 9.5, 10} {
		x, y, alive, ok := r.at(tt)
		if !ok || !alive {
			t.Fatalf("at(%v): ok %v alive %v", tt, ok, alive)
		}
		// The same function the client interpolates with, on the same records.
		i := int(math.Ceil(tt)) - 1 // index of the record at or after tt
		if i == 0 {
			i = 1
		}
		a, b := r.get(i-1), r.get(i)
		want := game.Lerp(a.Sample, b.Sample, (tt-float64(a.Tick))/float64(b.Tick-a.Tick))
		if x != want.X || y != want.Y {
			t.Errorf("at(%v) = (%v, %v), want game.Lerp's (%v, %v)", tt, x, y, want.X, want.Y)
		}
		if math.Abs(x-tt*10) > 1e-9 || math.Abs(y-(100-tt*3)) > 1e-9 {
			t.Errorf("at(%v) = (%v, %v), want (%v, %v)", tt, x, y, tt*10, 100-tt*3)
		}
	}
	// Alive follows the earlier record until the later one is reached.
	r = lagRing{}
	r.record(lagRecord{Sample: game.Sample{Tick: 1, Alive: true}})
	r.record(lagRecord{Sample: game.Sample{Tick: 2, Alive: false}})
	if _, _, alive, _ := r.at(1.5); !alive {
		t.Error("at(1.5) between alive and dead records: want alive")
	}
	if _, _, alive, _ := r.at(2); alive {
		t.Error("at(2) on a dead record: want dead")
	}
}

func TestLagRingWrapsAndRefusesOlder(t *testing.T) {
	var r lagRing
	if _, _, _, ok := r.at(0); ok {
		t.Error("empty ring answered")
	}
	var nilRing *lagRing
	if _, _, _, ok := nilRing.at(0); ok {
		t.Error("nil ring answered")
	}
	const total = MaxUnlagTicks + 50
	for tick := uint32(1); tick <= total; tick++ {
		r.record(lagRecord{Sample: game.Sample{Tick: tick, X: float64(tick), Alive: true}})
	}
	if r.n != MaxUnlagTicks {
		t.Fatalf("n = %d, want %d", r.n, MaxUnlagTicks)
	}
	oldest := uint32(total - MaxUnlagTicks + 1)
	for i := 0; i < r.n; i++ {
		if got := r.get(i).Tick; got != oldest+uint32(i) {
			t.Fatalf("record %d has tick %d, want %d (newest kept, in order)", i, got, oldest+uint32(i))
		}
	}
	for _, tt := range []float64{float64(oldest) - 0.01, float64(oldest) - 1, 0, float64(total) + 0.01} {
		if _, _, _, ok := r.at(tt); ok {
			t.Errorf("at(%v) answered outside [%d, %d]", tt, oldest, total)
		}
	}
	for _, tt := range []float64{float64(oldest), float64(oldest) + 0.5, float64(total) - 0.25, float64(total)} {
		x, _, _, ok := r.at(tt)
		if !ok || math.Abs(x-tt) > 1e-9 {
			t.Errorf("at(%v) = %v, %v; want %v, true", tt, x, ok, tt)
		}
	}
}

// atBySearch is lagRing.at as it was before the direct index: the record
// at or after t by binary search alone (search, the reference),
// interpolated as at does (lerpAt).
func atBySearch(r *lagRing, t float64) (x, y float64, alive, ok bool) {
	if r.n == 0 {
		return 0, 0, false, false
	}
	if t < float64(r.get(0).Tick) || t > float64(r.get(r.n-1).Tick) {
		return 0, 0, false, false
	}
	return r.lerpAt(r.search(t), t)
}

// lagRing.at answers bit for bit as the binary search does, on rings one
// record a tick (where it indexes directly) and with gaps (stalls: where
// it must search), wrapped or not, at ticks near 2^32 (where a float64
// holds the least of a tick's fraction), for times on records, between
// them and past them.
func TestLagRingIndexMatchesSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	for trial := range 3000 {
		var r lagRing
		tick := uint32(rng.IntN(1000)) + 1
		if trial%3 == 0 {
			tick = math.MaxUint32 - 20000 + uint32(rng.IntN(1000))
		}
		gaps := trial%2 == 1
		for range 1 + rng.IntN(2*MaxUnlagTicks) {
			r.record(lagRecord{Sample: game.Sample{Tick: tick, X: rng.Float64() * 4000, Y: rng.Float64() * 4000, Alive: rng.IntN(8) > 0},
				teleport: uint8(rng.IntN(2))})
			tick++
			if gaps && rng.IntN(16) == 0 {
				tick += uint32(1 + rng.IntN(5))
			}
		}
		first, last := float64(r.get(0).Tick), float64(r.get(r.n-1).Tick)
		for range 40 {
			var tt float64
			switch rng.IntN(4) {
			case 0: // on a record
				tt = float64(r.get(rng.IntN(r.n)).Tick)
			case 1: // just either side of one
				tt = math.Nextafter(float64(r.get(rng.IntN(r.n)).Tick), math.Inf(2*rng.IntN(2)-1))
			default: // anywhere in the record, or a little outside it
				tt = first - 2 + rng.Float64()*(last-first+4)
			}
			x, y, alive, ok := r.at(tt)
			wx, wy, walive, wok := atBySearch(&r, tt)
			if math.Float64bits(x) != math.Float64bits(wx) || math.Float64bits(y) != math.Float64bits(wy) || alive != walive || ok != wok {
				t.Fatalf("trial %d (gaps %v, %d records from tick %v to %v): at(%v) = (%v, %v, %v, %v), the search's (%v, %v, %v, %v)",
					trial, gaps, r.n, first, last, tt, x, y, alive, ok, wx, wy, walive, wok)
			}
		}
	}
}

func TestLagRingNoInterpolationAcrossTeleport(t *testing.T) {
	// Respawn: the teleport counter changes between ticks 2 and 3.
	var r lagRing
	r.record(lagRecord{Sample: game.Sample{Tick: 1, X: 100, Y: 100, Alive: true}, teleport: 4})
	r.record(lagRecord{Sample: game.Sample{Tick: 2, X: 104, Y: 100, Alive: false}, teleport: 4})
	r.record(lagRecord{Sample: game.Sample{Tick: 3, X: 110, Y: 120, Alive: true}, teleport: 5})
	for _, tt := range []float64{2.01, 2.5, 2.99, 3} {
		x, y, alive, ok := r.at(tt)
		if !ok || x != 110 || y != 120 || !alive {
			t.Errorf("at(%v) across a respawn = (%v, %v, %v, %v), want the later record (110, 120, alive)", tt, x, y, alive, ok)
		}
	}
	// A jump larger than game.TeleportDist without a counter change.
	r = lagRing{}
	r.record(lagRecord{Sample: game.Sample{Tick: 1, X: 0, Alive: true}})
	r.record(lagRecord{Sample: game.Sample{Tick: 2, X: game.TeleportDist + 1, Alive: true}})
	r.record(lagRecord{Sample: game.Sample{Tick: 3, X: game.TeleportDist + 1 + game.TeleportDist - 1, Alive: true}})
	if x, _, _, _ := r.at(1.5); x != game.TeleportDist+1 {
		t.Errorf("at(1.5) across a jump of %v = %v, want the later record", game.TeleportDist+1, x)
	}
	// Just under the limit it interpolates.
	if x, _, _, _ := r.at(2.5); math.Abs(x-(game.TeleportDist+1+(game.TeleportDist-1)/2.0)) > 1e-9 {
		t.Errorf("at(2.5) across a move of %v = %v, want the midpoint", game.TeleportDist-1, x)
	}
}

// ---- rewindTick: clamping and forged inputs ----

func TestRewindTickClampsToMaxUnlag(t *testing.T) {
	s := lcServer(t, Config{TickRate: 64, Bots: 1, Seed: 1})
	s.w.Tick = 10000
	_ = s.vars.maxUnlag.Set("0.5")
	ss := lcSession(s.w.Players[0], 900) // now - RTT - lerp is ~64 ticks back
	now := float64(s.w.Tick)
	lo := now - 0.5*64

	// An honest command with that latency: 900 ms + 100 ms lerp ago.
	cmd := shared.UserCmd{TickCount: s.w.Tick - 58, LerpMsec: 100}
	info := s.rewinder.rewindTick(ss, &cmd)
	if !info.Clamped || info.Used != lo {
		t.Errorf("rewind %+v: want clamped to now - sv_maxunlag = %v", info, lo)
	}
	// A command from the future.
	cmd = shared.UserCmd{TickCount: s.w.Tick + 3, LerpMsec: 0}
	ss.acks.rttMs = 0
	info = s.rewinder.rewindTick(ss, &cmd)
	if !info.Clamped || info.Used != now {
		t.Errorf("rewind %+v: want clamped to now %v", info, now)
	}
	// In range: neither clamped nor overridden.
	ss.acks.rttMs = 100
	cmd = shared.UserCmd{TickCount: s.w.Tick - 6, TickFrac: 100, LerpMsec: 100}
	info = s.rewinder.rewindTick(ss, &cmd)
	if info.Clamped || info.UsedServer || info.Used != cmd.RenderTick(64) {
		t.Errorf("rewind %+v: want exactly the command's render tick %v", info, cmd.RenderTick(64))
	}
	// sv_maxunlag 0 turns rewinding into "the present".
	_ = s.vars.maxUnlag.Set("0")
	info = s.rewinder.rewindTick(ss, &cmd)
	if info.Used != now {
		t.Errorf("sv_maxunlag 0: rewound to %v, want now %v", info.Used, now)
	}
}

func TestRewindTickForgedInputs(t *testing.T) {
	const tr = 64
	s := lcServer(t, Config{TickRate: tr, Bots: 1, Seed: 1})
	s.w.Tick = 50000
	ss := lcSession(s.w.Players[0], 100)
	now := float64(s.w.Tick)
	maxLerp := ss.maxLerpMs()
	if maxLerp != 101 {
		t.Fatalf("maxLerpMs with cl_interp 100, ratio 2, updaterate 20 = %v, want 101", maxLerp)
	}
	lo := now - s.vars.maxUnlag.Get()*tr
	inRange := func(info rewindInfo) bool { return info.Used >= lo && info.Used <= now }

	// An honest command: it was made RTT ago and drew 100 ms in the past.
	honest := shared.UserCmd{TickCount: s.w.Tick - 6, TickFrac: 102, LerpMsec: 100}
	info := s.rewinder.rewindTick(ss, &honest)
	if info.UsedServer || info.Clamped || info.Used != honest.RenderTick(tr) {
		t.Errorf("honest command: %+v, want its render tick %v", info, honest.RenderTick(tr))
	}

	// lerp_msec 10000 is clamped to what the announced rates allow.
	cmd := honest
	cmd.LerpMsec = 10000
	info = s.rewinder.rewindTick(ss, &cmd)
	if info.LerpMs != maxLerp {
		t.Errorf("lerp_msec 10000 taken as %v ms, want maxLerpMs %v", info.LerpMs, maxLerp)
	}
	if !inRange(info) || now-info.Used > (100+maxLerp+CrossCheckMs)*tr/1000 {
		t.Errorf("lerp_msec 10000: %+v rewinds too far", info)
	}

	// tick_count far in the past or far in the future: the server's estimate.
	for _, tc := range []uint32{0, 1, s.w.Tick - 1000, s.w.Tick + 10000, math.MaxUint32} {
		cmd := shared.UserCmd{TickCount: tc, TickFrac: 255, LerpMsec: 100}
		info := s.rewinder.rewindTick(ss, &cmd)
		if !info.UsedServer || info.Used != info.ServerTick {
			t.Errorf("tick_count %d: %+v, want the server estimate", tc, info)
		}
		if want := now - (100+100)*tr/1000.0; math.Abs(info.ServerTick-want) > 1e-9 {
			t.Errorf("tick_count %d: server estimate %v, want now - RTT - lerp = %v", tc, info.ServerTick, want)
		}
		if !inRange(info) {
			t.Errorf("tick_count %d: rewound to %v, outside [%v, %v]", tc, info.Used, lo, now)
		}
	}

	// No input gets a rewind beyond RTT + allowed lerp + CrossCheckMs (nor
	// sv_maxunlag), nor one into the future; and the limit is reachable.
	rng := rand.New(rand.NewPCG(7, 7))
	deepest := 0.0
	for i := 0; i < 200000; i++ {
		ss.acks.rttMs = []float64{-1, 0, 5, 100, 250, 999, 2000}[i%7]
		var tc uint32
		switch i % 3 {
		case 0:
			tc = rng.Uint32()
		case 1:
			tc = s.w.Tick - uint32(rng.IntN(100)) + 20
		default:
			tc = s.w.Tick - uint32(rng.IntN(40))
		}
		cmd := shared.UserCmd{TickCount: tc, TickFrac: uint8(rng.Uint32()), LerpMsec: uint16(rng.Uint32())}
		if i%2 == 0 {
			cmd.LerpMsec %= 600
		}
		info := s.rewinder.rewindTick(ss, &cmd)
		rewind := now - info.Used
		bound := (math.Max(ss.acks.rttMs, 0) + maxLerp + CrossCheckMs) * tr / 1000
		if rewind < 0 || rewind > bound+1e-9 || rewind > s.vars.maxUnlag.Get()*tr+1e-9 || info.LerpMs > maxLerp {
			t.Fatalf("cmd %+v with RTT %v: rewind %v ticks (%+v), bound %v ticks", cmd, ss.acks.rttMs, rewind, info, bound)
		}
		if ss.acks.rttMs == 100 {
			deepest = math.Max(deepest, rewind)
		}
	}
	if limit := (100 + maxLerp + CrossCheckMs) * tr / 1000; deepest < limit-1 {
		t.Errorf("deepest rewind found %v ticks, bound %v: the cross-check is tighter than CrossCheckMs", deepest, limit)
	}
}

// ---- the world is left bit-identical ----

type lcWorld struct {
	tick    uint32
	players []game.Player
	lag     map[uint16]lagRing
	view    map[uint16]game.EntityView
}

func lcSnapshotWorld(s *Server, ss *session) lcWorld {
	w := lcWorld{tick: s.w.Tick, lag: map[uint16]lagRing{}, view: map[uint16]game.EntityView{}}
	for _, p := range s.w.Players {
		w.players = append(w.players, *p)
	}
	for id, r := range s.rewinder.lag {
		w.lag[id] = *r
	}
	for id, v := range s.viewEnts(ss) {
		w.view[id] = *v
	}
	return w
}

func TestRewindLeavesWorldIdentical(t *testing.T) {
	// The open range map: every target is in the shooter's line of sight.
	s := lcServer(t, Config{Addr: "127.0.0.1:0", Bots: 8, Seed: 1, Map: "range", Cvars: [][2]string{{"mp_fraglimit", "0"}}})
	shooter := s.w.Players[0]
	ss := lcSession(shooter, 100)
	now := time.Unix(1000, 0)
	lcRun(s, &now, 2*s.cfg.TickRate, ss, 3)
	s.cfg.NoDamage = true // hits are still traced and reported, but change no health
	s.w.Rules = s.rules()

	if len(s.rewinder.lag) != 8 || s.rewinder.lag[s.w.Players[3].ID].n < 2*s.cfg.TickRate-1 {
		t.Fatalf("lag records: %d rings, %d records", len(s.rewinder.lag), s.rewinder.lag[s.w.Players[3].ID].n)
	}
	before := lcSnapshotWorld(s, ss)
	if len(before.view) != 7 {
		t.Fatalf("session view holds %d players, want 7", len(before.view))
	}

	noView := lcSession(shooter, 100)
	var rewound, hits int
	for i, o := range s.w.Players {
		if o.ID == shooter.ID {
			continue
		}
		for k, back := range []float64{0, 3, 7.5, 12.25, 40, 70} {
			rt := float64(s.w.Tick) - back
			cmd := shared.UserCmd{CommandNumber: uint32(100*i + k), TickCount: uint32(math.Floor(rt)),
				TickFrac: uint8((rt - math.Floor(rt)) * 256), LerpMsec: 0}
			for _, sess := range []*session{ss, noView} {
				boxes, info := s.rewinder.rewoundHitboxes(sess, &cmd, nil)
				if info.MaxRewindGap > 0 {
					rewound++
				}
				// Aim at the rewound target so the shot traces a hit.
				var tx, ty float64
				for _, b := range boxes {
					if b.ID == o.ID {
						tx, ty = b.X, b.Y
					}
				}
				d := math.Hypot(tx-shooter.State.X, ty-shooter.State.Y)
				shot := shared.Shot{Weapon: 0, X: shooter.State.X, Y: shooter.State.Y,
					DirX: (tx - shooter.State.X) / d, DirY: (ty - shooter.State.Y) / d}
				if tr := game.TraceShot(s.w.Map, shot.X, shot.Y, shot.DirX, shot.DirY, 1600, boxes, shooter.ID); tr.Hit >= 0 {
					hits++
				}
				s.rewinder.ss = sess
				s.w.FireHitscan(shooter, &cmd, shot, &s.rewinder)
			}
		}
	}
	if rewound == 0 || hits == 0 {
		t.Fatalf("the test rewound %d times and hit %d times: it proves nothing", rewound, hits)
	}
	after := lcSnapshotWorld(s, ss)
	if !reflect.DeepEqual(before, after) || !lcSame(before, after) {
		for i := range before.players {
			if !lcSame(before.players[i], after.players[i]) {
				t.Errorf("player %d changed:\n before %+v\n after  %+v", before.players[i].ID, before.players[i], after.players[i])
			}
		}
		for id := range before.lag {
			if !lcSame(before.lag[id], after.lag[id]) {
				t.Errorf("lag record of player %d changed", id)
			}
		}
		t.Fatal("rewinding changed the world")
	}
	if s.w.Tick != before.tick {
		t.Fatal("tick changed")
	}
	// The world goes on running exactly as before: nothing was left moved.
	lcRun(s, &now, 10, ss, 3)
}

// A player admitted this tick has neither a view entry nor a lag record yet;
// a rewind in the same tick must leave it at the present, not crash.
func TestRewindPlayerJoinedThisTick(t *testing.T) {
	s := lcServer(t, Config{Bots: 3, Seed: 2, Map: "range"}) // range: everyone in view
	ss := lcSession(s.w.Players[0], 80)
	now := time.Unix(1000, 0)
	lcRun(s, &now, 64, ss, 3)
	late := s.newPlayer("late", false)
	cmd := shared.UserCmd{CommandNumber: 1, TickCount: s.w.Tick - 5, LerpMsec: 100}
	boxes, info := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
	if info.NotRewound != 1 || info.FromView != 2 {
		t.Errorf("rewind %+v: want 2 players from the view, the new one not rewound", info)
	}
	for _, b := range boxes {
		if b.ID == late.ID && (b.X != late.State.X || b.Y != late.State.Y) {
			t.Errorf("new player's box at (%v, %v), want its present (%v, %v)", b.X, b.Y, late.State.X, late.State.Y)
		}
	}
	boxes, info = s.rewinder.rewoundHitboxes(lcSession(s.w.Players[0], 80), &cmd, nil)
	if info.NotRewound != 1 || info.FromRecord != 2 {
		t.Errorf("rewind without view %+v: want 2 players from the record, the new one not rewound", info)
	}
	_ = boxes
	shot := shared.Shot{X: s.w.Players[0].State.X, Y: s.w.Players[0].State.Y, DirX: 1}
	s.rewinder.ss = ss
	s.w.FireHitscan(s.w.Players[0], &cmd, shot, &s.rewinder)
}

// The view path reproduces what the client drew: the same samples and the
// same function, evaluated at the command's exact render tick.
func TestRewindFromViewMatchesClientInterpolation(t *testing.T) {
	s := lcServer(t, Config{Bots: 6, Seed: 3})
	ss := lcSession(s.w.Players[0], 100)
	now := time.Unix(1000, 0)
	lcRun(s, &now, 3*s.cfg.TickRate, ss, 3)
	maxExtrap := float64(MaxExtrapolateMs) * float64(s.cfg.TickRate) / 1000
	for k := 0; k < 50; k++ {
		rt := float64(s.w.Tick) - 12 + float64(k)*0.173
		cmd := shared.UserCmd{TickCount: uint32(math.Floor(rt + 6.4)), TickFrac: uint8(k * 5), LerpMsec: 100}
		boxes, info := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
		if info.UsedServer || info.Used != cmd.RenderTick(s.cfg.TickRate) {
			t.Fatalf("rewind %+v, want the command's render tick %v", info, cmd.RenderTick(s.cfg.TickRate))
		}
		for _, b := range boxes {
			if b.ID == ss.player.ID {
				continue
			}
			v := s.viewEnts(ss)[b.ID]
			if v == nil {
				continue // outside the client's view: not in its snapshots, rewound from the record
			}
			want, _, _ := v.Hist.At(cmd.RenderTick(s.cfg.TickRate), maxExtrap)
			if b.X != want.X || b.Y != want.Y {
				t.Fatalf("player %d rewound to (%v, %v), client drew (%v, %v)", b.ID, b.X, b.Y, want.X, want.Y)
			}
		}
	}
}

// A client whose frames stalled sends its acks and commands late together:
// the smoothed RTT has not caught up, but the claim matches the snapshot the
// command's own message acknowledged, so it is taken; a claim far from both
// estimates is refused, counted and flagged.
func TestRewindClaimCredibleByItsAck(t *testing.T) {
	// sv_maxunlag 1: the stall (625 ms + lerp) is deeper than the default.
	s := lcServer(t, Config{Seed: 1, Map: "range", Bots: 1, Cvars: [][2]string{{"sv_showimpacts", "1"}, {"sv_maxunlag", "1"}}})
	s.w.Tick = 10000
	shooter := s.newPlayer("shooter", false)
	ss := lcSession(shooter, 100) // RTT estimate: now - (100 + 100) ms - lerp
	tr := float64(s.cfg.TickRate)
	now := float64(s.w.Tick)
	ss.acks.ackSeq, ss.acks.ackTick = 5, s.w.Tick-40 // the stalled client's newest snapshot
	lerp := 100.0 * tr / 1000
	claim := now - 40 - lerp // what it drew: that snapshot, lerp behind
	cmd := shared.UserCmd{TickCount: uint32(math.Floor(claim + lerp)), LerpMsec: 100}
	cmd.TickFrac = uint8(math.Round((claim + lerp - math.Floor(claim+lerp)) * 256))
	info := s.rewinder.rewindTick(ss, &cmd)
	if info.UsedServer || math.Abs(info.Used-claim) > 0.01 {
		t.Fatalf("claim %.2f, RTT estimate %.2f, ack estimate %.2f: rewound to %.2f (refused %v); want the claim",
			claim, info.ServerTick, info.AckTick, info.Used, info.UsedServer)
	}
	if math.Abs(claim-info.ServerTick) <= CrossCheckMs*tr/1000 {
		t.Fatalf("the test's claim is within CrossCheckMs of the RTT estimate: it proves nothing")
	}
	// 400 ms older than both: refused.
	forged := cmd
	forged.TickCount -= uint32(0.4 * tr)
	info = s.rewinder.rewindTick(ss, &forged)
	if !info.UsedServer || info.Used != info.ServerTick {
		t.Fatalf("a claim 400 ms older than both estimates was taken: %+v", info)
	}
	// Through the world: the impact says the claim was refused, and the
	// server counts it.
	s.w.Rules = s.rules()
	s.rewinder.ss = ss
	bot := s.w.Bots[0].Player
	dx, dy := bot.State.X-shooter.State.X, bot.State.Y-shooter.State.Y
	d := math.Hypot(dx, dy)
	shot := shared.Shot{X: shooter.State.X, Y: shooter.State.Y, DirX: dx / d, DirY: dy / d}
	before := s.rewinder.stats
	s.w.FireHitscan(shooter, &forged, shot, &s.rewinder)
	s.w.FireHitscan(shooter, &cmd, shot, &s.rewinder)
	if s.rewinder.stats.Shots != before.Shots+2 || s.rewinder.stats.Refused != before.Refused+1 || s.rewinder.stats.Claimed != before.Claimed+1 {
		t.Fatalf("lag compensation counters %+v after %+v: want one refused and one claimed shot more", s.rewinder.stats, before)
	}
	var verdicts []int
	for _, e := range s.w.TakeEvents() {
		if e.Kind == game.EvImpact {
			verdicts = append(verdicts, e.Value&game.ImpactRefused)
		}
	}
	if len(verdicts) != 2 || verdicts[0] == 0 || verdicts[1] != 0 {
		t.Fatalf("impact verdicts %v: want [refused, claimed]", verdicts)
	}
}
