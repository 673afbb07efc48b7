//go:build !headless

package client

import (
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// fade returns c with its opacity scaled by a (0..1).
func fade(c color.RGBA, a float64) color.RGBA {
	a = math.Max(0, math.Min(1, a))
	m := func(v uint8) uint8 { return uint8(float64(v)*a + 0.5) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), m(c.A)}
}

// camera returns the world position at the screen's top-left corner
// (game.Camera: the same view the server selects snapshots for).
func (g *Game) camera() (float64, float64) {
	if g.c == nil {
		return 0, 0
	}
	px, py := g.drawPos()
	return hudCamera(g.c.View().Map.Width, g.c.View().Map.Height, px, py, float64(g.w), float64(g.h)) // matchhud.go
}

func (g *Game) worldToScreen(x, y float64) (float64, float64) {
	cx, cy := g.camera()
	return x - cx, y - cy
}

// Draw implements ebiten.Game: the current scene, then the console over it.
func (g *Game) Draw(screen *ebiten.Image) {
	g.limitFrameRate()
	now := time.Now()
	if !g.lastFrame.IsZero() {
		if d := now.Sub(g.lastFrame).Seconds(); d > 0 {
			g.fps += (1/d - g.fps) * 0.05
		}
	}
	g.lastFrame = now
	g.stats.frames++
	defer g.bridge.frameDrawn()
	defer txt.endFrame()
	batch.use(screen)
	batch.flush()
	g.scenes.Draw(screen)
	g.rec.draw(screen) // demo_scene.go
	g.con.draw(screen, float64(g.w), float64(g.h))
	batch.flush()
	g.maybeScreenshot(screen)
}

// Draw implements Scene: the pieces of the frame, back to front (world.go).
func (p *playScene) Draw(screen *ebiten.Image) {
	g, c := p.g, p.c
	g.stats.playFrames++
	v := &p.frame
	v.set(screen, g, c, p.aim)
	if p.cam.on {
		p.drawKillCam(v) // killcam.go
		return
	}
	w := &v.worldView
	if g.cv.juice().shake {
		// Drawn only: the aim and the input read the camera unshaken.
		dx, dy := p.fx.shake()
		w.camX, w.camY = w.camX+dx, w.camY+dy
	}
	p.arena.draw(w)
	p.fx.drawWorld(w)
	drawPickups(w) // pickups.go
	p.players.drawProjectiles(w)
	p.fx.drawExplosions(w)
	// Spawn protection: the server's flag, until it has run this player's
	// newest shot (its word arrives a round trip later).
	protected := c.View().Server.Protected && p.fireCmd <= c.View().AckCmd
	p.players.draw(w, protected, p.fx.muzzle > 0)
	p.fx.drawOverlay(w)
	p.flash.draw(w)   // pickupfx.go
	c.MarkDrawn()     // the next frame's commands claim this render time
	p.bar.drawBars(v) // matchhud.go: the HUD's text stays off the arena
	p.bar.drawClock(v)
	p.hud.drawStatus(v, &p.fx, p.human, p.cursorX, p.cursorY)
	drawPickupHUD(v)            // pickups.go
	p.feed.draw(v, p.bar.score) // under the bar where it would overlap the score to beat
	p.hud.drawCentre(v, p, &p.fx)
	switch {
	case p.held&KeyScores != 0:
		p.scores.draw(v)
	case p.end.shown(c):
		p.end.draw(v) // endscreen.go: the intermission's statistics and map vote
	case p.fx.bannerLeft > 0 && p.fx.banner != "New match":
		p.scores.draw(v)
	}
	p.pause.draw(v, p.addr)
	tp := touchOf(g.input)
	if tp != nil {
		tp.draw(v, p.pause.open) // touch_draw.go: the sticks and buttons once touched; RESUME and QUIT when paused
	}
	p.hint.draw(v, p.human && (tp == nil || !tp.on), p.held&KeyHelp != 0) // the keys' hint: not for a touch screen
	g.chat.draw(v)
	g.stats.trouble.draw(v)
	g.netGraph.draw(v) // last: it flushes the batch to draw its text image over it
}

// ScreenshotOnExplosion and ScreenshotOnDeathCard are Options.ScreenshotOn's
// explosion and death card (deathcard.go).
const (
	ScreenshotOnExplosion = "explosion"
	ScreenshotOnDeathCard = "deathcard"
)

// DefaultScreenshotWait is Options.ScreenshotWait's default.
const DefaultScreenshotWait = 20 * time.Second

// maybeScreenshot saves the screen once, after ScreenshotAfter (tests).
// screenshotMinFrames is how many frames of play --screenshot waits for.
const screenshotMinFrames = 30

func (g *Game) maybeScreenshot(screen *ebiten.Image) {
	if g.opt.ScreenshotPath == "" || g.shotSaved || time.Since(g.started) < g.opt.ScreenshotAfter {
		return
	}
	// Wait for the game to be on screen for some frames, not only for the
	// time: on a starved machine the first frames come slowly, and a test
	// reading the screenshot wants the game as it is drawn in play.
	connecting := false
	switch s := g.scenes.Current().(type) {
	case *connectScene:
		connecting = s.err == nil
	case *playScene:
		connecting = g.stats.playFrames < screenshotMinFrames
	}
	if g.opt.ScreenshotOn == ScreenshotOnExplosion && !connecting {
		p, ok := g.scenes.Current().(*playScene)
		connecting = !ok || !p.fx.blastShown(&p.frame.worldView)
	}
	if g.opt.ScreenshotOn == ScreenshotOnDeathCard && !connecting {
		p, ok := g.scenes.Current().(*playScene)
		connecting = !ok || !p.card.shown
	}
	if g.opt.ScreenshotOn == ScreenshotOnEndScreen && !connecting {
		p, ok := g.scenes.Current().(*playScene)
		connecting = !ok || !p.end.voteShown(p.c) // endscreen.go
	}
	wait := g.opt.ScreenshotWait
	if wait == 0 {
		wait = DefaultScreenshotWait
	}
	if connecting && time.Since(g.started) < g.opt.ScreenshotAfter+wait {
		return
	}
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	f, err := os.Create(g.opt.ScreenshotPath)
	if err == nil {
		_ = png.Encode(f, img)
		_ = f.Close()
	}
	g.shotSaved = true
}
