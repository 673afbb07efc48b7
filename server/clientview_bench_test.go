package server

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/shared"
)

// BenchmarkAcks256 is one server tick of what 256 clients cost on sprawl
// at 64 ticks/s outside the world's step: each is sent a snapshot every
// tick (cl_updaterate 64; the frame, selection, delta, encoding) and acks
// it at once in a Cmds message, whose ack the view takes before the
// message's command runs (clientView.hold, catchUp), and every 20th tick
// of each client a hitscan shot is rewound (rewinder.rewoundHitboxes). The
// players are humans that walk at random (no bots: no bot brain). Issue 23
// profiled half of a 256-client server's CPU in the ack path; its share
// here: `go test ./server -run '^$' -bench Acks256 -benchtime 300x
// -cpuprofile cpu.out && go tool pprof -top cpu.out`.
func BenchmarkAcks256(b *testing.B) {
	const clients, tickRate = 256, 64
	s := lcServer(b, Config{Addr: "127.0.0.1:0", MaxPlayers: clients, Seed: 1, Map: "sprawl", TickRate: tickRate})
	rng := rand.New(rand.NewPCG(1, 23))
	var sessions []*session
	for i := 0; i < clients; i++ {
		ss := lcSession(s.newPlayer(fmt.Sprintf("client%d", i), false), 50)
		ss.rate.updateRate = tickRate
		a, _ := transport.Pipe(proto.ServerOptions(), transport.Options{}) // write asks its kind; nothing is sent
		ss.conn = proto.NewServerConn(a)
		sessions = append(sessions, ss)
	}
	now := time.Unix(1000, 0)
	dt := time.Second / time.Duration(tickRate)
	m := s.w.Map
	var cmdNum uint32
	tick := func() {
		now = now.Add(dt)
		s.Step(now)
		step := shared.MaxSpeed / tickRate
		for _, p := range s.w.Players {
			p.State.X = min(max(p.State.X+(rng.Float64()*2-1)*step, 40), m.Width-40)
			p.State.Y = min(max(p.State.Y+(rng.Float64()*2-1)*step, 40), m.Height-40)
		}
		s.snap.buildFrame()
		s.snap.scoresBuilt = false
		cmdNum++
		for i, ss := range sessions {
			s.snap.write(ss, s.sessions, now)
			seq := ss.acks.nextSeq
			ss.acks.ack(seq, ^uint32(0), now)
			ss.view.hold(heldAck{before: cmdNum, seq: seq, bits: ^uint32(0)}, &ss.acks, tickRate)
			ss.view.catchUp(cmdNum, &ss.acks, tickRate)
			if (int(s.w.Tick)+i)%20 == 0 {
				cmd := shared.UserCmd{CommandNumber: cmdNum, TickCount: s.w.Tick, LerpMsec: 100} // 6.4 ticks back
				s.rewinder.rewoundHitboxes(ss, &cmd, nil)
			}
		}
	}
	for i := 0; i < tickRate; i++ { // a second: the rings and views fill
		tick()
	}
	b.ReportAllocs()
	for b.Loop() {
		tick()
	}
}
