package demo

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/server"
	"tickshot/shared"
)

// trace hashes what a client did: every frame it took from its
// connection, and its state after each Frame (predicted positions per
// command, rendered players and projectiles, clock, net_graph figures).
type trace struct {
	frames   hash.Hash
	states   []string // one hash per Frame
	cmds     map[uint32]string
	nFrames  int
	lastCmd  uint32
	snapshot int
}

func newTrace() *trace { return &trace{frames: sha256.New(), cmds: map[uint32]string{}} }

func (tr *trace) packet(raw []byte, at time.Duration) {
	tr.nFrames++
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(at))
	tr.frames.Write(b[:])
	tr.frames.Write(raw)
}

// frame hashes c's state after one Frame at real time now.
func (tr *trace) frame(c *netclient.Client, now time.Time) {
	h := sha256.New()
	put := func(vs ...any) {
		for _, v := range vs {
			if f, ok := v.(float64); ok {
				v = math.Float64bits(f)
			}
			binary.Write(h, binary.LittleEndian, v)
		}
	}
	for n := tr.lastCmd + 1; n <= c.View().CommandNumber; n++ {
		st, ok := c.PredictedOf(n)
		if !ok {
			continue
		}
		tr.cmds[n] = fmt.Sprintf("%v %v %v %v %v %v", st.X, st.Y, st.VX, st.VY, st.Dead, st.Ammo)
	}
	tr.lastCmd = c.View().CommandNumber
	p := c.View().Predicted
	lx, ly := c.View().LocalPos()
	dx, dy := c.View().DrawPos(now)
	put(uint32(c.View().CommandNumber), p.X, p.Y, p.VX, p.VY, lx, ly, dx, dy, c.View().ServerTick, c.View().RenderTick, uint32(c.View().SnapshotTick))
	for _, e := range c.View().Rendered {
		put(e.ID, e.X, e.Y, e.Angle, e.Alive, int32(e.Health))
	}
	for _, pr := range c.View().Projectiles {
		put(pr.ID, pr.X, pr.Y)
	}
	s := c.View().Stats
	put(int32(s.SnapshotsReceived), int32(s.Corrections), int32(s.LifeResets), int32(s.SnapshotsLost), int32(s.PingMs), int32(s.FullSnapshots))
	if c.Net().GraphN > 0 {
		g := c.Net().GraphAt(0)
		put(int32(g.Size), int32(g.Lost), int32(g.Choked), g.PingMs, g.LerpMs, g.At.Sub(time.Time{}).Nanoseconds())
	}
	put(c.Net().ChokePct(), c.Net().Jitter.Ms())
	tr.states = append(tr.states, fmt.Sprintf("%x", h.Sum(nil)))
	tr.snapshot = s.SnapshotsReceived
}

// tee passes a recording to the Recorder and hashes the frames.
type tee struct {
	*Recorder
	tr *trace
}

func (t tee) Packet(raw []byte, at time.Time) {
	t.tr.packet(raw, at.Sub(t.start))
	t.Recorder.Packet(raw, at)
}

// script is the scripted player: runs, turns, fires, reloads and switches
// weapons, as a function of time.
func script(d time.Duration) netclient.Input {
	s := d.Seconds()
	in := netclient.Input{MoveX: float32(math.Cos(s * 1.3)), MoveY: float32(math.Sin(s * 0.9)), Angle: float32(math.Mod(s*2, 2*math.Pi) - math.Pi)}
	if int(s*4)%3 == 0 {
		in.Buttons |= shared.ButtonAttack
	}
	if int(s)%7 == 6 {
		in.Pressed |= shared.ButtonReload
	}
	if int(s/5)%2 == 1 {
		in.Weapon = 1
	}
	return in
}

// recordSession plays a scripted client against a real server with bots
// over loopback websockets for dur, recording from connect into path.
func recordSession(t *testing.T, path string, dur time.Duration, fake proto.FakeConditions) *trace {
	t.Helper()
	srv := testserver.Start(t, server.Config{TickRate: 64, Bots: 3, Seed: 5})
	c := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("recorder"))
	// Received frames are delayed, jittered and some lost: the recording
	// holds what the client took, so playback sees the same.
	c.SetFakeConditions(fake)
	r, err := newRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	tr := newTrace()
	st, err := c.StartRecording(tee{r, tr})
	if err != nil {
		t.Fatal(err)
	}
	r.begin(st)
	start := time.Now()
	tk := time.NewTicker(7 * time.Millisecond) // frames of 7 ms and, on a busy machine, longer
	defer tk.Stop()
	for now := start; now.Sub(start) < dur; now = <-tk.C {
		now = time.Now()
		if err := c.Poll(); err != nil {
			t.Fatal(err)
		}
		c.Frame(now, script(now.Sub(start)))
		tr.frame(c, now)
	}
	if err := r.Stop(c, "test over"); err != nil {
		t.Fatal(err)
	}
	if c.View().Recording {
		t.Fatal("still recording after Stop")
	}
	return tr
}

// play plays path at speed scale, advancing the demo clock by frames of
// real time step, and returns its trace.
func play(t *testing.T, path string, scale float64, step time.Duration) (*trace, *Player) {
	t.Helper()
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(d, netclient.DefaultConfig(""))
	if err != nil {
		t.Fatal(err)
	}
	p.SetScale(scale)
	tr := newTrace()
	p.OnPacket = func(r *Record) { tr.packet(r.Data, r.At) }
	p.OnFrame = func(r *Record) { tr.frame(p.C, d.Header.Start.Add(r.At)) }
	for i := 0; !p.Done(); i++ {
		if err := p.Advance(step); err != nil {
			t.Fatal(err)
		}
		if i > 1e6 {
			t.Fatal("playback does not end")
		}
	}
	return tr, p
}

func compare(t *testing.T, what string, live, got *trace) {
	t.Helper()
	if live.nFrames != got.nFrames || fmt.Sprintf("%x", live.frames.Sum(nil)) != fmt.Sprintf("%x", got.frames.Sum(nil)) {
		t.Errorf("%s: frames delivered differ: %d frames live, %d in playback (hashes %x, %x)", what, live.nFrames, got.nFrames,
			live.frames.Sum(nil)[:8], got.frames.Sum(nil)[:8])
	}
	if len(live.states) != len(got.states) {
		t.Errorf("%s: %d frames of commands live, %d in playback", what, len(live.states), len(got.states))
	}
	for i := range min(len(live.states), len(got.states)) {
		if live.states[i] != got.states[i] {
			t.Errorf("%s: the client's state after frame %d of %d differs from the recording", what, i, len(live.states))
			break
		}
	}
	diff := 0
	for n, s := range live.cmds {
		if got.cmds[n] != s {
			diff++
		}
	}
	if diff > 0 || len(live.cmds) != len(got.cmds) {
		t.Errorf("%s: predicted positions differ for %d of %d commands (%d in playback)", what, diff, len(live.cmds), len(got.cmds))
	}
}

// TestRecordAndReplay records 20 s of a scripted player against bots over
// real websockets and plays it back at ×1 and ×4: the frames delivered,
// the predicted position of every command, and the client's state after
// every frame (rendered players, clock, net_graph figures) are those of
// the recording.
func TestRecordAndReplay(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	path, err := Path("session")
	if err != nil {
		t.Fatal(err)
	}
	live := recordSession(t, path, 20*time.Second, proto.FakeConditions{LagMs: 30, JitterMs: 10, LossPct: 2})
	if live.snapshot < 300 || len(live.cmds) < 1000 {
		t.Fatalf("recorded only %d snapshots and %d commands in 20 s", live.snapshot, len(live.cmds))
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d frames, %d commands, %d client frames into %s: %d bytes", live.nFrames, len(live.cmds), len(live.states), filepath.Base(path), fi.Size())
	for _, scale := range []float64{1, 4} {
		got, p := play(t, path, scale, 16*time.Millisecond)
		compare(t, fmt.Sprintf("×%g", scale), live, got)
		if !p.Demo.Complete || p.Demo.Duration < 19*time.Second {
			t.Errorf("demo complete %v, %v long", p.Demo.Complete, p.Demo.Duration)
		}
		if pk := p.C.ConnStats().PacketsOut; pk == 0 {
			t.Errorf("×%g: the client sent nothing during playback (it should send into the demo transport)", scale)
		}
	}
	// Frames of the demo clock of another size make no difference either.
	got, p := play(t, path, 1, 45*time.Millisecond)
	compare(t, "×1 at 22 fps", live, got)
	// Seeking to the end from the start runs the whole demo without
	// drawing (a figure, not a requirement).
	if err := p.GotoTick(p.Demo.FirstTick); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	if err := p.GotoTick(p.Demo.LastTick); err != nil {
		t.Fatal(err)
	}
	t.Logf("demo_gototick %d from the start: %v for %v of demo", p.Demo.LastTick, time.Since(t0).Round(time.Millisecond), p.Demo.Duration.Round(time.Millisecond))
}

// TestMidGameRecording starts recording after the game has run: playback
// starts at the full snapshot the client asked for, and from then on
// predicts every command as the client did.
func TestMidGameRecording(t *testing.T) {
	srv := testserver.Start(t, server.Config{TickRate: 64, Bots: 2, Seed: 9})
	c := testserver.Connect(t, srv.Addr(), netclient.DefaultConfig("late"))
	start := time.Now()
	loop := func(d time.Duration, each func(now time.Time)) {
		for now := time.Now(); now.Sub(start) < d; now = time.Now() {
			if err := c.Poll(); err != nil {
				t.Fatal(err)
			}
			c.Frame(now, script(now.Sub(start)))
			if each != nil {
				each(now)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	loop(2*time.Second, nil)
	path := filepath.Join(t.TempDir(), "late.dem")
	r, err := newRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	tr := newTrace()
	st, err := c.StartRecording(tee{r, tr})
	if err != nil {
		t.Fatal(err)
	}
	r.begin(st)
	corrBefore := c.View().Stats.Corrections
	if !st.MidGame {
		t.Fatal("not a mid-game start")
	}
	loop(5*time.Second, func(now time.Time) {
		if tr.nFrames > 0 {
			tr.frame(c, now)
		}
	})
	if err := r.Stop(c, "done"); err != nil {
		t.Fatal(err)
	}
	if c.View().Config.NoDelta {
		t.Error("cl_nodelta left on after the full snapshot")
	}
	got, p := play(t, path, 2, 16*time.Millisecond)
	if p.C.View().Stats.FullSnapshots == 0 || got.snapshot < 40 {
		t.Fatalf("playback applied %d snapshots (%d full)", got.snapshot, p.C.View().Stats.FullSnapshots)
	}
	if p.C.View().Stats.BaselineMissing != 0 {
		t.Errorf("%d snapshots dropped for a missing baseline in playback", p.C.View().Stats.BaselineMissing)
	}
	// Commands acked before the full snapshot are not in the demo.
	first := uint32(math.MaxUint32)
	for n := range got.cmds {
		first = min(first, n)
	}
	diff, compared := 0, 0
	for n, s := range tr.cmds {
		if n < first {
			continue
		}
		compared++
		if got.cmds[n] != s {
			diff++
		}
	}
	if diff > 0 || compared < 100 {
		t.Errorf("predicted positions differ for %d of %d commands", diff, compared)
	}
	// Seeding the commands in flight makes the first snapshot find what the
	// client found live: no prediction error that the client did not have.
	if live := c.View().Stats.Corrections - corrBefore; p.C.View().Stats.Corrections > live {
		t.Errorf("%d prediction errors in playback, %d live", p.C.View().Stats.Corrections, live)
	}
	if p.C.View().Name(c.View().ID) == fmt.Sprintf("player %d", c.View().ID) {
		t.Error("the player's name was not carried into the mid-game demo")
	}
	// The scoreboard table too: the snapshots after it carry only deltas.
	if n := len(p.C.View().Scores); n != 3 {
		t.Errorf("playback's scoreboard has %d rows, want the player and the 2 bots", n)
	}
}

// TestSeekAndPause: demo_gototick lands within one snapshot interval of
// the tick asked for, forwards and backwards; a paused demo does not move.
func TestSeekAndPause(t *testing.T) {
	path := filepath.Join(t.TempDir(), "seek.dem")
	recordSession(t, path, 4*time.Second, proto.FakeConditions{LagMs: 30, JitterMs: 10})
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(d, netclient.DefaultConfig(""))
	if err != nil {
		t.Fatal(err)
	}
	interval := uint32(math.Ceil(64 / float64(p.C.View().Config.UpdateRate))) // 4 ticks at 20 snapshots/s
	for _, n := range []uint32{d.FirstTick + 150, d.FirstTick + 40, d.LastTick - 10, d.FirstTick + 10} {
		if err := p.GotoTick(n); err != nil {
			t.Fatal(err)
		}
		got := p.C.View().SnapshotTick
		if got < n || got >= n+interval {
			t.Errorf("demo_gototick %d: the client is at snapshot tick %d (interval %d ticks)", n, got, interval)
		}
		if st := p.C.View().ServerTick; math.Abs(st-float64(n)) > float64(interval) {
			t.Errorf("demo_gototick %d: the client's server tick is %.1f (interval %d ticks)", n, st, interval)
		}
		t.Logf("demo_gototick %d: snapshot tick %d, server tick %.2f", n, got, p.C.View().ServerTick)
	}
	p.Paused = true
	before, tick := p.T, p.C.View().SnapshotTick
	for range 100 {
		if err := p.Advance(16 * time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	if p.T != before || p.C.View().SnapshotTick != tick {
		t.Errorf("paused demo moved from %v (tick %d) to %v (tick %d)", before, tick, p.T, p.C.View().SnapshotTick)
	}
	p.Paused = false
	p.SetScale(9)
	if p.Scale != MaxScale {
		t.Errorf("demo_timescale 9 gave %v", p.Scale)
	}
	if err := p.Advance(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if p.T != before+400*time.Millisecond {
		t.Errorf("100 ms at ×4 moved the demo clock by %v", p.T-before)
	}
	if err := p.Seek(p.T - 2*time.Second); err != nil {
		t.Fatal(err)
	}
	if p.C.View().SnapshotTick >= tick {
		t.Errorf("seeking 2 s back left the client at tick %d (was %d)", p.C.View().SnapshotTick, tick)
	}
}

func TestPathAndNames(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	p, err := Path("match1")
	if err != nil || p != filepath.Join(dir, "tickshot", "demos", "match1.dem") {
		t.Errorf("Path(match1) = %q, %v", p, err)
	}
	if p, _ := Path("/tmp/x.dem"); p != "/tmp/x.dem" {
		t.Errorf("a path is used as it is, got %q", p)
	}
	for _, bad := range []string{"", "../x", "a b", ".hidden", strings.Repeat("x", 65)} {
		if CheckName(bad) == nil {
			t.Errorf("CheckName(%q) accepted", bad)
		}
	}
	if err := CheckName("duel_2-b"); err != nil {
		t.Error(err)
	}
}
