package netclient

import (
	"math"
	"testing"
	"time"
)

// The clock alone: snapshot ticks and real time in, ticks to run and the
// render time each command claims out.

var t0 = time.Unix(1_700_000_000, 0)

func TestClockStandsStillBeforeASnapshot(t *testing.T) {
	k := newClock(partsTickRate, 100, 32)
	k.run(time.Second)
	if k.serverTick() != 100 {
		t.Errorf("server tick %v after 1 s without a snapshot, want the Accept's 100", k.serverTick())
	}
	if k.resync(t0) {
		t.Error("resync before a snapshot reported true")
	}
}

func TestClockRunsAtRealSpeedAndConverges(t *testing.T) {
	k := newClock(partsTickRate, 0, 32)
	k.observe(1000, t0)
	if k.serverTick() != 1000 {
		t.Fatalf("first snapshot: server tick %v, want 1000", k.serverTick())
	}
	k.run(time.Second)
	// 64 ticks of real time, slowed by at most 5 % towards the snapshot.
	if got := k.serverTick() - 1000; got < 64*0.95-1e-9 || got > 64 {
		t.Errorf("one second ran %v ticks, want 60.8..64", got)
	}
	// A snapshot within half a second nudges, one further away jumps.
	k.observe(1070, t0.Add(time.Second))
	if k.serverTick() == 1070 {
		t.Error("a snapshot 6 ticks ahead set the clock; it should be nudged")
	}
	before := k.serverTick()
	k.run(100 * time.Millisecond)
	if ran := k.serverTick() - before; ran <= 6.4 || ran > 6.4*1.05+1e-9 {
		t.Errorf("behind the snapshot, 100 ms ran %v ticks; want 6.4 sped up by at most 5 %%", ran)
	}
	k.observe(2000, t0.Add(2*time.Second))
	if k.serverTick() != 2000 {
		t.Errorf("a snapshot 900 ticks ahead: server tick %v, want a jump to 2000", k.serverTick())
	}
}

func TestClockClaimsRenderTime(t *testing.T) {
	k := newClock(partsTickRate, 0, 32)
	k.observe(640, t0)
	k.advance(0, 100, drawInterp)
	c := k.claim()
	if c.tick != 640 || c.frac != 0 || c.lerp != 100 {
		t.Errorf("claim tick %d frac %d lerp %d; want 640, 0, 100", c.tick, c.frac, c.lerp)
	}
	if want := 640 - 6.4; math.Abs(c.render-want) > 1e-9 || k.renderTick(drawInterp) != c.render {
		t.Errorf("render tick %v (renderTick %v), want %v: the clock less 100 ms", c.render, k.renderTick(drawInterp), want)
	}
	if k.renderTick(drawNewest) != 640 {
		t.Errorf("cl_interpolate 0: render tick %v, want the newest snapshot's 640", k.renderTick(drawNewest))
	}
	k.advance(0, 100, drawNewest)
	if c := k.claim(); c.tick != 640 || c.frac != 0 || c.lerp != 0 {
		t.Errorf("cl_interpolate 0 claims tick %d frac %d lerp %d; want 640, 0, 0", c.tick, c.frac, c.lerp)
	}
}

func TestClockFrameClaimsTheDrawnFrame(t *testing.T) {
	k := newClock(partsTickRate, 0, 32)
	k.observe(640, t0)
	k.advance(0, 100, drawInterp)
	k.markDrawn()
	drawn := k.claim().render
	k.beginTicks()
	k.advance(time.Second/partsTickRate, 100, drawInterp)
	if c := k.claim(); c.render != drawn || !c.ok {
		t.Errorf("a command of the next Frame claims render tick %v, want the drawn frame's %v", c.render, drawn)
	}
	k.endTicks(t0, 1)
	if c := k.claim(); c.render == drawn {
		t.Error("after the Frame, the claim is still the drawn frame's")
	}
	// A drawn frame more than MaxFrameTime older than the next command is not claimed.
	k.markDrawn()
	k.advance(time.Second, 100, drawInterp)
	k.beginTicks()
	if c := k.claim(); c.ok || c.render != k.renderTick(drawInterp) {
		t.Errorf("a drawn frame a second old was claimed: %+v", c)
	}
}

func TestClockPacesFrames(t *testing.T) {
	k := newClock(partsTickRate, 0, 32)
	k.observe(640, t0)
	if p := k.pace(t0); !p.idle || !p.resync {
		t.Errorf("first Frame: %+v, want idle with a resync", p)
	}
	tick := time.Second / partsTickRate
	now := t0
	ran := 0
	for range 100 { // 100 frames at 144 fps
		now = now.Add(time.Second / 144)
		p := k.pace(now)
		for range p.ticks {
			k.tick()
		}
		k.endTicks(now, p.ticks)
		ran += p.ticks
	}
	if want := int(now.Sub(t0) / tick); ran != want {
		t.Errorf("100 frames at 144 fps ran %d ticks, want %d: one per tick of real time", ran, want)
	}
	if a, ok := sinceTick(k.lastTickAt, now, k.tickRate); !ok || a < 0 || a > 1 {
		t.Errorf("sinceTick %v, %v", a, ok)
	}
	// A frame of 600 ms runs MaxFrameTime of ticks and skips the rest.
	now = now.Add(600 * time.Millisecond)
	p := k.pace(now)
	if p.ticks != 32 || p.skip < 6 || p.idle {
		t.Errorf("600 ms frame: %+v, want 32 ticks and the rest (6 or 7) skipped", p)
	}
	if k.ticksDropped != p.skip {
		t.Errorf("ticksDropped %d, want %d", k.ticksDropped, p.skip)
	}
	for range p.ticks {
		k.tick()
	}
	// A gap longer than StallGap resynchronises and runs nothing.
	now = now.Add(2 * StallGap)
	if p := k.pace(now); !p.idle || !p.resync || p.ticks != 0 || k.resyncs != 1 {
		t.Errorf("after a stall: %+v, resyncs %d; want idle, resync, counted once", p, k.resyncs)
	}
	if k.acc() != 0 {
		t.Errorf("time carried over a stall: %v", k.acc())
	}
}

func TestClockResyncJumpsToTheSnapshot(t *testing.T) {
	k := newClock(partsTickRate, 0, 32)
	k.observe(640, t0)
	if !k.resync(t0.Add(500 * time.Millisecond)) {
		t.Fatal("resync after a snapshot reported false")
	}
	if k.serverTick() != 640+32 {
		t.Errorf("resync 500 ms after tick 640: %v, want 672", k.serverTick())
	}
	k.resync(t0.Add(10 * time.Second))
	if k.serverTick() != 640+64 {
		t.Errorf("resync 10 s after tick 640: %v, want at most a second ahead (704)", k.serverTick())
	}
}

// The server's command queue stays at 3 for a second (the client's
// commands run behind real time): the next frames make 2 commands fewer,
// so the queue drains to one; a queue that only now and then holds 2 (a
// burst draining) pulls nothing.
func TestClockPullsBackWhenTheServerQueueStaysDeep(t *testing.T) {
	run := func(depths func(i int, k *clock) int) (made, pulled int) {
		k := newClock(partsTickRate, 0, 32)
		k.observe(1000, t0)
		now := t0
		k.pace(now) // the first frame starts the count
		tick := k.tickDur()
		for i := range 3 * partsTickRate { // 3 s of one frame per tick
			now = now.Add(tick)
			k.serverQueue(depths(i, k), 0, now)
			p := k.pace(now)
			for range p.ticks {
				k.tick()
			}
			made += p.ticks
		}
		return made, k.pulledBack
	}
	// The server's queue: 3 commands until the client makes fewer.
	deep := func(i int, k *clock) int { return 3 - k.pulledBack }
	made, pulled := run(deep)
	// The pull-back, and the time dilation slowing the clock on top.
	if pulled != 2 || made > 3*partsTickRate-2 {
		t.Errorf("queue at 3 for 3 s: %d ticks pulled back, %d commands made; want 2 and at most %d", pulled, made, 3*partsTickRate-2)
	}
	spiky := func(i int, _ *clock) int {
		if i%partsTickRate < 4 {
			return 2 + i%2
		}
		return 0
	}
	if made, pulled := run(spiky); pulled != 0 || made < 3*partsTickRate-3 {
		t.Errorf("queue at 2-3 for 4 ticks a second: %d ticks pulled back, %d made; want 0 and at least %d", pulled, made, 3*partsTickRate-3)
	}
}

// Time dilation: a server buffer below its target makes the command clock
// run faster, above it slower, never by more than MaxDilationPct, and a
// buffer on target leaves it at real time.
func TestClockDilatesTowardsTheServersBuffer(t *testing.T) {
	made := func(depth, target int) int {
		k := newClock(partsTickRate, 0, 32)
		k.observe(1000, t0)
		now := t0
		k.pace(now)
		n := 0
		for i := range 10 * partsTickRate { // 10 s, a frame every 1/64 s
			now = now.Add(time.Second / partsTickRate)
			if i%3 == 0 { // a snapshot every third frame
				k.serverQueue(depth, target, now)
			}
			p := k.pace(now)
			for range p.ticks {
				k.tick()
			}
			n += p.ticks
		}
		return n
	}
	real := 10 * partsTickRate
	if n := made(2, 2); n < real-1 || n > real {
		t.Errorf("buffer on target: %d commands in 10 s, want %d", n, real)
	}
	low, high := made(0, 2), made(3, 2) // one above: dilation alone, no pull-back
	if low <= real || float64(low) > float64(real)*(1+MaxDilationPct/100.0)+1 {
		t.Errorf("buffer 2 below target: %d commands in 10 s, want more than %d and at most %d %% more", low, real, MaxDilationPct)
	}
	if high >= real || float64(high) < float64(real)/(1+MaxDilationPct/100.0)-1 {
		t.Errorf("buffer 1 above target: %d commands in 10 s, want fewer than %d and at most %d %% fewer", high, real, MaxDilationPct)
	}
}

// With Config.DeadReckon (and cl_interpolate 0) others are drawn at the
// server-time estimate itself, and the command claims it with lerp 0;
// without it cl_interpolate 0 still draws the newest snapshot (Source),
// and cl_interpolate 1 wins over DeadReckon.
func TestClockDeadReckonDrawsThePresent(t *testing.T) {
	k := newClock(partsTickRate, 0, 32)
	k.observe(640, t0)
	k.run(50 * time.Millisecond) // the estimate runs on past the newest snapshot
	k.advance(0, 100, drawPresent)
	c := k.claim()
	if est := k.serverTick(); est <= 640 || math.Abs(c.render-est) > 1.0/256 || c.lerp != 0 || k.renderTick(drawPresent) != c.render {
		t.Errorf("dead reckoning claims render tick %v lerp %d (renderTick %v); want the estimate %v, lerp 0",
			c.render, c.lerp, k.renderTick(drawPresent), est)
	}
	for _, tc := range []struct {
		interp, dead bool
		want         drawAt
	}{{true, false, drawInterp}, {false, false, drawNewest}, {false, true, drawPresent}, {true, true, drawInterp}} {
		cfg := DefaultConfig("p")
		cfg.Interpolate, cfg.DeadReckon = tc.interp, tc.dead
		if got := cfg.drawAt(); got != tc.want {
			t.Errorf("cl_interpolate %v, DeadReckon %v: draws at %d, want %d", tc.interp, tc.dead, got, tc.want)
		}
	}
	if DefaultConfig("p").DeadReckon {
		t.Error("DeadReckon is on by default: the game's cl_interpolate 0 would no longer draw the newest snapshot")
	}
}
