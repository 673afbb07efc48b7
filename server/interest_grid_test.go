package server

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
)

// TestInterestGridMatchesBruteForce: on thousands of random frames (the
// players, projectiles and pickups of a world of up to 200 players, many
// bunched, some on cell edges or past the map's edge) the snapshot's
// selection through the frames' grids (inView) holds exactly the players
// (but self), projectiles and pickups a loop over each whole frame puts
// inside a view, in the frame's order: players' views (ViewRect),
// spectators' (everywhere) and rectangles of any size.
func TestInterestGridMatchesBruteForce(t *testing.T) {
	maps := map[string]*game.Map{}
	for _, name := range []string{"arena", "sprawl", "plaza"} {
		m, err := game.LoadMap(name)
		if err != nil {
			t.Fatal(err)
		}
		maps[name] = m
	}
	names := []string{"arena", "sprawl", "plaza"}
	seen := 0
	for seed := uint64(0); seed < 3000; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		m := maps[names[r.IntN(len(names))]]
		w := game.NewWorld(m, DefaultTickRate, seed, game.Rules{})
		q := newEventQueue(DefaultTickRate)
		sw := newSnapshotWriter(w, &q, defaultVars().maxRate)
		coord := func(size float64) int32 {
			v := r.Float64() * size
			switch r.IntN(12) {
			case 0:
				v = float64(r.IntN(int(size/game.GridCell)+1)) * game.GridCell
			case 1:
				v = -r.Float64() * 300
			case 2:
				v = size + r.Float64()*300
			}
			return proto.ToFixed(v)
		}
		cx, cy := coord(m.Width), coord(m.Height)
		near := func(c int32) int32 { return c + proto.ToFixed(r.NormFloat64()*200) }
		for i := 0; i < r.IntN(200); i++ {
			x, y := coord(m.Width), coord(m.Height)
			if r.IntN(2) == 0 {
				x, y = near(cx), near(cy)
			}
			sw.frame = append(sw.frame, proto.EntityState{ID: uint16(1 + 2*i + r.IntN(2)), X: x, Y: y})
		}
		for i := 0; i < r.IntN(80); i++ {
			sw.projFrame = append(sw.projFrame, proto.ProjectileState{ID: uint16(i + 1), X: coord(m.Width), Y: coord(m.Height)})
		}
		for i := 0; i < r.IntN(game.MaxPickups); i++ {
			sw.pickFrame = append(sw.pickFrame, proto.PickupState{ID: uint16(i + 1), X: coord(m.Width), Y: coord(m.Height)})
		}
		sw.index()
		for v := 0; v < 6; v++ {
			var self uint16
			var view game.Rect
			switch {
			case v == 0:
				view = everywhere
			case v < 4 && len(sw.frame) > 0:
				e := sw.frame[r.IntN(len(sw.frame))]
				self, view = e.ID, game.ViewRect(m, proto.FromFixed(e.X), proto.FromFixed(e.Y))
			default:
				x, y := proto.FromFixed(coord(m.Width)), proto.FromFixed(coord(m.Height))
				view = game.Rect{MinX: x, MinY: y, MaxX: x + r.Float64()*3000 - 100, MaxY: y + r.Float64()*2000 - 100}
			}
			var got, want proto.Snapshot
			sw.inView(&got, view, self)
			in := func(x, y int32) bool { return view.Contains(proto.FromFixed(x), proto.FromFixed(y)) }
			for _, e := range sw.frame {
				if e.ID != self && in(e.X, e.Y) {
					want.Entities = append(want.Entities, e)
				}
			}
			for _, pr := range sw.projFrame {
				if in(pr.X, pr.Y) {
					want.Projectiles = append(want.Projectiles, pr)
				}
			}
			for _, pk := range sw.pickFrame {
				if in(pk.X, pk.Y) {
					want.Pickups = append(want.Pickups, pk)
				}
			}
			if !slices.Equal(got.Entities, want.Entities) || !slices.Equal(got.Projectiles, want.Projectiles) || !slices.Equal(got.Pickups, want.Pickups) {
				t.Fatalf("seed %d, view %+v: grid selected\n%s\nthe whole frames\n%s", seed, view,
					fmt.Sprint(got.Entities, got.Projectiles, got.Pickups), fmt.Sprint(want.Entities, want.Projectiles, want.Pickups))
			}
			seen += len(want.Entities) + len(want.Projectiles) + len(want.Pickups)
		}
	}
	if seen < 100000 {
		t.Fatalf("only %d entities in views: the frames test too little", seen)
	}
}

// TestScoreboardSessionsByID: the scoreboard finds each row's session
// (ping, colour) by ID as sessionOf does, whatever the sessions' order.
func TestScoreboardSessionsByID(t *testing.T) {
	var ix frameIndex
	for seed := uint64(0); seed < 500; seed++ {
		r := rand.New(rand.NewPCG(seed, 6))
		var sessions []*session
		for i := 0; i < r.IntN(100); i++ {
			sessions = append(sessions, testSession(&game.Player{ID: uint16(1 + r.IntN(300))}, 0))
		}
		ix.sortSessions(sessions)
		for id := uint16(0); id < 302; id++ {
			if got, want := ix.session(id), sessionOf(sessions, id); got != want {
				t.Fatalf("seed %d: session(%d) = %p, sessionOf %p", seed, id, got, want)
			}
		}
	}
}
