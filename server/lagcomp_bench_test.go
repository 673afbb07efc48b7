package server

import (
	"fmt"
	"math"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// lcFullServer is a 64-player server (all bots) run for two seconds, with
// lag records for everyone and a session whose view holds samples of all
// 63 others (a snapshot every 3 ticks, about cl_updaterate 20 at 64 ticks/s).
func lcFullServer(b *testing.B) (*Server, *session) {
	b.Helper()
	s := lcServer(b, Config{Addr: "127.0.0.1:0", MaxPlayers: 64, Bots: 64, Seed: 1})
	ss := lcSession(s.w.Players[0], 100)
	// Its snapshots are not culled (a spectator's view), so that its view
	// holds all 63 others, as a close fight's would.
	ss.spectator = true
	now := time.Unix(1000, 0)
	lcRun(s, &now, 2*s.cfg.TickRate, ss, 3)
	if len(s.w.Players) != 64 || len(s.viewEnts(ss)) != 63 || len(s.rewinder.lag) != 64 {
		b.Fatalf("%d players, %d in view, %d lag rings", len(s.w.Players), len(s.viewEnts(ss)), len(s.rewinder.lag))
	}
	return s, ss
}

var lcSink game.TraceResult

// BenchmarkRewind64Players is the lag-compensation cost of one hitscan shot
// on a full server: every other player's hitbox at the shooter's render
// tick from the session's view, each history rebuilt from the acked
// snapshots as for the first shot after an ack (clientView.entity; later
// shots until the next ack reuse them), then the trace against walls and
// hitboxes.
func BenchmarkRewind64Players(b *testing.B) {
	s, ss := lcFullServer(b)
	p := ss.player
	cmd := shared.UserCmd{CommandNumber: 1, TickCount: s.w.Tick - 6, TickFrac: 77, LerpMsec: 100}
	tgt := s.w.Players[40]
	d := math.Hypot(tgt.State.X-p.State.X, tgt.State.Y-p.State.Y)
	dx, dy := (tgt.State.X-p.State.X)/d, (tgt.State.Y-p.State.Y)/d
	// Warm up (boxBuf grows to 64 once).
	boxes, info := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
	if info.FromView != 63 {
		b.Fatalf("rewind %+v: want all 63 from the view", info)
	}
	lcSink = game.TraceShot(s.w.Map, p.State.X, p.State.Y, dx, dy, shared.Weapons[0].Range, boxes, p.ID)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ss.view.cache.valid = false // the first shot after an ack: every candidate replayed
		boxes, _ := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
		lcSink = game.TraceShot(s.w.Map, p.State.X, p.State.Y, dx, dy, shared.Weapons[0].Range, boxes, p.ID)
	}
}

// BenchmarkRewind64PlayersShotgun is the lag-compensation cost of one
// shotgun shot on the same full server as BenchmarkRewind64Players: ONE
// rewind of every other player's hitbox (as World.FireHitscan asks its
// HitboxSource once per shot), then the trace of each of the 8 pellets
// against walls and those hitboxes. Compare its ns/op with
// BenchmarkRewind64Players' (one rifle shot):
// `go test ./server -run '^$' -bench 'Rewind64Players' -benchtime 2000x`.
func BenchmarkRewind64PlayersShotgun(b *testing.B) {
	s, ss := lcFullServer(b)
	p := ss.player
	cmd := shared.UserCmd{CommandNumber: 1, TickCount: s.w.Tick - 6, TickFrac: 77, LerpMsec: 100,
		Buttons: shared.ButtonAttack, Weapon: shared.WeaponShotgun}
	tgt := s.w.Players[40]
	cmd.ViewAngle = float32(math.Atan2(tgt.State.Y-p.State.Y, tgt.State.X-p.State.X))
	st := p.State
	st.Weapon, st.SwitchTicks, st.NextAttack = shared.WeaponShotgun, 0, 0
	_, res := shared.RunCommand(st, cmd, s.w.Phys)
	if !res.Fired || res.Shot.NumRays() != shared.MaxPellets {
		b.Fatalf("the shotgun fired %v, %d rays", res.Fired, res.Shot.NumRays())
	}
	sh := res.Shot
	rng := shared.Weapons[shared.WeaponShotgun].Range
	pellets := func(boxes []game.Hitbox) {
		for i := 0; i < sh.NumRays(); i++ {
			ry := sh.Ray(i)
			lcSink = game.TraceShot(s.w.Map, sh.X, sh.Y, ry.DirX, ry.DirY, rng, boxes, p.ID)
		}
	}
	boxes, info := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
	if info.FromView != 63 {
		b.Fatalf("rewind %+v: want all 63 from the view", info)
	}
	pellets(boxes)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ss.view.cache.valid = false // the first shot after an ack: every candidate replayed
		boxes, _ := s.rewinder.rewoundHitboxes(ss, &cmd, nil)
		pellets(boxes)
	}
}

// BenchmarkRecordLag64 is the per-tick cost of recording 64 players' hitboxes.
func BenchmarkRecordLag64(b *testing.B) {
	s, _ := lcFullServer(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.w.Tick++
		s.rewinder.record()
	}
}

// BenchmarkTick64Bots is one server tick of a full 64-player arena of bots
// (movement, aim, line of sight, fire, lag record): the server's cost
// without the network (`go test ./server -run '^$' -bench Tick -benchmem`).
func BenchmarkTick64Bots(b *testing.B) { benchTick(b, 64, 64) }

// BenchmarkTick256Bots: 256 bots at 64 ticks/s.
func BenchmarkTick256Bots(b *testing.B) { benchTick(b, 256, 64) }

func benchTick(b *testing.B, bots, tickRate int) {
	s := lcServer(b, Config{Addr: "127.0.0.1:0", MaxPlayers: bots, Bots: bots, Seed: 1, TickRate: tickRate})
	now := time.Unix(1000, 0)
	dt := time.Second / time.Duration(tickRate)
	for i := 0; i < 3*tickRate; i++ { // past the spawn and the first fights
		now = now.Add(dt)
		s.Step(now)
	}
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(dt)
		s.Step(now)
	}
}

// BenchmarkSnapshotPipeline is one tick's snapshots for 16 clients on a
// 64-player arena: the world frame, then for each client selection (its
// view), delta against its acked baseline, and encoding
// (`go test ./server -run '^$' -bench SnapshotPipeline -benchmem`). Every
// client acks each snapshot at once, so deltas are the steady state and
// all clients' baselines are the same tick; the world's tick between two
// runs is not timed. The target is 0 allocs/op. records=shared writes each
// entity and pickup record once a tick for every client that needs it
// (snapshotWriter.entDeltas), records=afresh writes every client's own.
// It reports %shared, the entity records copied rather than written.
func BenchmarkSnapshotPipeline(b *testing.B) {
	for _, shared := range []bool{false, true} {
		name := "records=afresh"
		if shared {
			name = "records=shared"
		}
		b.Run(name, func(b *testing.B) { benchSnapshotPipeline(b, shared) })
	}
}

func benchSnapshotPipeline(b *testing.B, shared bool) {
	s := lcServer(b, Config{Addr: "127.0.0.1:0", MaxPlayers: 64, Bots: 48, Seed: 1})
	if !shared {
		s.snap.entDeltas, s.snap.pickDeltas = nil, nil
	}
	var sessions []*session
	for i := 0; i < 16; i++ {
		p := s.newPlayer(fmt.Sprintf("client%d", i), false)
		ss := withConn(b, lcSession(p, 50))
		ss.scoresDue = true
		sessions = append(sessions, ss)
	}
	now := time.Unix(1000, 0)
	dt := time.Second / time.Duration(s.cfg.TickRate)
	step := func() {
		now = now.Add(dt)
		s.Step(now)
	}
	pipeline := func() int {
		s.snap.buildFrame()
		s.snap.scoresBuilt = false
		n := 0
		for _, ss := range sessions {
			n += len(s.snap.write(ss, s.sessions, now))
			ss.acks.ackSeq, ss.acks.ackTick, ss.acks.ackEvent = ss.acks.nextSeq, s.w.Tick, ss.out.evDone
		}
		return n
	}
	for i := 0; i < 3*s.cfg.TickRate; i++ {
		step()
		pipeline()
	}
	var stats0 proto.DeltaCacheStats
	if shared {
		stats0 = s.snap.entDeltas.Stats()
	}
	b.ReportAllocs()
	bytes := 0
	for b.Loop() {
		b.StopTimer() // the world moves on; only the snapshots are measured
		step()
		b.StartTimer()
		bytes += pipeline()
	}
	b.ReportMetric(float64(bytes)/float64(b.N)/16, "B/snapshot")
	if shared {
		st := s.snap.entDeltas.Stats()
		h, m := st.Hits-stats0.Hits, st.Misses-stats0.Misses
		b.ReportMetric(100*float64(h)/float64(max(h+m, 1)), "%shared")
	}
}
