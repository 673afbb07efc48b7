package lab

import (
	"math"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/server"
	"tickshot/shared"
)

// seatPair is the lab's two seats, P1 and P2.
type seatPair [2]*seat

// of returns the seat of player id, -1 for none.
func (p seatPair) of(id uint16) int {
	for i, s := range p {
		if s.c != nil && s.id() == id {
			return i
		}
	}
	return -1
}

// judgements is what the lab keeps of the server's judging, oldest first:
// every shot seen from the three seats, and the kills and hits.
type judgements struct {
	shots  []Shot
	events []Event
}

// take turns the shots srv judged this tick into Shots, with what the
// shooter drew and where the victim stood on its own screen, and the kills
// and hits into Events, at lab time now.
func (j *judgements) take(srv *server.Local, seats seatPair, now time.Duration) {
	for _, js := range srv.TakeShots() {
		j.shots = append(j.shots, j.shotOf(js, seats, now))
	}
	for _, e := range srv.TakeEvents() {
		ev := Event{At: now, Tick: e.Tick, Kind: "hit", By: seats.of(e.A), To: seats.of(e.B)}
		if e.Kind == game.EvKill {
			ev.Kind = "kill"
		}
		j.events = append(j.events, ev)
	}
}

// shotOf is judged shot js seen from the three seats.
func (j *judgements) shotOf(js server.JudgedShot, seats seatPair, now time.Duration) Shot {
	sh := Shot{N: len(j.shots) + 1, Shooter: seats.of(js.Shooter), Cmd: js.Cmd, Tick: js.Tick, At: now,
		Victim: -1, FromX: js.FromX, FromY: js.FromY, EndX: js.EndX, EndY: js.EndY, RewindMs: js.RewindMs, Hit: js.Hit != 0}
	switch {
	case js.Refused:
		sh.Verdict = VerdictRefused
	case js.Clamped:
		sh.Verdict = VerdictClamped
	case js.Hit != 0:
		sh.Verdict = VerdictHit
	default:
		sh.Verdict = VerdictMiss
	}
	if js.Refused && js.Hit != 0 || js.Clamped && js.Hit != 0 {
		sh.Verdict += " (hit)"
	}
	// The target: the player hit, else the other seat's.
	target := js.Hit
	if target == 0 && sh.Shooter >= 0 {
		if o := seats[1-sh.Shooter]; o.c != nil {
			target = o.id()
		}
	}
	sh.TargetID, sh.Victim = target, seats.of(target)
	for _, b := range js.Boxes {
		if b.ID == target {
			sh.RewoundX, sh.RewoundY, sh.PresentX, sh.PresentY = b.X, b.Y, b.PresentX, b.PresentY
		}
	}
	sh.ToX, sh.ToY = js.EndX, js.EndY
	if sh.Shooter >= 0 {
		c := seats[sh.Shooter].c
		if sv, ok := c.Shots().Of(js.Cmd); ok {
			for _, e := range sv.Others {
				if e.ID == target {
					sh.SawX, sh.SawY, sh.SawOK = e.X, e.Y, true
				}
			}
			// The tracer as the shooter's screen had it: traced against
			// the others where it drew them.
			boxes := drawnHitboxes(sv.Others)
			dx, dy := js.EndX-js.FromX, js.EndY-js.FromY
			if d := math.Hypot(dx, dy); d > 0 {
				tr := game.TraceShot(c.View().Map, js.FromX, js.FromY, dx/d, dy/d, shared.Weapons[js.Weapon].Range, boxes, js.Shooter)
				sh.ToX, sh.ToY = tr.EndX, tr.EndY
			}
		}
		if sh.SawOK && js.Unlagged {
			sh.RewindErr = math.Hypot(sh.SawX-sh.RewoundX, sh.SawY-sh.RewoundY)
		}
	}
	if sh.Victim >= 0 {
		vc := seats[sh.Victim].c
		v := vc.View()
		sh.VictimX, sh.VictimY = v.LocalPos()
		if e, ok := rendered(v, js.Shooter); ok {
			sh.VictimSawShooterX, sh.VictimSawShooterY, sh.VictimSawOK = e.X, e.Y, true
		}
	}
	return sh
}

// drawnHitboxes are the hitboxes of players es where a client drew them
// (a shooter's screen, a bot's eyes).
func drawnHitboxes(es []netclient.RenderedEntity) []game.Hitbox {
	boxes := make([]game.Hitbox, 0, len(es))
	for _, e := range es {
		boxes = append(boxes, game.NewHitbox(e.ID, e.X, e.Y, e.Alive, game.TeamNone))
	}
	return boxes
}
