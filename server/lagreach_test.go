package server

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/shared"
)

// assertLoopPasses fails the test unless boxes are, in order, the players
// a loop over every player passes for rc (reach.mayHit): what the
// candidate set replaced.
func assertLoopPasses(t *testing.T, s *Server, ss *session, rc *reach, boxes []game.Hitbox, what string) {
	t.Helper()
	var loop []uint16
	for _, o := range s.w.Players {
		if rc.mayHit(&s.rewinder, ss, o) {
			loop = append(loop, o.ID)
		}
	}
	if len(loop) != len(boxes) {
		t.Fatalf("%s: %d boxes rewound, the loop over every player passes %d", what, len(boxes), len(loop))
	}
	for i := range loop {
		if boxes[i].ID != loop[i] {
			t.Fatalf("%s: box %d is player %d, the loop's %d", what, i, boxes[i].ID, loop[i])
		}
	}
}

// TestLagCandidatesHoldEveryHittable: on bot matches (respawns, dashes,
// fights across sprawl, players that jump, a client whose snapshots stop
// for a while), for shots rewound anywhere in sv_maxunlag, every
// player whose box rewound with nobody left out could be struck by a
// hitscan shot of the shooter (alive, centre within the longest range and
// a body of the muzzle) is among the shot's candidates, rewound to the same
// box, and the candidates are those boxes in the same order; players are
// left out, so the bound is tested. The players rewound are exactly those
// the test (reach.mayHit) passes in a loop over every player, the loop the
// candidate set (rewinder.candidates: the grid, the client's snapshot, the
// irregular records) replaced. For a shot of a random hitscan weapon
// (rifle or shotgun pellets) aimed anywhere, every box any of its rays
// touches when every player is rewound is among the boxes rewound for
// that shot, the same, and every ray strikes the same player at the same
// point; more players are left out than with the disk alone, and the
// candidates of the rays' corridor are exactly the players the loop over
// every player passes for that shot.
func TestLagCandidatesHoldEveryHittable(t *testing.T) {
	seeds, shots := uint64(12), 160
	if testing.Short() {
		seeds = 3
	}
	left, hittable, leftAlong, struck := 0, 0, 0, 0
	for seed := uint64(1); seed <= seeds; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		s := lcServer(t, Config{Bots: 40 + r.IntN(60), MaxPlayers: 128, Seed: seed, Map: "sprawl"})
		ss := lcSession(s.w.Players[0], 100)
		now := time.Unix(1000, 0)
		lcRun(s, &now, 2*s.cfg.TickRate, ss, 2+r.IntN(3))
		for k := 0; k < shots; k++ {
			if k%16 == 0 {
				// Now and then a player jumps (a burst of commands moves
				// it more than a tick's walk: its record is irregular),
				// and now and then the client's snapshots stop (what it
				// drew goes stale while the players move on).
				if r.IntN(2) == 0 {
					a, b := s.w.Players[1+r.IntN(len(s.w.Players)-1)], s.w.Players[r.IntN(len(s.w.Players))]
					a.State.X, a.State.Y = b.State.X, b.State.Y
				}
				fed := ss
				if r.IntN(3) == 0 {
					fed = nil
				}
				lcRun(s, &now, 1+r.IntN(s.cfg.TickRate/2), fed, 3)
			}
			// A render tick anywhere from the present to past sv_maxunlag,
			// claimed exactly (no RTT estimate to refuse it): with sv_cheats
			// no link bound.
			back := r.Float64() * 0.6 * float64(s.cfg.TickRate)
			rt := float64(s.w.Tick) - back
			ss.acks.rttMs = (back/float64(s.cfg.TickRate))*1000 - 100
			cmd := shared.UserCmd{TickCount: uint32(math.Floor(rt + 6.4)), TickFrac: uint8(r.IntN(256)), LerpMsec: 100}
			got, info := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
			got = append([]game.Hitbox(nil), got...)
			rc := s.rewinder.shotReach(ss, info.Used, nil)
			assertLoopPasses(t, s, ss, &rc, got, fmt.Sprintf("seed %d shot %d", seed, k))
			// A shot of a random hitscan weapon aimed anywhere or (mostly)
			// near another player: only the players near its rays are
			// rewound.
			wi := hitscanWeapons[r.IntN(len(hitscanWeapons))]
			aim := r.Float64() * 2 * math.Pi
			if o := s.w.Players[r.IntN(len(s.w.Players))]; r.IntN(4) > 0 && o != ss.player {
				aim = math.Atan2(o.State.Y-ss.player.State.Y, o.State.X-ss.player.State.X) + (r.Float64()-0.5)*0.1
			}
			shot := shared.ShotFromFirstRay(wi, ss.player.State.X, ss.player.State.Y, aim, uint32(k))
			along, alongInfo := s.rewinder.rewoundHitboxes(ss, &cmd, &shot)
			along = append([]game.Hitbox(nil), along...)
			// The corridor's candidates (reach.corridor) are every player
			// the loop passes for this shot, in order.
			rcShot := s.rewinder.shotReach(ss, alongInfo.Used, &shot)
			assertLoopPasses(t, s, ss, &rcShot, along, fmt.Sprintf("seed %d shot %d along its rays", seed, k))
			s.rewinder.judged = new([]JudgedShot) // nobody left out
			want, _ := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
			s.rewinder.judged = nil
			leftAlong += alongInfo.OutOfReach - info.OutOfReach
			struck += assertSameHits(t, s.w.Map, &shot, along, want, ss.player.ID)
			left += info.OutOfReach
			p := ss.player
			j := 0
			for _, b := range want {
				if j < len(got) && got[j] == b {
					j++
					continue
				}
				if b.ID == p.ID {
					t.Fatalf("seed %d: the shooter was left out", seed)
				}
				d := math.Hypot(b.X-p.State.X, b.Y-p.State.Y)
				if b.Alive && d <= maxHitscanRange+shared.PlayerRadius {
					t.Fatalf("seed %d shot %d (rewound %.2f ticks): player %d rewound %.1f from the shooter was left out (info %+v)",
						seed, k, float64(s.w.Tick)-info.Used, b.ID, d, info)
				}
			}
			if j != len(got) {
				t.Fatalf("seed %d shot %d: candidates %v are not the full rewind's boxes %v in order", seed, k, got, want)
			}
			for _, b := range want {
				if b.Alive && b.ID != p.ID && math.Hypot(b.X-p.State.X, b.Y-p.State.Y) <= maxHitscanRange+shared.PlayerRadius {
					hittable++
				}
			}
		}
	}
	if left == 0 || hittable == 0 || leftAlong <= 0 || struck == 0 {
		t.Fatalf("%d players left out, %d hittable, %d more left out along shots, %d struck: the matches test nothing", left, hittable, leftAlong, struck)
	}
	t.Logf("%d players left out of shots, %d hittable boxes checked; %d more left out along the shots' rays, %d rays struck a box", left, hittable, leftAlong, struck)
}

// hitscanWeapons are the indices in shared.Weapons of the hitscan weapons.
var hitscanWeapons = func() (ws []uint8) {
	for i := range shared.Weapons {
		if shared.Weapons[i].Kind == shared.Hitscan {
			ws = append(ws, uint8(i))
		}
	}
	return ws
}()

// assertSameHits fails t unless every box of want (every player rewound)
// that one of shot's rays touches (within its radius of the ray's
// segment) is in got, the same, and each ray traced against got strikes
// the same player at the same point as against want. It returns how many
// rays struck a box.
func assertSameHits(t *testing.T, m *game.Map, shot *shared.Shot, got, want []game.Hitbox, skip uint16) (struck int) {
	t.Helper()
	in := make(map[uint16]game.Hitbox, len(got))
	for _, b := range got {
		in[b.ID] = b
	}
	rng := shared.Weapons[shot.Weapon].Range
	for i := range shot.NumRays() {
		ry := shot.Ray(i)
		for _, b := range want {
			u := math.Min(math.Max((b.X-shot.X)*ry.DirX+(b.Y-shot.Y)*ry.DirY, 0), rng)
			if math.Hypot(b.X-(shot.X+u*ry.DirX), b.Y-(shot.Y+u*ry.DirY)) <= b.R {
				if g, ok := in[b.ID]; !ok || g != b {
					t.Fatalf("ray %d of %+v touches box %+v, not among the shot's boxes (%+v, %v)", i, shot, b, g, ok)
				}
			}
		}
		tg := game.TraceShot(m, shot.X, shot.Y, ry.DirX, ry.DirY, rng, got, skip)
		tw := game.TraceShot(m, shot.X, shot.Y, ry.DirX, ry.DirY, rng, want, skip)
		idG, idW := -1, -1
		if tg.Hit >= 0 {
			idG = int(got[tg.Hit].ID)
		}
		if tw.Hit >= 0 {
			idW = int(want[tw.Hit].ID)
			struck++
		}
		if idG != idW || tg.EndX != tw.EndX || tg.EndY != tw.EndY {
			t.Fatalf("ray %d of %+v: hit %d at (%v, %v) among the shot's boxes, %d at (%v, %v) among all", i, shot, idG, tg.EndX, tg.EndY, idW, tw.EndX, tw.EndY)
		}
	}
	return struck
}
