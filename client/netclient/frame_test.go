package netclient_test

import (
	"math"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/server"
	"tickshot/shared"
)

// lockstep is a server stepped by the test on a fake clock and one client
// joined to it over an in-memory link whose frames wait until the test's
// goroutine flushes them (transport.HeldPipe: the server's end before each
// step, the client's after it), driven by Frame on the same fake clock: frame rates of 5 or
// 144 fps cost the test the same wall time, and no window is needed. The
// client asks for a snapshot every tick, and after each frame the server is
// stepped until it has run the frame's commands. Nothing runs on another
// goroutine, so the result does not depend on how fast a loaded machine
// delivers messages: over a pipe with goroutines a late delivery left
// server ticks without the frame's commands, the server's command queue
// then read as deep, and the client's command clock dilated (191 commands
// instead of 192 in CI's run beside two busy loops).
type lockstep struct {
	t        *testing.T
	srv      *server.Local
	c        *netclient.Client
	ce, se   *transport.HeldEnd // the client's and the server's end of the link
	clock    time.Time          // the server's fake clock: the time of its newest tick
	interval time.Duration      // one tick
	shots    int                // shots the server reported for c (EvShot)
	fired    int                // shots c predicted (effects)
	reloads  int                // reloads c predicted
}

const lockstepRate = 64

func newLockstep(t *testing.T) *lockstep {
	t.Helper()
	// sv_cmdbuffer 0: commands run as they arrive, so that settle's steps
	// (run until every command made is acknowledged) measure what a frame
	// made, and the server's extra steps are not read as jitter.
	srv, err := server.NewLocal(server.Config{TickRate: lockstepRate, Seed: 5, Logger: testLogger(t),
		Cvars: [][2]string{{"sv_cmdbuffer", "0"}}})
	if err != nil {
		t.Fatal(err)
	}
	l := &lockstep{t: t, srv: srv, clock: time.Unix(1_700_000_000, 0), interval: time.Second / lockstepRate}
	cfg := netclient.DefaultConfig("frames")
	cfg.UpdateRate = lockstepRate
	l.ce, l.se = transport.HeldPipe(proto.ClientOptions(), proto.ServerOptions(), func() time.Time { return l.clock })
	srv.Serve(l.se)
	join := netclient.Begin(l.ce, cfg, func() time.Time { return l.clock })
	// The server admits players in its tick: step while connecting.
	for i := 0; l.c == nil; i++ {
		if i > 10*lockstepRate {
			t.Fatal("not admitted within 10 s of server ticks")
		}
		l.step()
		c, err := join.Poll()
		if err != nil {
			t.Fatalf("connect: %v", err)
		}
		l.c = c
	}
	t.Cleanup(func() { l.c.Close("test over") })
	for i := 0; !l.c.View().HaveSnapshot; i++ {
		if i > lockstepRate {
			t.Fatal("no snapshot within a second of server ticks")
		}
		l.stepAndWait()
	}
	return l
}

// step runs one server tick, a tick interval after the previous one, on
// what the client sent before it, and hands the client what it sent.
func (l *lockstep) step() {
	l.clock = l.clock.Add(l.interval)
	l.se.Flush()
	l.srv.Step(l.clock)
	l.ce.Flush()
}

// stepAndWait runs one server tick and reads what it sent: the link
// delivers within the step, so its snapshot is there.
func (l *lockstep) stepAndWait() {
	l.t.Helper()
	l.step()
	l.poll()
}

// stepTo runs the server's ticks due by now.
func (l *lockstep) stepTo(now time.Time) {
	for !l.clock.Add(l.interval).After(now) {
		l.step()
	}
}

// poll reads what arrived and counts shots, the server's and the predicted.
func (l *lockstep) poll() {
	l.t.Helper()
	if err := l.c.Poll(); err != nil {
		l.t.Fatalf("poll: %v", err)
	}
	for _, e := range l.c.Match().TakeEvents() {
		if e.Kind == proto.EvShot && e.A == l.c.View().ID {
			l.shots++
		}
	}
	for _, r := range l.c.Shots().TakeEffects() {
		if r.Fired {
			l.fired++
		}
		if r.ReloadStarted {
			l.reloads++
		}
	}
}

// frame is one frame at fake time now: the server's ticks up to now, what
// arrived, then Frame; then the server runs until it has acknowledged the
// frame's commands. It returns the commands made.
func (l *lockstep) frame(now time.Time, in netclient.Input) int {
	l.t.Helper()
	l.stepTo(now)
	l.poll()
	n := l.c.Frame(now, in)
	l.settle()
	return n
}

// settle steps the server until it has acknowledged every command made.
func (l *lockstep) settle() {
	l.t.Helper()
	for i := 0; l.c.View().AckCmd != l.c.View().CommandNumber; i++ {
		if i > 10*lockstepRate {
			l.t.Fatalf("server acked %d of %d commands within 10 s of server ticks", l.c.View().AckCmd, l.c.View().CommandNumber)
		}
		l.stepAndWait()
	}
}

// reference runs n ticks of held input in through shared.RunCommand from
// st, as a client making one command per tick of real time must: the
// state after them and the shots fired.
func reference(st shared.PlayerState, in netclient.Input, n int, w *shared.World, firstCmd uint32) (shared.PlayerState, int) {
	fired := 0
	for i := range n {
		cmd := shared.UserCmd{CommandNumber: firstCmd + uint32(i), Msec: shared.MsecFor(w.TickRate),
			Buttons: in.Buttons, MoveX: in.MoveX, MoveY: in.MoveY, ViewAngle: in.Angle, Weapon: in.Weapon}
		var res shared.Result
		st, res = shared.RunCommand(st, cmd, w)
		if res.Fired {
			fired++
		}
	}
	return st, fired
}

// clearRun returns "move + attack" input in the axis direction (diagonals
// last) along which n ticks from st get furthest, and that distance.
func clearRun(st shared.PlayerState, n int, w *shared.World) (netclient.Input, float64) {
	var best netclient.Input
	bestD := -1.0
	for _, d := range [][2]float32{{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}} {
		in := netclient.Input{MoveX: d[0], MoveY: d[1], Buttons: shared.ButtonAttack,
			Angle: float32(math.Atan2(float64(d[1]), float64(d[0])))}
		end, _ := reference(st, in, n, w, 1)
		if dist := math.Hypot(end.X-st.X, end.Y-st.Y); dist > bestD+1 {
			best, bestD = in, dist
		}
	}
	return best, bestD
}

// TestFrameRateIndependence holds "move + attack" for 3 s of fake real time
// with the client driven by Frame at 5, 15, 30 and 144 frames per second,
// against a real server. At every frame rate the client must make one
// command per tick that elapsed (192 at 64 ticks/s), and the player must
// cover the same distance and fire the same shots, on the server as in the
// prediction, as 192 ticks of that input run through shared.RunCommand.
// Making one command per frame (the old window) gives 15 commands at 5 fps
// and fails. It runs twice: with attack held from the first frame, and as
// the window reports a button (a tap, Pressed, in the frame that first
// sees it down, held from the next frame on).
func TestFrameRateIndependence(t *testing.T) {
	for _, style := range []string{"held", "window"} {
		t.Run(style, func(t *testing.T) { testFrameRate(t, style == "window") })
	}
}

func testFrameRate(t *testing.T, windowStyle bool) {
	const hold = 3 * time.Second
	ticks := int(hold * lockstepRate / time.Second)
	tickMove := shared.MaxSpeed / lockstepRate // world units one tick covers at full speed
	type result struct {
		fps, cmds, packets, fired, shots int
		dist                             float64
	}
	var results []result
	for _, fps := range []int{5, 15, 30, 144} {
		l := newLockstep(t)
		c := l.c
		start := c.View().Predicted
		in, clear := clearRun(start, ticks, c.View().World)
		if clear < 0.8*shared.MaxSpeed*hold.Seconds() {
			t.Fatalf("%d fps: spawn (%.0f, %.0f) has no direction clear for %v of running (best %.0f units)", fps, start.X, start.Y, hold, clear)
		}
		t0 := l.clock
		l.frame(t0, netclient.Input{}) // the first frame starts the count
		cmd0, packets0 := c.View().CommandNumber, c.View().Stats.PacketsSent
		want, wantShots := reference(start, in, ticks, c.View().World, cmd0+1)
		frames := int(hold * time.Duration(fps) / time.Second)
		made := 0
		for i := 1; i <= frames; i++ {
			fin := in
			if windowStyle && i == 1 {
				fin.Buttons, fin.Pressed = 0, in.Buttons
			}
			made += l.frame(t0.Add(time.Duration(i)*time.Second/time.Duration(fps)), fin)
		}
		r := result{fps: fps, cmds: int(c.View().CommandNumber - cmd0), packets: c.View().Stats.PacketsSent - packets0}
		l.settle()
		got := c.View().ServerState
		r.dist = math.Hypot(got.X-start.X, got.Y-start.Y)
		r.fired, r.shots = l.fired, l.shots
		results = append(results, r)
		t.Logf("%3d fps: %d frames, %d commands in %d packets, %.1f units covered (reference %.1f), %d shots (server %d, reference %d), corrections %d",
			fps, frames, r.cmds, r.packets, r.dist, math.Hypot(want.X-start.X, want.Y-start.Y), r.fired, r.shots, wantShots, c.View().Stats.Corrections)

		if r.cmds != ticks || made != ticks {
			t.Errorf("%d fps: %d commands made (Frame reported %d) in %v, want %d: one per tick", fps, r.cmds, made, hold, ticks)
		}
		if d := math.Hypot(got.X-want.X, got.Y-want.Y); d > tickMove {
			t.Errorf("%d fps: the server has the player at (%.1f, %.1f), %.1f units from where %d ticks of the input take it (%.1f, %.1f)",
				fps, got.X, got.Y, d, ticks, want.X, want.Y)
		}
		if r.shots != wantShots || r.fired != wantShots {
			t.Errorf("%d fps: %d shots on the server, %d predicted, want %d", fps, r.shots, r.fired, wantShots)
		}
		if p := c.View().Predicted; !p.Equal(got) || c.View().Stats.Corrections != 0 {
			t.Errorf("%d fps: prediction %+v, server %+v, %d corrections: the server must run every command", fps, p, got, c.View().Stats.Corrections)
		}
		// A packet per frame at most: the commands of a frame go together.
		if r.packets > frames {
			t.Errorf("%d fps: %d command packets for %d frames", fps, r.packets, frames)
		}
	}
	for _, r := range results[1:] {
		if math.Abs(r.dist-results[0].dist) > tickMove || r.shots != results[0].shots {
			t.Errorf("%d fps covered %.1f units with %d shots, %d fps %.1f with %d: want the same", r.fps, r.dist, r.shots,
				results[0].fps, results[0].dist, results[0].shots)
		}
	}
}

// TestFrameTapShorterThanFrame presses attack (and reload) between two
// frames, released again before the next: at 5 fps, where the frame makes
// 12 or 13 commands, and at 1000 fps, where the frame of the press makes
// none. Each tap must fire exactly one shot, confirmed by the server, with
// the first command made after it.
func TestFrameTapShorterThanFrame(t *testing.T) {
	l := newLockstep(t)
	c := l.c
	aim := netclient.Input{Angle: 0.3}
	now := l.clock
	l.frame(now, aim)
	// Idle for half a second, to be sure that nothing fires by itself.
	for range 3 {
		now = now.Add(200 * time.Millisecond)
		l.frame(now, aim)
	}
	if l.fired != 0 {
		t.Fatalf("%d shots without attack", l.fired)
	}

	// 5 fps: the tap happened during a 200 ms frame.
	tap := aim
	tap.Pressed = shared.ButtonAttack
	now = now.Add(200 * time.Millisecond)
	if n := l.frame(now, tap); n < 12 {
		t.Fatalf("a 200 ms frame made %d commands, want 12 or 13", n)
	}
	if l.poll(); l.fired != 1 {
		t.Errorf("a tap within a 200 ms frame fired %d shots, want 1", l.fired)
	}
	for range 3 {
		now = now.Add(200 * time.Millisecond)
		l.frame(now, aim)
	}

	// 1000 fps: the frame of the tap makes no command; the next one that
	// does carries it.
	now = now.Add(l.interval / 2)
	l.frame(now, aim) // leaves about half a tick of time over
	now = now.Add(time.Millisecond)
	if n := l.frame(now, tap); n != 0 {
		t.Fatalf("a 1 ms frame made %d commands, want none", n)
	}
	cmds := 0
	for cmds == 0 {
		now = now.Add(time.Millisecond)
		cmds = l.frame(now, aim)
	}
	if l.poll(); l.fired != 2 {
		t.Errorf("a tap in a 1 ms frame without a command: %d shots in all, want 2 (fired with the next command)", l.fired)
	}
	// Reload, tapped the same way: the magazine is not full after two shots.
	rtap := aim
	rtap.Pressed = shared.ButtonReload
	now = now.Add(time.Millisecond)
	l.frame(now, rtap)
	for range 100 {
		now = now.Add(time.Millisecond)
		l.frame(now, aim)
	}
	l.settle()
	if l.reloads != 1 {
		t.Errorf("a reload tap started %d reloads, want 1", l.reloads)
	}
	if l.shots != 2 || l.fired != 2 {
		t.Errorf("server reported %d shots, %d predicted: want 2 (one per tap)", l.shots, l.fired)
	}
	if st := c.View().ServerState; st.ReloadTicks == 0 && st.Ammo[st.Weapon] != shared.Weapons[st.Weapon].MagSize {
		t.Errorf("server state after the reload tap: %+v, want reloading or reloaded", st)
	}
}

// TestFrameDrawPos checks the render interpolation when one Frame runs
// many ticks (5 fps): the drawn position moves from where the player was
// before the frame's last tick (one tick of movement behind) to the
// prediction over one tick interval, and never shows where it was before
// the frame's first tick.
func TestFrameDrawPos(t *testing.T) {
	l := newLockstep(t)
	c := l.c
	start := c.View().Predicted
	in, _ := clearRun(start, lockstepRate, c.View().World)
	in.Buttons = 0
	t0 := l.clock
	l.frame(t0, in)
	var now time.Time
	for i := 1; i <= 4; i++ { // 0.8 s: at full speed
		now = t0.Add(time.Duration(i) * 200 * time.Millisecond)
		l.frame(now, in)
	}
	// Ticks end at t0 + k ticks; the last one of this frame:
	lastTick := t0.Add((now.Sub(t0) / l.interval) * l.interval)
	x, y := c.View().LocalPos()
	tickMove := shared.MaxSpeed / lockstepRate
	if dx, dy := c.View().DrawPos(lastTick.Add(l.interval)); dx != x || dy != y {
		t.Errorf("a tick after the last tick: drawn at (%.2f, %.2f), want the prediction (%.2f, %.2f)", dx, dy, x, y)
	}
	px, py := c.View().DrawPos(lastTick)
	if d := math.Hypot(x-px, y-py); d < tickMove*0.9 || d > tickMove*1.01 {
		t.Errorf("at the last tick: drawn %.2f units behind the prediction, want one tick of movement (%.2f)", d, tickMove)
	}
	mx, my := c.View().DrawPos(lastTick.Add(l.interval / 2))
	if math.Abs(mx-(px+x)/2) > 1e-9 || math.Abs(my-(py+y)/2) > 1e-9 {
		t.Errorf("half a tick after the last tick: drawn at (%.3f, %.3f), want (%.3f, %.3f)", mx, my, (px+x)/2, (py+y)/2)
	}
}

// TestFrameLongFramesAndStall checks the limits of making up time: a frame
// of 0.8 s makes 32 commands (MaxFrameTime; the rest is counted, not sent),
// which the server queues and runs all; a pause of 3 s (a hidden tab)
// resynchronises the clock and makes no command at all.
func TestFrameLongFramesAndStall(t *testing.T) {
	l := newLockstep(t)
	c := l.c
	now := l.clock
	in := netclient.Input{MoveX: 0.5, MoveY: 0.5}
	l.frame(now, in)
	now = now.Add(800 * time.Millisecond)
	if n := l.frame(now, in); n != 32 {
		t.Errorf("a 0.8 s frame made %d commands, want 32 (MaxFrameTime)", n)
	}
	if c.View().Stats.FrameTicksDropped != 51-32 {
		t.Errorf("FrameTicksDropped = %d, want %d", c.View().Stats.FrameTicksDropped, 51-32)
	}
	now = now.Add(netclient.StallGap + 2*time.Second)
	if n := l.frame(now, in); n != 0 || c.View().Stats.Resyncs != 1 {
		t.Errorf("after a 3 s stall: %d commands, %d resyncs; want 0 and 1", n, c.View().Stats.Resyncs)
	}
	now = now.Add(l.interval)
	if n := l.frame(now, in); n != 1 {
		t.Errorf("a tick after the stall: %d commands, want 1", n)
	}
	l.settle()
	if p, s := c.View().Predicted, c.View().ServerState; !p.Equal(s) || c.View().Stats.Corrections != 0 {
		t.Errorf("prediction %+v, server %+v, %d corrections: the server must have run all 33 commands", p, s, c.View().Stats.Corrections)
	}
}

// A window calls MarkDrawn after drawing: every command of the next frame,
// however many ticks it spans, claims the render time of that drawn frame,
// and the shot's view is what was drawn. Without a draw, commands claim
// their own ticks.
func TestFrameClaimsTheDrawnFrame(t *testing.T) {
	l := newLockstep(t)
	c := l.c
	aim := netclient.Input{Angle: 0.3}
	now := l.clock
	l.frame(now, aim)
	for range 3 {
		now = now.Add(200 * time.Millisecond)
		l.frame(now, aim)
	}
	drawn := c.View().RenderTick
	c.MarkDrawn()
	fire := aim
	fire.Buttons = shared.ButtonAttack
	first := c.View().CommandNumber + 1
	now = now.Add(200 * time.Millisecond) // a 5 fps frame: 12-13 commands, 2 rifle shots
	if n := l.frame(now, fire); n < 12 {
		t.Fatalf("a 200 ms frame made %d commands", n)
	}
	var claims []float64
	for cmd := first; cmd <= c.View().CommandNumber; cmd++ {
		if v, ok := c.Shots().Of(cmd); ok {
			claims = append(claims, v.RenderTick)
		}
	}
	if len(claims) < 2 {
		t.Fatalf("%d shots in a 200 ms frame of held fire, want 2", len(claims))
	}
	for _, rt := range claims {
		if rt != drawn {
			t.Fatalf("shots of the frame after a draw claim render ticks %v, want all %v (the drawn frame)", claims, drawn)
		}
	}
	// The next frame was not drawn: its shots claim their own ticks.
	first = c.View().CommandNumber + 1
	now = now.Add(400 * time.Millisecond)
	l.frame(now, fire)
	claims = claims[:0]
	for cmd := first; cmd <= c.View().CommandNumber; cmd++ {
		if v, ok := c.Shots().Of(cmd); ok {
			claims = append(claims, v.RenderTick)
		}
	}
	if len(claims) < 2 || claims[0] == claims[len(claims)-1] || claims[0] <= drawn {
		t.Fatalf("undrawn frame's shots claim %v: want their own, later, ticks", claims)
	}
}
