//go:build !headless

package client

import (
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestDrawCostIndependentOfPlayers checks the draw path's structure with
// 1 and 64 players in view, net_graph 3: the shapes go out in a fixed
// number of DrawTriangles calls, text is laid out only the first time it
// is drawn (name plates and HUD come from the text cache), and a frame
// allocates about as much with 64 players as with one (no per-player
// allocations).
func TestDrawCostIndependentOfPlayers(t *testing.T) {
	type result struct {
		calls   int
		misses  int
		allocs  float64
		players int
	}
	measure := func(others int) result {
		g := newDrawGame(newFakeClient(t, fakeWorld{others: others}), testScreenW, testScreenH, 3)
		// Drawing reads a frozen now: on a loaded machine the measured
		// frames can take longer than the fake server's last snapshot is
		// fresh, and the connection warning or a new fps figure laid out
		// mid-measurement would count as per-frame allocations.
		frozen := time.Now()
		g.clock = func() time.Time { return frozen }
		var r result
		onFrame(func(*ebiten.Image) {
			// Start from an atlas empty of text: what earlier tests left in
			// it (TestTextFromAtlas fills it on purpose) could make it
			// overflow during the measured frames, and laying every name out
			// again would count as per-player allocations.
			dropText(atlasImage())
			dst := ebiten.NewImage(testScreenW, testScreenH)
			defer dst.Deallocate()
			g.Draw(dst) // the first frame lays the text out
			calls, misses := batch.calls, txt.misses
			g.Draw(dst)
			r.calls, r.misses = batch.calls-calls, txt.misses-misses
			r.allocs = testing.AllocsPerRun(20, func() { g.Draw(dst) })
		})
		r.players = len(g.c.View().Rendered) + 1
		return r
	}
	one, many := measure(0), measure(63)
	t.Logf("1 player: %+v; 64 players: %+v", one, many)
	if many.players != 64 {
		t.Fatalf("%d players in view, want 64", many.players)
	}
	if many.calls > 6 || many.calls != one.calls {
		t.Errorf("a frame issues %d batch DrawTriangles calls with 64 players, %d with one: want the same few", many.calls, one.calls)
	}
	if many.misses > 1 {
		t.Errorf("the second frame laid out %d strings with 64 players: want name plates and HUD from the cache", many.misses)
	}
	if many.allocs > one.allocs+8 {
		t.Errorf("a frame allocates %.0f times with 64 players, %.0f with one: something allocates per player", many.allocs, one.allocs)
	}
}
