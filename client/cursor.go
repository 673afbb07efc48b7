//go:build !headless

package client

import "github.com/hajimehoshi/ebiten/v2"

// crosshair is where the player aims on screen, pixels. At sensitivity 1
// it is the mouse pointer itself, as it always was. At any other value the
// pointer is captured (hidden, unbounded) and the crosshair moves by its
// motion times sensitivity, kept inside the window: Teeworlds' virtual
// cursor (inp_mousesens), the way a top-down game with a pointer can have
// Source's `sensitivity`.
type crosshair struct {
	x, y         float64
	lastX, lastY int
	captured     bool
}

// release gives the pointer back (leaving the game: the menu needs it).
func (c *crosshair) release() {
	if c.captured {
		ebiten.SetCursorMode(ebiten.CursorModeVisible)
		c.captured = false
	}
}

// update moves the crosshair by this frame's mouse motion and returns it
// (g nil: the pointer, as at sensitivity 1).
func (c *crosshair) update(g *Game) (float64, float64) {
	mx, my := ebiten.CursorPosition()
	sens := 1.0
	if g != nil {
		sens = g.cv.sensitivity.Get()
	}
	if sens == 1 {
		if c.captured {
			ebiten.SetCursorMode(ebiten.CursorModeVisible)
			c.captured = false
		}
		c.x, c.y = float64(mx), float64(my)
		return c.x, c.y
	}
	if !c.captured {
		ebiten.SetCursorMode(ebiten.CursorModeCaptured)
		c.captured = true
	} else {
		c.x += float64(mx-c.lastX) * sens
		c.y += float64(my-c.lastY) * sens
	}
	c.lastX, c.lastY = mx, my
	c.x = min(max(c.x, 0), float64(g.w-1))
	c.y = min(max(c.y, 0), float64(g.h-1))
	return c.x, c.y
}
