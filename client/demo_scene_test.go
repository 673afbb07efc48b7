//go:build !headless

package client

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/demo"
	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/server"
)

// TestConsoleRecordAndPlaydemo: in a real game against a server over
// loopback, the console's record NAME and stop write NAME.dem into the
// demos folder of the config directory; playdemo NAME then plays it in the
// window through the demo scene, which demo_timescale, demo_pause and
// demo_gototick control, and what the player types to the server during
// playback goes nowhere.
func TestConsoleRecordAndPlaydemo(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	srv := testserver.Start(t, server.Config{TickRate: 64, Bots: 2, Seed: 4})
	g := newGame(Options{Addr: srv.Addr(), Config: netclient.DefaultConfig("console"), Width: testScreenW, Height: testScreenH})
	if err := g.initCvars(); err != nil {
		t.Fatal(err)
	}
	g.scenes.Switch(newConnectScene(srv.Addr()))
	t.Cleanup(func() { g.disconnect("test over"); g.scenes.Close() })
	// Update only: drawing here would take sprite slots of the shared
	// atlas that the draw tests count on (TestWindowPlaydemo in package
	// main draws a demo in its own process).
	frames := func(d time.Duration, until func() bool) {
		t.Helper()
		end := time.Now().Add(d)
		for time.Now().Before(end) && (until == nil || !until()) {
			onFrame(func(*ebiten.Image) {
				if err := g.Update(); err != nil {
					t.Errorf("Update: %v", err)
				}
			})
			time.Sleep(10 * time.Millisecond)
		}
	}
	if out := g.exec("record early"); !strings.Contains(out, "not in a game") {
		t.Errorf("record before the game: %q", out)
	}
	frames(15*time.Second, func() bool { p, ok := g.scenes.Current().(*playScene); return ok && p.c.View().HaveSnapshot })
	if _, ok := g.scenes.Current().(*playScene); !ok {
		t.Fatal("not in the game within 15 s")
	}
	if out := g.exec("record ../x"); !strings.Contains(out, "bad demo name") {
		t.Errorf("record ../x: %q", out)
	}
	out := g.exec("record duel")
	path, _ := demo.Path("duel")
	if !strings.Contains(out, "recording to "+path) {
		t.Fatalf("record duel: %q", out)
	}
	onFrame(func(screen *ebiten.Image) {
		// A frame of the recording marks it (REC at the top left); what
		// the world draws is left out of the atlas' sprite slots by
		// drawing only the mark.
		img := ebiten.NewImage(testScreenW, testScreenH)
		defer img.Deallocate()
		batch.use(img)
		g.rec.draw(img)
		batch.flush()
		if r, _, _, _ := img.At(16, 44).RGBA(); r>>8 != 0xe0 {
			t.Errorf("no recording mark: %x at (16, 44)", r>>8)
		}
	})
	if out := g.exec("record again"); !strings.Contains(out, "already recording") {
		t.Errorf("a second record: %q", out)
	}
	frames(2500*time.Millisecond, nil)
	if out := g.exec("stop"); !strings.Contains(out, "recorded "+path) {
		t.Fatalf("stop: %q", out)
	}
	if out := g.exec("stop"); out != "not recording" {
		t.Errorf("a second stop: %q", out)
	}
	d, err := demo.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Header.MidGame || !d.Complete || d.LastTick-d.FirstTick < 64 {
		t.Fatalf("the demo: %s (mid-game %v, complete %v)", d.Describe(), d.Header.MidGame, d.Complete)
	}
	if out := g.exec("listdemos"); !strings.Contains(out, "duel") {
		t.Errorf("listdemos: %q", out)
	}

	// In a game, playdemo asks first; typed again, it leaves the game.
	if out := g.exec("playdemo duel"); !strings.HasPrefix(out, "playdemo: you are in a game at "+srv.Addr()) {
		t.Fatalf("playdemo duel in a game: %q", out)
	}
	frames(100*time.Millisecond, nil)
	if _, ok := g.scenes.Current().(*playScene); !ok || g.c == nil {
		t.Fatalf("the first playdemo left the game: the scene is %T", g.scenes.Current())
	}
	if out := g.exec("playdemo duel"); !strings.HasPrefix(out, "left the game at "+srv.Addr()) || !strings.Contains(out, "\nplaying "+path) {
		t.Fatalf("playdemo duel again: %q", out)
	}
	frames(time.Second, nil)
	s, ok := g.scenes.Current().(*demoScene)
	if !ok {
		t.Fatalf("playdemo: the scene is %T", g.scenes.Current())
	}
	if g.c != s.p.C || s.p.C.View().SnapshotTick == 0 || s.err != nil {
		t.Fatalf("playback: client %p/%p, tick %d, error %v", g.c, s.p.C, s.p.C.View().SnapshotTick, s.err)
	}
	if g.exec("demo_timescale 4"); s.p.Scale != 4 {
		t.Errorf("demo_timescale 4: scale %v", s.p.Scale)
	}
	g.exec("say nobody hears this")
	g.exec("demo_pause")
	frames(200*time.Millisecond, nil)
	at := s.p.T
	frames(300*time.Millisecond, nil)
	if !s.p.Paused || s.p.T != at {
		t.Errorf("demo_pause: paused %v, clock %v then %v", s.p.Paused, at, s.p.T)
	}
	target := d.FirstTick + 40
	g.exec("demo_gototick " + formatNumber(float64(target)))
	if got := s.p.Tick(); got < target || got > target+4 {
		t.Errorf("demo_gototick %d: at tick %d", target, got)
	}
	g.exec("demo_resume")
	frames(5*time.Second, func() bool { return s.p.Done() })
	if s.err != nil {
		t.Fatal(s.err)
	}
	// At the end the clock stops at the demo's length.
	frames(300*time.Millisecond, nil)
	if !s.ended() || s.p.T != d.Duration {
		t.Errorf("after the end: ended %v, clock %v of %v", s.ended(), s.p.T, d.Duration)
	}
	if n := s.p.C.ConnStats().PacketsOut; n == 0 {
		t.Error("nothing was sent into the demo transport")
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}
