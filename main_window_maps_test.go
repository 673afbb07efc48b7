//go:build !headless && !js

package main

import (
	"image/color"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"tickshot/client"
	"tickshot/client/palette"
	"tickshot/game"
)

// TestWindowShowsEachMap starts `tickshot play` on each map of the default
// cycle and the big arena, expanse, at 1280x720 and reads its screenshot: the art is drawn, not a
// blank or single-colour frame. Each must show many colours; the map's
// floor (its plain floor's or one of its areas' colours, client.FloorColours)
// over a fifth of the screen, with texture (grain: a tenth of it near
// those colours but not them; and relief: the tiles' lit bevels, a quarter
// lighter, or the seams between slabs, stones, planks and tiles, about a
// quarter darker); walls, with their lit top edges;
// and the local player. TICKSHOT_KEEP_SHOTS=DIR keeps the pictures.
func TestWindowShowsEachMap(t *testing.T) {
	for _, name := range append(game.DefaultMapCycle(), "expanse") {
		t.Run(name, func(t *testing.T) {
			m, err := game.LoadMap(name)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if keep := os.Getenv("TICKSHOT_KEEP_SHOTS"); keep != "" {
				dir = keep
			}
			shot, rep := filepath.Join(dir, "map-"+name+".png"), filepath.Join(dir, "report-"+name+".json")
			// No bots: a bot's hit flashes the screen red (TestWindowShowsArena).
			out, err := runWithTimeout(exec.Command(binPath, "play", "--nosound", "--map", name, "--bots", "0", "--screenshot", shot,
				"--screenshot-after", "3s", "--exit-report", rep, "--width", "1280", "--height", "720"), 60*time.Second)
			if err != nil {
				t.Fatalf("tickshot play --map %s: %v\n%s", name, err, out)
			}
			r := readReport(t, rep)
			if !r.Connected || r.Snapshots == 0 {
				t.Fatalf("client did not play: %+v", r)
			}
			img := readPNG(t, shot)
			if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 720 {
				t.Fatalf("screenshot is %v, want 1280x720", b)
			}
			floors := client.FloorColours(m)
			// The texture's grey over artBase (204) scales the tint: a lit
			// bevel is 255 (a quarter lighter); a seam is 140-165 (the
			// slabs' dark edges 160, paving and planks' joints 150 and
			// 140, the tiles' grout 165).
			scaled := func(num int) []color.RGBA {
				cs := make([]color.RGBA, len(floors))
				for i, c := range floors {
					cs[i] = color.RGBA{uint8(min(255, int(c.R)*num/204)), uint8(min(255, int(c.G)*num/204)), uint8(min(255, int(c.B)*num/204)), 0xff}
				}
				return cs
			}
			bevels := scaled(255)
			seams := slices.Concat(scaled(140), scaled(150), scaled(160), scaled(165))
			nearAny := func(r, g, b uint32, cs []color.RGBA) bool {
				for _, c := range cs {
					if near(r, g, b, uint32(c.R), uint32(c.G), uint32(c.B)) {
						return true
					}
				}
				return false
			}
			colours := map[uint32]int{}
			flat := map[uint32]bool{}
			for _, c := range floors {
				flat[uint32(c.R)<<16|uint32(c.G)<<8|uint32(c.B)] = true
			}
			var floor, grain, bevel, seam, wall, edge, me, total int
			for y := 0; y < 720; y++ {
				for x := 0; x < 1280; x++ {
					r, g, b, _ := img.At(x, y).RGBA()
					r, g, b = r>>8, g>>8, b>>8
					colours[r<<16|g<<8|b]++
					total++
					switch {
					case nearAny(r, g, b, floors):
						floor++
						if !flat[r<<16|g<<8|b] {
							grain++ // the texture's noise: near the floor's colour, not it
						}
					case nearAny(r, g, b, bevels):
						bevel++
					case nearAny(r, g, b, seams):
						seam++
					case near(r, g, b, uint32(palette.Wall.R), uint32(palette.Wall.G), uint32(palette.Wall.B)):
						wall++
					case near(r, g, b, uint32(palette.WallEdge.R), uint32(palette.WallEdge.G), uint32(palette.WallEdge.B)):
						edge++
					case near(r, g, b, uint32(palette.Me.R), uint32(palette.Me.G), uint32(palette.Me.B)):
						me++
					}
				}
			}
			t.Logf("%s: colours %d, floor %d (grain %d), floor bevels %d, seams %d, wall %d, wall edges %d, local player %d of %d pixels",
				name, len(colours), floor, grain, bevel, seam, wall, edge, me, total)
			if len(colours) < 100 {
				t.Errorf("only %d distinct colours: blank or flat frame?", len(colours))
			}
			if floor < total/5 {
				t.Errorf("floor covers %d of %d pixels: the floor is not drawn", floor, total)
			}
			// A flat floor with a grid line every 64 units (the look before
			// issue 21) is its colour exactly but for the edges of what
			// stands on it: 1091 of 817301 pixels on the arena. A screen
			// of expanse's paved hall has few lit bevels (1763 in one CI
			// run) but the stones' joints. Relief alone does not prove a
			// texture (a wall's shadow darkens the floor about as much as
			// a seam, spawn pads light it): the grain does, a flat floor
			// has almost none (about 2 000 of 578 000 pixels).
			if bevel+seam < 2000 || grain < floor/10 {
				t.Errorf("%d pixels of the floor tiles' lit bevels and %d of their seams, %d of %d floor pixels off its flat colours: the floor has no texture", bevel, seam, grain, floor)
			}
			if wall < 800 || edge < 100 {
				t.Errorf("walls: %d pixels of top face, %d of lit edge: walls not drawn", wall, edge)
			}
			if me < 200 && r.Health > 0 {
				t.Errorf("local player (alive, %d HP) covers %d pixels: not drawn", r.Health, me)
			}
		})
	}
}
