//go:build !headless

package client

import (
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// frameLimiter spaces frames at least 1/fps_max apart (Source's fps_max).
type frameLimiter struct {
	next time.Time // when the next frame may start
}

// wait returns how long to wait at now before drawing a frame at fpsMax
// frames a second (0: no limit), and schedules the frame after. Frames are
// scheduled on a fixed grid, so that waiting does not add each frame's
// lateness to the period; a frame later than a whole period restarts the
// grid rather than allowing a burst to catch up.
func (l *frameLimiter) wait(now time.Time, fpsMax float64) time.Duration {
	if fpsMax <= 0 {
		l.next = time.Time{}
		return 0
	}
	period := time.Duration(float64(time.Second) / fpsMax)
	if l.next.IsZero() || now.Sub(l.next) > period {
		l.next = now.Add(period)
		return 0
	}
	d := max(l.next.Sub(now), 0)
	l.next = l.next.Add(period)
	return d
}

// limitFrameRate sleeps, at the start of Draw, as long as fps_max asks.
func (g *Game) limitFrameRate() {
	if d := g.limiter.wait(time.Now(), g.cv.fpsMax.Get()); d > 0 {
		time.Sleep(d)
	}
}

// applyVsync sets mat_vsync: whether frames wait for the display's refresh.
func (g *Game) applyVsync() {
	ebiten.SetVsyncEnabled(g.cv.vsync.Get())
}
