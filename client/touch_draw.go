//go:build !headless

package client

import (
	"image/color"
	"math"

	"tickshot/client/palette"
)

// The touch controls' look: light, mostly transparent, so the arena shows
// through them.
var (
	touchRim      = nrgba(color.NRGBA{0xff, 0xff, 0xff, 0x50})
	touchBase     = nrgba(color.NRGBA{0xff, 0xff, 0xff, 0x18})
	touchKnob     = nrgba(color.NRGBA{0xff, 0xff, 0xff, 0x60})
	touchFiring   = nrgba(color.NRGBA{0xff, 0x70, 0x50, 0x90})
	touchButtonBG = nrgba(color.NRGBA{0x10, 0x14, 0x1a, 0x70})
	touchButtonOn = nrgba(color.NRGBA{0xff, 0x9d, 0x3b, 0x90})
)

// draw draws the touch controls over the game once a finger has touched
// the screen: each stick where its finger holds it (base ring, knob at
// the finger within the rim, the aim stick's fire threshold as an inner
// ring), else faintly where the thumbs go; the buttons with captions. Over
// the pause screen (paused), only its RESUME and QUIT. What it draws is
// what the next frame's touches can tap (touchpad.paused).
func (t *touchpad) draw(v *frameView, paused bool) {
	t.paused = paused && t.on
	if !t.on {
		return
	}
	l := &t.layout
	if l.W != v.W || l.H != v.H {
		*l = layoutTouch(v.W, v.H)
	}
	b := &batch
	b.use(v.screen)
	if paused {
		t.drawButtons(v, l)
		return
	}
	r := float32(l.Radius)
	stick := func(s *touchStick, idleX, idleY float64, aim bool) {
		x, y := idleX, idleY
		kx, ky := x, y
		if s.held {
			x, y = s.baseX, s.baseY
			dx, dy := s.x-x, s.y-y
			if d := math.Hypot(dx, dy); d > l.Radius {
				dx, dy = dx/d*l.Radius, dy/d*l.Radius
			}
			kx, ky = x+dx, y+dy
		}
		b.disc(f32(x), f32(y), r, touchBase)
		b.ring(f32(x), f32(y), r, 3, touchRim)
		knob := touchKnob
		if aim {
			b.ring(f32(x), f32(y), r*touchFireAt, 1.5, touchRim)
			if t.firing {
				knob = touchFiring
			}
		}
		b.disc(f32(kx), f32(ky), r*0.4, knob)
	}
	stick(&t.move, l.MoveX, l.MoveY, false)
	stick(&t.aim, l.AimX, l.AimY, true)
	t.drawButtons(v, l)
}

// drawButtons draws the live buttons (touchButton.live) with captions.
func (t *touchpad) drawButtons(v *frameView, l *touchLayout) {
	b := &batch
	bw, bh := float32(l.ButtonW), float32(l.Button)
	for i, p := range l.Buttons {
		if !touchButton(i).live(t.paused) {
			continue
		}
		bg := touchButtonBG
		if t.buttons[i] || (touchButton(i) == touchScores && t.scores) {
			bg = touchButtonOn
		}
		b.rect(f32(p[0]), f32(p[1]), bw, bh, bg)
		b.strokeRect(f32(p[0]), f32(p[1]), bw, bh, 2, touchRim)
	}
	size := max(l.Button/4, 13)
	for i, p := range l.Buttons {
		if !touchButton(i).live(t.paused) {
			continue
		}
		drawText(v.screen, touchLabels[i], size, true, p[0]+l.ButtonW/2, p[1]+l.Button/2-size*0.6, 1, palette.Text)
	}
}
