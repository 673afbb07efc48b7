//go:build !headless

package client

import (
	"fmt"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/palette"
)

// benchPlayers are the player counts the draw benchmarks compare: the
// local player alone (the empty arena), 16 and 64 in view.
var benchPlayers = []int{1, 16, 64}

// BenchmarkDraw reports ms per frame of the game's Draw (world, players,
// name plates, HUD, and net_graph 0 or 3) drawn in a real 1280×720 window
// of the test loop, vsync off, with 1, 16 and 64 players in view: a frame
// is timed from the start of its Draw to the next one's, so that it counts
// the rasteriser's work and the presenting. Run it under Xvfb:
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test ./client -run '^$' -bench 'Draw$' -benchtime 100x
func BenchmarkDraw(b *testing.B) {
	for _, ng := range []int{0, 3} {
		for _, n := range benchPlayers {
			b.Run(fmt.Sprintf("players=%d/net_graph=%d", n, ng), func(b *testing.B) {
				g := newDrawGame(newFakeClient(b, fakeWorld{others: n - 1}), testScreenW, testScreenH, ng)
				onFrames(5, func(_ int, s *ebiten.Image) { g.Draw(s) }) // caches filled, as after the first frames of play
				b.ResetTimer()
				var total time.Duration
				for _, t := range onFrames(b.N, func(_ int, s *ebiten.Image) { g.Draw(s) }) {
					total += t
				}
				b.ReportMetric(total.Seconds()*1000/float64(b.N), "ms/frame")
			})
		}
	}
}

// BenchmarkDrawSideBySide draws in turn the empty arena (the local player
// alone, net_graph 0), a plain frame (one fill: the least a frame costs,
// presenting included), 16 players, 64 players with net_graph 3, and
// those 64 with the effects of a shot, two hits, a kill and an explosion
// beside the local player (juiceAround, given again at each block's
// start; Draw does not age them), in blocks of sideBlock frames, so that all share the
// machine's speed of the moment; it reports each one's ms per frame and
// the ratios to the empty arena. A block's first sideSkip frames are not
// counted: the driver finishes a frame while the next one is drawn, so
// they carry the previous scene's cost. Issue 13's budget: 16 players
// keep 80 % of the empty arena's fps (ratio-16 at most 1.25) and 64
// players with net_graph 3 cost at most 1.5 times its frame time
// (ratio-64-ng3 at most 1.5); issue 21 holds the effects to the same
// (ratio-64-fx at most 1.5).
//
//	xvfb-run -a -s "-screen 0 1280x720x24" go test ./client -run '^$' -bench SideBySide -benchtime 200x
func BenchmarkDrawSideBySide(b *testing.B) {
	const sideBlock, sideSkip = 8, 2
	scenes := []struct {
		name string
		g    *Game
	}{
		{"1", newDrawGame(newFakeClient(b, fakeWorld{}), testScreenW, testScreenH, 0)},
		{"fill", nil},
		{"16", newDrawGame(newFakeClient(b, fakeWorld{others: 15}), testScreenW, testScreenH, 0)},
		{"64-ng3", newDrawGame(newFakeClient(b, fakeWorld{others: 63}), testScreenW, testScreenH, 3)},
		{"64-fx", newDrawGame(newFakeClient(b, fakeWorld{others: 63}), testScreenW, testScreenH, 3)},
	}
	juicy := scenes[4].g.scenes.Current().(*playScene)
	k := len(scenes)
	scene := func(i int) int { return i / sideBlock % k }
	draw := func(i int, s *ebiten.Image) {
		if scene(i) == 4 && i%sideBlock == 0 {
			juicy.fx = effects{}
			juiceAround(juicy)
		}
		if g := scenes[scene(i)].g; g != nil {
			g.Draw(s)
		} else {
			s.Fill(palette.BG)
		}
	}
	onFrames(sideBlock*k, draw) // caches filled
	b.ResetTimer()
	blocks := (b.N + sideBlock - sideSkip - 1) / (sideBlock - sideSkip)
	times := onFrames(blocks*sideBlock*k, draw)
	ms := make([]float64, k)
	n := make([]int, k)
	for i, t := range times {
		if i%sideBlock >= sideSkip {
			ms[scene(i)] += t.Seconds() * 1000
			n[scene(i)]++
		}
	}
	for i, s := range scenes {
		ms[i] /= float64(n[i])
		b.ReportMetric(ms[i], "ms/frame-"+s.name)
	}
	b.ReportMetric(ms[2]/ms[0], "ratio-16")
	b.ReportMetric(ms[3]/ms[0], "ratio-64-ng3")
	b.ReportMetric(ms[4]/ms[0], "ratio-64-fx")
	b.ReportMetric(0, "ns/op")
}
