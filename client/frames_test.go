//go:build !headless

package client

import (
	"testing"
	"time"
)

// TestFrameLimiter runs frames on a fake clock: with fps_max N a second
// holds N frames whatever a frame costs below 1/N, none are held back when
// frames are slower than that or fps_max is 0, and a long stall does not
// let a burst of frames through after it.
func TestFrameLimiter(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// frames counts the frames that start within span when each costs
	// cost to draw, at fpsMax.
	frames := func(fpsMax float64, cost, span time.Duration) int {
		var l frameLimiter
		now, n := start, 0
		for {
			now = now.Add(l.wait(now, fpsMax))
			if now.Sub(start) >= span {
				return n
			}
			n++
			now = now.Add(cost)
		}
	}
	for _, c := range []struct {
		fpsMax float64
		cost   time.Duration
		want   int
	}{
		{30, time.Millisecond, 30},
		{30, 20 * time.Millisecond, 30},
		{144, 3 * time.Millisecond, 144},
		{5, 0, 5},
		{30, 50 * time.Millisecond, 20}, // slower than the limit: not slowed further
		{0, 10 * time.Millisecond, 100}, // no limit
	} {
		if got := frames(c.fpsMax, c.cost, time.Second); got < c.want-1 || got > c.want+1 {
			t.Errorf("fps_max %v, %v a frame: %d frames in a second, want %d", c.fpsMax, c.cost, got, c.want)
		}
	}
	// After a stall of a second, frames are spaced again at once.
	var l frameLimiter
	now := start
	l.wait(now, 30)
	now = now.Add(time.Second)
	if d := l.wait(now, 30); d != 0 {
		t.Errorf("first frame after a stall waits %v", d)
	}
	if d := l.wait(now.Add(time.Millisecond), 30); d < 30*time.Millisecond {
		t.Errorf("second frame after a stall waits %v, want about 1/30 s: no catching up", d)
	}
}
