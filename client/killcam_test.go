//go:build !headless

package client

import (
	"math"
	"os"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// camHistory records into k 5 s of snapshots at 20/s (64 ticks/s) from
// tick 1000: the local player (1) standing at (300, 300) until it dies at
// tick 1255 (4 s in), player 2 (the killer) walking along x = tick at y
// 400 with health 100 - (tick-1000)/8, and a shot of player 2's every
// second. It returns the killing tick.
func camHistory(k *killCam) uint32 {
	const tickRate, step, kill = 64, 3, 1255
	for tick := uint32(1000); tick <= 1000+5*tickRate; tick += step {
		vw := netclient.View{ID: 1, TickRate: tickRate, HaveSnapshot: true, SnapshotTick: tick, RenderTick: float64(tick) - 6,
			ServerState: shared.NewPlayerState(300, 300),
			Held:        []netclient.HeldEntity{{ID: 2, Newest: killerAt(float64(tick))}},
			Rendered:    []netclient.RenderedEntity{{ID: 2, Health: int(100 - (tick-1000)/8)}}}
		vw.ServerState.Dead = tick >= kill
		k.record(&vw, 0)
		if (tick-1000)%tickRate == 0 {
			e := proto.Event{Kind: proto.EvShot, Tick: tick, A: 2, X: proto.ToFixed(killerAt(float64(tick)).X), Y: proto.ToFixed(400), X2: proto.ToFixed(300), Y2: proto.ToFixed(300)}
			k.onEvent(&e, &vw, true)
		}
	}
	return kill
}

// killerAt is where camHistory has the killer at tick.
func killerAt(tick float64) game.Sample {
	return game.Sample{Tick: uint32(tick), X: 1000 + tick - 1000, Y: 400, Alive: true}
}

// The kill cam replays the 3 s before the death from the client's own
// snapshot history, at the game's speed, the camera on the killer where
// the history has it, then ends after the death itself.
func TestKillCamReplaysHistoryFollowingTheKiller(t *testing.T) {
	var k killCam
	kill := camHistory(&k)
	vw := netclient.View{ID: 1, TickRate: 64}
	e := killEv(2, 1, 0, kill, 0, 0, 0, 0)
	if !k.onEvent(&e, &vw, true) || !k.on {
		t.Fatal("the local player's death did not start the kill cam")
	}
	if want := float64(kill) - 3*64; k.t != want {
		t.Fatalf("the replay starts at tick %v, want %v (3 s before the death)", k.t, want)
	}
	frames, prev := 0, k.t
	const dt = 16 * time.Millisecond
	for k.on {
		f := k.frame()
		if len(f.others) != 1 || f.others[0].ID != 2 || !f.haveSelf || f.self.Alive != (k.t <= float64(kill)) {
			t.Fatalf("frame %d at tick %.1f: others %+v, self %+v (%v); want the killer, and you alive until tick %d", frames, k.t, f.others, f.self, f.haveSelf, kill)
		}
		if want := killerAt(k.t).X; math.Abs(k.focusX-want) > 1e-6 {
			t.Fatalf("frame %d at tick %.1f: the camera looks at x %.2f, the killer is at %.2f", frames, k.t, k.focusX, want)
		}
		if snap := 1000 + 3*math.Floor((k.t-1000)/3); f.others[0].Health != 100-(int(snap)-1000)/8 {
			t.Fatalf("frame %d at tick %.1f: the killer's health %d, want the %d of the snapshot of tick %v", frames, k.t, f.others[0].Health, 100-(int(snap)-1000)/8, snap)
		}
		if math.Abs(f.others[0].X-k.focusX) > 1e-6 {
			t.Fatalf("frame %d: the killer drawn at x %.2f, the camera at %.2f", frames, f.others[0].X, k.focusX)
		}
		k.update(dt, false)
		if k.on && k.t <= prev {
			t.Fatalf("the replay went from tick %v to %v", prev, k.t)
		}
		prev = k.t
		frames++
	}
	if d := time.Duration(frames) * dt; d < killCamSpan+killCamHold-2*dt || d > killCamSpan+killCamHold+2*dt {
		t.Fatalf("the replay lasted %v, want %v", d, killCamSpan+killCamHold)
	}
}

// Any key skips the kill cam; with cl_killcam 0 (enabled false) it never
// starts; nor for a death by your own hand.
func TestKillCamSkipsAndTurnsOff(t *testing.T) {
	var k killCam
	kill := camHistory(&k)
	vw := netclient.View{ID: 1, TickRate: 64}
	e := killEv(2, 1, 0, kill, 0, 0, 0, 0)
	k.onEvent(&e, &vw, true)
	k.update(16*time.Millisecond, false)
	k.update(16*time.Millisecond, true)
	if k.on {
		t.Fatal("a key did not skip the kill cam")
	}

	// The match's end, a new match or map ends it; a new map forgets the
	// history (of the old map).
	for _, kind := range []uint8{proto.EvMatchEnd, proto.EvMatchStart, proto.EvChangeLevel} {
		k.onEvent(&e, &vw, true)
		end := proto.Event{Kind: kind}
		k.onEvent(&end, &vw, true)
		if k.on {
			t.Errorf("event kind %d did not end the kill cam", kind)
		}
	}
	if len(k.players) != 0 || len(k.events) != 0 || k.onEvent(&e, &vw, true) {
		t.Errorf("after a new map: %d players' histories, %d events kept, a replay started", len(k.players), len(k.events))
	}

	var off killCam
	camHistory(&off)
	if off.onEvent(&e, &vw, false) || off.on {
		t.Fatal("the kill cam started with cl_killcam 0")
	}
	self := killEv(1, 1, 1, kill, 0, 0, 0, 0)
	if off.onEvent(&self, &vw, true) || off.on {
		t.Fatal("the kill cam started for a suicide")
	}
	g := newGame(Options{Addr: "pipe", AutoPlay: true, Width: 640, Height: 360})
	if !g.cv.killCam.Get() {
		t.Fatal("cl_killcam is off by default")
	}
	if out := g.exec("cl_killcam 0"); g.cv.killCam.Get() {
		t.Fatalf("cl_killcam 0: %q, still on", out)
	}
}

// While the kill cam runs, the play screen draws it, not the live game:
// letterbox bars over the replay with the death card; skipped, the live
// game is drawn again. The live client is never written.
// TICKSHOT_KEEP_SHOT=FILE keeps a picture of the kill cam.
func TestKillCamDrawsTheReplay(t *testing.T) {
	c := newFakeClient(t, fakeWorld{others: 2})
	g := newDrawGame(c, testScreenW, testScreenH, 0)
	p := g.scenes.Current().(*playScene)
	kill := camHistory(&p.cam)
	vw := c.View()
	vw.ID = 1
	e := killEv(2, 1, 0, kill, 900, 400, 300, 300)
	p.card.onEvent(&e, &vw)
	if !p.cam.onEvent(&e, &vw, true) {
		t.Fatal("the kill cam did not start")
	}
	before := c.View().Rendered
	barRow := func() (dark int) {
		onFrame(func(*ebiten.Image) {
			dst := ebiten.NewImage(testScreenW, testScreenH)
			defer dst.Deallocate()
			g.Draw(dst)
			batch.flush()
			if keep := os.Getenv("TICKSHOT_KEEP_SHOT"); keep != "" && p.cam.on {
				if err := savePNG(dst, keep); err != nil {
					t.Error(err)
				}
			}
			for x := 0; x < testScreenW; x += 8 {
				if r, gg, b, _ := dst.At(x, 30).RGBA(); r>>8 == uint32(colKillCamBar.R) && gg>>8 == uint32(colKillCamBar.G) && b>>8 == uint32(colKillCamBar.B) {
					dark++
				}
			}
		})
		return dark
	}
	if n := barRow(); n < testScreenW/8*3/4 {
		t.Errorf("the kill cam's top bar covers %d of %d samples of row 30", n, testScreenW/8)
	}
	p.cam.update(16*time.Millisecond, true)
	if n := barRow(); n > testScreenW/8/4 {
		t.Errorf("skipped, row 30 still has %d samples of the kill cam's bar", n)
	}
	if after := c.View().Rendered; len(after) != len(before) {
		t.Errorf("the live view changed under the kill cam: %d others, then %d", len(before), len(after))
	}
}

// A killer this client never saw (it shot from beyond the view): the
// replay follows the local player instead.
func TestKillCamFollowsYouWhenTheKillerWasUnseen(t *testing.T) {
	var k killCam
	kill := camHistory(&k)
	vw := netclient.View{ID: 1, TickRate: 64}
	e := killEv(7, 1, 1, kill, 0, 0, 0, 0)
	if !k.onEvent(&e, &vw, true) {
		t.Fatal("no kill cam for an unseen killer")
	}
	for k.on {
		if k.focusX != 300 || k.focusY != 300 {
			t.Fatalf("at tick %.1f the camera looks at (%v, %v), want you at (300, 300)", k.t, k.focusX, k.focusY)
		}
		k.update(16*time.Millisecond, false)
	}
}
