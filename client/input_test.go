//go:build !headless

package client

import (
	"math"
	"sync"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/server"
	"tickshot/shared"
)

// TestScriptedInputDrivesGame: a ScriptedInput drives the real game scene
// (connect scene, then playScene, through the Game's Update and Draw on the
// test loop) against a real server over loopback websockets: the player
// runs one way for half a second, then another, taps fire once, stands
// still, and the script ends the window. The local player moves as
// scripted, the server's authoritative state agrees with the prediction
// without a correction, exactly one shot went out, and the window quits
// when the script ends.
func TestScriptedInputDrivesGame(t *testing.T) {
	srv := testserver.Start(t, server.Config{TickRate: 64, Bots: 0, Map: "arena"})

	// The script's legs: first along x, then along y, towards open space
	// (decided once the spawn is known), each legCmds commands long (half a
	// second at 64 ticks/s), then one tap of attack and a second of
	// standing. The legs count the commands the client made, not wall
	// time: on a loaded machine a frame can come late and make many
	// commands at once (a leg timed by the wall clock then got a third of
	// its movement), or two frames can fall in a tap's window (two shots)
	// or none (no shot).
	const legCmds = 32
	var (
		mu         sync.Mutex
		started    bool
		cmd0       uint32 // the command number when the script started
		tapped     bool
		dirX, dirY float32
		marks      [3][2]float64 // predicted position at the start, after leg 1, after leg 2
		marked     [3]bool
		c          *netclient.Client
	)
	script := ScriptedInput(func(time.Duration) InputFrame {
		mu.Lock()
		defer mu.Unlock()
		f := InputFrame{}
		if !started || c == nil {
			return f
		}
		n := c.View().CommandNumber - cmd0
		mark := func(i int) {
			if !marked[i] {
				st := c.View().Predicted
				marks[i], marked[i] = [2]float64{st.X, st.Y}, true
			}
		}
		switch {
		case n < legCmds:
			mark(0)
			f.Input.MoveX = dirX
		case n < 2*legCmds:
			mark(1)
			f.Input.MoveY = dirY
		case n < 4*legCmds:
			mark(2)
			if !tapped {
				tapped = true
				f.Input.Pressed = shared.ButtonAttack // a tap: latched once
			}
		default:
			f.Ended = true
		}
		return f
	})
	g := newGame(Options{Addr: srv.Addr(), Config: netclient.DefaultConfig("scripted"), Input: script, Width: testScreenW, Height: testScreenH})
	if err := g.initCvars(); err != nil {
		t.Fatal(err)
	}
	g.scenes.Switch(newConnectScene(srv.Addr()))
	t.Cleanup(func() { g.disconnect("test over"); g.scenes.Close() })
	dst := make(chan *ebiten.Image, 1)
	frame := func() {
		onFrame(func(*ebiten.Image) {
			var img *ebiten.Image
			select {
			case img = <-dst:
			default:
				img = ebiten.NewImage(testScreenW, testScreenH)
			}
			if err := g.Update(); err != nil && err != ebiten.Termination {
				t.Errorf("Update: %v", err)
			}
			g.Draw(img)
			dst <- img
		})
		time.Sleep(5 * time.Millisecond) // about a 60 Hz frame with the loop's own
	}

	deadline := time.Now().Add(15 * time.Second)
	for {
		if p, ok := g.scenes.Current().(*playScene); ok && p.c.View().HaveSnapshot && !p.c.View().Predicted.Dead {
			mu.Lock()
			c = p.c
			st := c.View().Predicted
			m := c.View().Map
			dirX, dirY = 1, 1
			if st.X > m.Width/2 {
				dirX = -1
			}
			if st.Y > m.Height/2 {
				dirY = -1
			}
			started, cmd0 = true, c.View().CommandNumber
			mu.Unlock()
			break
		}
		if s, ok := g.scenes.Current().(*connectScene); ok && s.err != nil {
			t.Fatalf("could not connect: %v", s.err)
		}
		if time.Now().After(deadline) {
			t.Fatal("not in the game within 15 s")
		}
		frame()
	}
	for !g.quit {
		if time.Now().After(deadline.Add(10 * time.Second)) {
			t.Fatal("the script did not end the game")
		}
		frame()
	}
	// The Ended frame sets quit; the next Update closes the window.
	onFrame(func(*ebiten.Image) {
		if err := g.Update(); err != ebiten.Termination {
			t.Errorf("Update after the script ended: %v, want ebiten.Termination", err)
		}
	})

	mu.Lock()
	defer mu.Unlock()
	if !marked[2] {
		t.Fatalf("the script did not run its legs: %v", marked)
	}
	leg1X, leg1Y := marks[1][0]-marks[0][0], marks[1][1]-marks[0][1]
	leg2X, leg2Y := marks[2][0]-marks[1][0], marks[2][1]-marks[1][1]
	t.Logf("direction (%v, %v); leg 1 moved (%.1f, %.1f), leg 2 (%.1f, %.1f); shots %d, corrections %d",
		dirX, dirY, leg1X, leg1Y, leg2X, leg2Y, g.stats.shotsFired, c.View().Stats.Corrections)
	// At least 32 commands (0.5 s) at up to 280 units/s, after a 0.1 s
	// acceleration: more when the leg's last frame made several.
	if float64(dirX)*leg1X < 80 || math.Abs(leg1Y) > 8 {
		t.Errorf("leg 1 (x %+v) moved (%.1f, %.1f)", dirX, leg1X, leg1Y)
	}
	if float64(dirY)*leg2Y < 80 || math.Abs(leg2X) > 60 {
		t.Errorf("leg 2 (y %+v) moved (%.1f, %.1f)", dirY, leg2X, leg2Y)
	}
	if g.stats.shotsFired != 1 {
		t.Errorf("%d shots fired, want the one tap", g.stats.shotsFired)
	}
	// The server ran the same commands to the same place.
	for i := 0; i < 100 && c.View().AckCmd < c.View().CommandNumber; i++ {
		time.Sleep(10 * time.Millisecond)
		if err := c.Poll(); err != nil {
			t.Fatal(err)
		}
	}
	sv, pr := c.View().ServerState, c.View().Predicted
	if c.View().AckCmd != c.View().CommandNumber || sv.X != pr.X || sv.Y != pr.Y {
		t.Errorf("server state (%v, %v) at command %d, prediction (%v, %v) at %d", sv.X, sv.Y, c.View().AckCmd, pr.X, pr.Y, c.View().CommandNumber)
	}
	if c.View().Stats.Corrections != 0 {
		t.Errorf("%d prediction corrections", c.View().Stats.Corrections)
	}
}
