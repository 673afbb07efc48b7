package server

import (
	"fmt"
	"testing"
	"time"

	"tickshot/net/proto"
)

// BenchmarkSnapshotBytes reports where a snapshot's bytes go, for one
// client among bots on the arena map at cl_updaterate ~21 (every third
// tick at 64 ticks/s), each snapshot acked at once: the whole snapshot, the
// entity delta against the entity frame written in full, events, the
// scoreboard, and what the rest (header, own state, server figures) costs.
// Run: go test ./server -run x -bench SnapshotBytes -benchtime 1x
func BenchmarkSnapshotBytes(b *testing.B) {
	for _, players := range []int{4, 16, 64} {
		b.Run(fmt.Sprintf("players=%d", players), func(b *testing.B) {
			var total, ents, entsFull, evs, scores, inView, n float64
			for it := 0; it < b.N; it++ {
				s := lcServer(b, Config{Bots: players - 1, Seed: 1, MaxPlayers: 256})
				ss := withConn(b, lcSession(s.newPlayer("me", false), 50))
				now := time.Unix(1000, 0)
				lcRun(s, &now, 64*5, nil, 1)
				var enc proto.Encoder
				for i := 0; i < 64*10; i++ {
					now = now.Add(time.Second / 64)
					s.Step(now)
					if s.w.Tick%3 != 0 {
						continue
					}
					s.snap.buildFrame()
					wire := s.snap.write(ss, s.sessions, now)
					snap := &s.snap.buf.snap // the snapshot just written
					ss.acks.ack(snap.Seq, 0, now)
					total += float64(len(wire))
					ents += float64(len(snap.EntityDelta))
					entsFull += float64(len(proto.AppendEntityDelta(nil, nil, snap.Entities)))
					evs += float64(len(snap.EventData))
					inView += float64(len(snap.Entities))
					if snap.Scores != nil {
						c := *snap
						c.Scores = nil
						scores += float64(len(wire) - len(enc.Append(nil, &c)))
					}
					n++
				}
			}
			b.ReportMetric(total/n, "B/snapshot")
			b.ReportMetric(ents/n, "entity-delta-B")
			b.ReportMetric(entsFull/n, "entity-full-B")
			b.ReportMetric(evs/n, "events-B")
			b.ReportMetric(scores/n, "scores-B")
			b.ReportMetric((total-ents-evs-scores)/n, "rest-B")
			b.ReportMetric(inView/n, "players-in-view")
		})
	}
}
