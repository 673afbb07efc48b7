//go:build !headless

package client

import (
	"image"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// worldPane draws a whole map with the world's layers (world.go, and the
// effects' world part) into a rectangle of the screen: the lag lab's panes
// (lab_scene.go). It draws at world scale, one pixel a world unit, into an
// image of its own as large as the map, as the play screen draws, then
// scales that image to fit the rectangle (linear filtering, keeping the
// map's aspect, centred). toScreen maps world positions into the rectangle
// for what is drawn over it at screen scale (labels, overlays).
type worldPane struct {
	img     *ebiten.Image
	arena   arenaLayer
	players playersLayer
	// fx are the pane's own effects (impacts, tracers, explosions).
	fx effects
	// Where the last draw put the map: its top-left on the screen and
	// pixels per world unit.
	x0, y0, scale float64
	// drawn is the key of the world img holds (drawWorld), -1 none.
	drawn time.Duration
}

// fit works out where a map of mw×mh world units goes in rectangle r: its
// top-left and scale.
func (p *worldPane) fit(r image.Rectangle, mw, mh float64) {
	rw, rh := float64(r.Dx()), float64(r.Dy())
	p.scale = math.Min(rw/mw, rh/mh)
	p.x0 = float64(r.Min.X) + (rw-mw*p.scale)/2
	p.y0 = float64(r.Min.Y) + (rh-mh*p.scale)/2
}

// toScreen returns the screen position of world position x, y as the last
// draw placed the map, pixels.
func (p *worldPane) toScreen(x, y float64) (float64, float64) {
	return p.x0 + x*p.scale, p.y0 + y*p.scale
}

// toWorld is toScreen's inverse: the world position at screen position x,
// y (0, 0 before the first draw).
func (p *worldPane) toWorld(x, y float64) (float64, float64) {
	if p.scale == 0 {
		return 0, 0
	}
	return (x - p.x0) / p.scale, (y - p.y0) / p.scale
}

// draw draws the world that w shows (its view, local player, aim and
// switches; its screen, size and camera are the pane's) into r of screen.
// muzzle shows the local player's muzzle flash. key names what w shows (a
// lab Frame's time): the world is drawn again only when it changed, else
// the image drawn last is scaled into r again (a paused lab); a negative
// key draws always. It leaves the frame's batch on screen, empty.
func (p *worldPane) draw(screen *ebiten.Image, r image.Rectangle, w worldView, muzzle bool, key time.Duration) {
	m := w.view.Map
	if m == nil || m.Width < 1 || m.Height < 1 || r.Empty() {
		return
	}
	iw, ih := int(math.Ceil(m.Width)), int(math.Ceil(m.Height))
	if p.img == nil || p.img.Bounds().Dx() != iw || p.img.Bounds().Dy() != ih {
		if p.img != nil {
			p.img.Deallocate()
		}
		p.img = ebiten.NewImage(iw, ih)
		p.drawn = -1
	}
	if key < 0 || key != p.drawn {
		w.screen, w.W, w.H, w.camX, w.camY = p.img, float64(iw), float64(ih), 0, 0
		p.arena.draw(&w)
		p.fx.drawWorld(&w)
		p.players.drawProjectiles(&w)
		p.fx.drawExplosions(&w)
		p.players.draw(&w, false, muzzle)
		p.drawn = key
	}
	// What the batch holds for screen (the pane's background) goes first:
	// the image is drawn over it.
	batch.use(screen)
	batch.flush()
	p.fit(r, m.Width, m.Height)
	op := &ebiten.DrawImageOptions{Filter: ebiten.FilterLinear}
	op.GeoM.Scale(p.scale, p.scale)
	op.GeoM.Translate(p.x0, p.y0)
	screen.DrawImage(p.img, op)
}
