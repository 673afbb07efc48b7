package server

import (
	"math"
	"math/rand/v2"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
)

// BenchmarkEventPick is one client's event selection (eventQueue.pick)
// in a world the size of expanse (16 384 × 12 288 units) with 64 or 1 024
// players, each firing about 3 shots a second (a shot, and a hit one time
// in three) and 1 in 20 of them killing (a kill goes to everyone), the
// clients acknowledging every snapshot 3 ticks late: ns/op is a snapshot's
// pick, the queue as it stands at 64 ticks/s after two seconds.
func BenchmarkEventPick(b *testing.B) {
	for _, players := range []int{64, 1024} {
		b.Run(map[int]string{64: "players=64", 1024: "players=1024"}[players], func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			w, h := 16384.0, 12288.0
			if players == 64 {
				w, h = 4096, 3072 // arena: the same density
			}
			pos := make([][2]float64, players)
			for i := range pos {
				pos[i] = [2]float64{rng.Float64() * w, rng.Float64() * h}
			}
			q := newEventQueue(DefaultTickRate)
			sessions := make([]*session, players)
			for i := range sessions {
				sessions[i] = eqSession(uint16(i + 1))
			}
			tick := uint32(0)
			step := func() {
				tick++
				for i := range players {
					if rng.IntN(21) != 0 { // some 3 shots a second
						continue
					}
					x, y := pos[i][0], pos[i][1]
					a := rng.Float64() * 6.28
					x2, y2 := x+800*math.Cos(a), y+800*math.Sin(a)
					q.add(proto.Event{Kind: proto.EvShot, A: uint16(i + 1), X: proto.ToFixed(x), Y: proto.ToFixed(y),
						X2: proto.ToFixed(x2), Y2: proto.ToFixed(y2)}, 0, tick, nil)
					if rng.IntN(3) == 0 {
						q.add(proto.Event{Kind: proto.EvHit, A: uint16(i + 1), B: uint16(rng.IntN(players) + 1), Value: 20,
							X2: proto.ToFixed(x2), Y2: proto.ToFixed(y2)}, 0, tick, nil)
					}
					if rng.IntN(20) == 0 {
						q.add(proto.Event{Kind: proto.EvKill, A: uint16(i + 1), B: uint16(rng.IntN(players) + 1)}, 0, tick, nil)
					}
				}
				q.trim(tick)
			}
			acked := make([]uint32, 4) // the queue's newest ID, the last 4 ticks
			for range 2 * DefaultTickRate {
				step()
				acked = append(acked[1:], q.nextID)
			}
			var out []proto.Event
			i := 0
			for b.Loop() {
				ss := sessions[i]
				ss.acks.ackEvent = acked[0]
				view := game.ViewRect(&game.Map{Width: w, Height: h}, pos[i][0], pos[i][1])
				out = q.pick(ss, tick, view, out[:0])
				if i++; i == players {
					i = 0
					step()
					acked = append(acked[1:], q.nextID)
				}
			}
		})
	}
}
