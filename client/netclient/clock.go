package netclient

import (
	"math"
	"time"

	"tickshot/shared"
)

// clock is the client's time: the prediction clock, an estimate of the
// server's current tick that runs at real speed and is nudged towards each
// snapshot's tick (Source's clock correction; Bernier 2001), and the render
// clock, that estimate less the interpolation period, at which others are
// drawn and which each usercmd claims (TickCount, TickFrac, LerpMsec). It
// also paces Frames: real time into whole ticks (Source's CL_Move; Fiedler,
// "Fix Your Timestep!"). It neither sends nor predicts: Client asks it how
// many ticks to run and which render time each command claims.
type clock struct {
	tickRate int
	server   float64 // estimated current server tick, fractional

	haveSnap   bool
	lastSnap   uint32    // newest snapshot tick
	lastSnapAt time.Time // its arrival

	// next is the claim of the next command, fixed by advance; drawn the
	// claim of the frame last drawn (markDrawn), which the commands of the
	// next Frame claim through frame.
	next, drawn, frame renderClaim

	// Frame pacing.
	frameAt       time.Time     // now of the previous Frame
	frameAcc      time.Duration // real time elapsed and not yet run as ticks
	maxFrameTicks int           // most ticks one Frame runs
	lastTickAt    time.Time     // real time of the newest tick a Frame ran (zero: none)

	resyncs      int // clock resynchronisations after a stall (Stats.Resyncs)
	ticksDropped int // ticks run without commands (Stats.FrameTicksDropped)

	// Pulling the command clock back (Snapshot.CmdQueue): the least depth
	// of the server's queue seen since winStart, and the ticks still to
	// make no command for.
	queueNow   int     // the newest snapshot's depth
	queueMin   int     // least depth less target since winStart
	queueSeen  bool    // queueMin holds a depth of this window
	queueErr   float64 // depth less target, smoothed: the time dilation's input
	target     int     // the newest snapshot's CmdTarget
	winStart   time.Time
	pull       int
	pulledBack int // ticks made no command for to drain the queue (Stats.CmdQueuePulled)

	wall func() time.Time // the client's real time: nil for time.Now; a demo's clock in playback
}

// renderClaim is the render time a usercmd claims: the usercmd fields and
// the render tick they give (shared.UserCmd.RenderTick).
type renderClaim struct {
	tick   uint32
	frac   uint8
	lerp   uint16
	render float64
	ok     bool
}

// newClock starts a clock at server tick start (the Accept's) for
// tickRate ticks/s, running at most maxFrameTicks ticks a Frame (at least 1).
func newClock(tickRate int, start uint32, maxFrameTicks int) *clock {
	return &clock{tickRate: tickRate, server: float64(start), maxFrameTicks: max(maxFrameTicks, 1)}
}

// now is the client's real time: the wall clock, or in demo playback the
// demo's.
func (k *clock) now() time.Time {
	if k.wall != nil {
		return k.wall()
	}
	return time.Now()
}

// MaxDilationPct is the most, percent, the command clock runs slower or
// faster than real time to keep the server's command buffer at its target
// (Overwatch's time dilation, GDC 2017).
const MaxDilationPct = 5

// tickDur is the real time one command's tick takes: 1/tickRate,
// stretched (the server's command buffer holds more than its target) or
// shrunk (fewer) by up to MaxDilationPct, MaxDilationPct/2 per command of
// smoothed difference once that is dilationDeadBand or more. Every command still covers a whole tick of
// simulation: a client whose commands run short makes them a little
// faster, so they arrive just in time without bursts.
func (k *clock) tickDur() time.Duration {
	d := time.Second / time.Duration(k.tickRate)
	if math.Abs(k.queueErr) < dilationDeadBand {
		return d
	}
	f := math.Max(-MaxDilationPct, math.Min(MaxDilationPct, k.queueErr*MaxDilationPct/2))
	return d + time.Duration(float64(d)*f/100)
}

// dilationDeadBand is the smoothed difference, commands, below which the
// command clock keeps real time: a queue that alternates between its
// target and one off (a client whose frames make two commands every
// other tick) is on target.
const dilationDeadBand = 0.75

// dilationPct returns the command clock's rate against real time, percent:
// positive when it runs slower (the server's buffer is above target).
func (k *clock) dilationPct() float64 {
	d := time.Second / time.Duration(k.tickRate)
	return 100 * float64(k.tickDur()-d) / float64(d)
}

// serverTick returns the estimated current server tick (fractional).
func (k *clock) serverTick() float64 { return k.server }

// drawAt is where in time others are drawn (Config.drawAt).
type drawAt uint8

const (
	drawInterp  drawAt = iota // lerp behind the server-time estimate (cl_interpolate 1)
	drawNewest                // at the newest snapshot (cl_interpolate 0, Source)
	drawPresent               // at the server-time estimate itself, extrapolated (Config.DeadReckon)
)

// renderTick returns the tick others are drawn at: that of the next
// command (with drawPresent the server-time estimate itself, lerp 0), or
// with drawNewest (cl_interpolate 0) the newest snapshot's.
func (k *clock) renderTick(d drawAt) float64 {
	if d == drawNewest {
		return float64(k.lastSnap)
	}
	return k.next.render
}

// observe takes a snapshot of server tick tick that arrived at at: the
// first one, or one more than half a second from the estimate, sets the
// clock to its tick.
func (k *clock) observe(tick uint32, at time.Time) {
	first := !k.haveSnap
	k.haveSnap, k.lastSnap, k.lastSnapAt = true, tick, at
	if first || math.Abs(float64(tick)-k.server) > float64(k.tickRate)/2 {
		k.server = float64(tick)
	}
}

// CmdQueueWindow is how long the server's command queue must stay at
// CmdQueueDeep commands or more before the client pulls its command clock
// back: longer than a burst takes to drain (a few ticks) plus a round
// trip, so only a backlog that stays is answered.
const CmdQueueWindow = time.Second

// CmdQueueDeep is the queue depth, commands, that counts as a backlog: one
// command waiting a tick is arrival jitter, two or more that stay are input
// delay the client made by running ahead of the server's real time.
const CmdQueueDeep = 2

// serverQueue takes the server's command-queue depth and its target
// (Snapshot.CmdQueue, CmdTarget) of a snapshot that arrived at at. Their
// smoothed difference dilates the command clock (tickDur). When every
// depth over CmdQueueWindow was CmdQueueDeep or more above the target, the
// next frames make that many commands fewer, less one, so the queue
// drains to one above it (Source drops such commands): the client's clock
// is pulled back at once instead of the server running faster than real
// time.
func (k *clock) serverQueue(depth, target int, at time.Time) {
	k.queueNow, k.target = depth, target
	k.queueErr += (float64(depth-target) - k.queueErr) / 8
	over := depth - target
	if !k.queueSeen || over < k.queueMin {
		k.queueMin, k.queueSeen = over, true
	}
	if k.winStart.IsZero() {
		k.winStart = at
	}
	if at.Sub(k.winStart) < CmdQueueWindow {
		return
	}
	if k.queueMin >= CmdQueueDeep && k.pull == 0 {
		k.pull = k.queueMin - 1
	}
	k.winStart, k.queueSeen = at, false
}

// run moves the estimate on by dt of real time at real speed, nudged up
// to 5 % towards the newest snapshot tick (2 % of the error per tick).
// Before the first snapshot it stands still.
func (k *clock) run(dt time.Duration) {
	if !k.haveSnap {
		return
	}
	errTicks := float64(k.lastSnap) - k.server
	adj := math.Max(-0.05, math.Min(0.05, errTicks*0.02))
	k.server += dt.Seconds() * float64(k.tickRate) * (1 + adj)
}

// advance runs the clock by dt and fixes the claim of the next command:
// the estimate split into TickCount and TickFrac (1/256 tick) with
// LerpMsec lerpMs, or with cl_interpolate 0 the newest snapshot's tick and
// lerp 0 (others drawn as it has them, as Source sends); with
// Config.DeadReckon the estimate itself, lerp 0.
func (k *clock) advance(dt time.Duration, lerpMs float64, d drawAt) {
	k.run(dt)
	q := math.Round(math.Max(k.server, 0) * 256)
	n := renderClaim{tick: uint32(q / 256), frac: uint8(math.Mod(q, 256)), lerp: uint16(lerpMs)}
	switch d {
	case drawNewest:
		n.tick, n.frac, n.lerp = k.lastSnap, 0, 0
	case drawPresent:
		n.lerp = 0
	}
	cmd := shared.UserCmd{TickCount: n.tick, TickFrac: n.frac, LerpMsec: n.lerp}
	n.render = cmd.RenderTick(k.tickRate)
	k.next = n
}

// resync jumps the estimate to the newest snapshot's tick plus the time
// since it arrived (at most a second), as on connect, and forgets the time
// not yet run as ticks. It reports false (and does nothing) before the
// first snapshot.
func (k *clock) resync(now time.Time) bool {
	if !k.haveSnap {
		return false
	}
	ahead := math.Min(now.Sub(k.lastSnapAt).Seconds(), 1) * float64(k.tickRate)
	k.server = float64(k.lastSnap) + math.Max(ahead, 0)
	k.frameAcc = 0
	// What the server's queue said before the gap is no guide to after it.
	k.queueErr, k.pull, k.queueSeen, k.winStart = 0, 0, false, time.Time{}
	return true
}

// framePace is what a Frame at real time now is to do: run ticks
// commands, after skip ticks of clock without commands (a frame longer
// than MaxFrameTime) or a resynchronisation (the first Frame, or a gap
// longer than StallGap).
type framePace struct {
	ticks, skip int
	resync      bool
	idle        bool // no tick loop at all: the first Frame, no time passed, a stall
}

// pace turns the real time since the previous Frame into whole ticks
// (the remainder carries over). The first Frame only starts the count and
// resynchronises; after a gap longer than StallGap it resynchronises
// (counted when a snapshot had arrived) and runs none.
func (k *clock) pace(now time.Time) framePace {
	if k.frameAt.IsZero() {
		// The first frame: the clock stood still since the handshake (a
		// window's first frames can take half a second), so start it at the
		// newest snapshot rather than nudge it there at 5 % for seconds,
		// during which every shot's claimed render time would lag what the
		// server can credit.
		k.frameAt = now
		k.resync(now)
		return framePace{resync: true, idle: true}
	}
	elapsed := now.Sub(k.frameAt)
	k.frameAt = now
	if elapsed <= 0 {
		return framePace{idle: true}
	}
	if elapsed > StallGap {
		p := framePace{idle: true}
		if k.resync(now) {
			k.resyncs++
			p.resync = true
		}
		k.frameAcc = 0
		return p
	}
	tick := k.tickDur()
	k.frameAcc += elapsed
	p := framePace{ticks: int(k.frameAcc / tick)}
	if p.ticks > k.maxFrameTicks {
		// Keep the clock at real time; make commands for the newest ticks only.
		p.skip = p.ticks - k.maxFrameTicks
		k.skipTicks(p.skip)
		k.frameAcc -= time.Duration(p.skip) * tick
		p.ticks = k.maxFrameTicks
	}
	if n := min(k.pull, p.ticks); n > 0 {
		// The server's queue stayed deep (serverQueue): these ticks make
		// no command.
		k.pull -= n
		k.pulledBack += n
		k.run(time.Duration(n) * tick)
		k.frameAcc -= time.Duration(n) * tick
		p.skip += n
		p.ticks -= n
	}
	return p
}

// skipTicks runs the clock n ticks without commands.
func (k *clock) skipTicks(n int) {
	k.run(time.Duration(n) * k.tickDur())
	k.ticksDropped += n
}

// replay sets the pacing as a recorded Frame left it: the frame's time,
// its resynchronisation and skipped ticks, and acc short of a tick after
// its ticks ran.
func (k *clock) replay(now time.Time, resync bool, skip, ticks int, acc time.Duration) {
	first := k.frameAt.IsZero()
	k.frameAt = now
	if resync && k.resync(now) && !first {
		k.resyncs++
	}
	if skip > 0 {
		k.skipTicks(skip)
	}
	k.frameAcc = acc + time.Duration(ticks)*k.tickDur()
}

// acc returns the real time short of a tick after the ticks run so far.
func (k *clock) acc() time.Duration { return k.frameAcc }

// markDrawn records the claim of the frame now on screen (Client.MarkDrawn).
func (k *clock) markDrawn() {
	k.drawn = k.next
	k.drawn.ok = true
}

// beginTicks starts the ticks of one Frame: they claim the render time of
// the frame last drawn if it is at most MaxFrameTime older than the next
// command's.
func (k *clock) beginTicks() {
	k.frame, k.drawn.ok = k.drawn, false
	if k.frame.ok && k.next.render-k.frame.render > MaxFrameTime.Seconds()*float64(k.tickRate) {
		k.frame.ok = false
	}
}

// tick takes one tick of the frame's real time to run as a command.
func (k *clock) tick() { k.frameAcc -= k.tickDur() }

// endTicks ends a Frame's n ticks at real time now: the newest ran at now
// less the time still short of a tick.
func (k *clock) endTicks(now time.Time, n int) {
	k.frame.ok = false
	if n > 0 {
		k.lastTickAt = now.Add(-k.frameAcc)
	}
}

// claim returns the render time the command being made claims: the drawn
// frame's during a Frame that has one, else the next command's own.
func (k *clock) claim() renderClaim {
	if k.frame.ok {
		return k.frame
	}
	return k.next
}

// sinceTick returns the fraction of a tick at tickRate that has passed at
// now since the real time tickAt of the newest tick a Frame ran, held to
// [0, 1]; false before any (tickAt zero).
func sinceTick(tickAt, now time.Time, tickRate int) (float64, bool) {
	if tickAt.IsZero() {
		return 0, false
	}
	a := float64(now.Sub(tickAt)) * float64(tickRate) / float64(time.Second)
	return math.Max(0, math.Min(1, a)), true
}
