package server

import (
	"cmp"
	"math"
	"slices"
	"time"

	"tickshot/game"
	"tickshot/internal/cvar"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Snapshots, one client at a time, as ioquake3's sv_snapshot.c writes
// them: once a tick the world is quantized into a frame (buildFrame,
// SV_BuildClientSnapshot's entity pass); then for each client whose
// update interval is due the writer selects what that client may see
// (selectFor: interest management, the events from the eventQueue), adds
// the scoreboard when one is due, records the snapshot in the client's
// ring (ackState), writes the entities as a delta against the client's
// acknowledged baseline (encodeEntities) and encodes the whole (write,
// SV_WriteSnapshotToClient); send hands the bytes to the transport. The
// entity and pickup records are written once a tick for all clients:
// every client whose baseline holds the same state of an entity gets a
// copy of the same record (proto.EntityDeltaCache: encode once, send
// many).

// snapshotWriter owns what every snapshot of one tick is written from:
// the world frame, projectile frame and pickup frame (quantized once a
// tick), the
// scoreboard (built once a tick when one is due), the encoder, and the
// counts of snapshots sent. Per-client storage (the sent ring, reused
// buffers) stays in the session. The tick goroutine owns it.
type snapshotWriter struct {
	w        *game.World
	tickRate int
	events   *eventQueue // the events snapshots carry (events.go)
	// tickTimeUs and tickStdUs are the server's tick processing time, mean
	// and deviation over the last ticks (µs), set by the tick loop.
	tickTimeUs, tickStdUs uint32

	frame       []proto.EntityState     // this tick's players, quantized (buildFrame)
	projFrame   []proto.ProjectileState // this tick's projectiles (buildFrame)
	pickFrame   []proto.PickupState     // this tick's pickups, by ID (buildFrame)
	scoreBuf    []proto.ScoreEntry      // this tick's scoreboard rows, when one is due
	board       scoreBoard              // scoreBuf with its versions
	leaders     []uint16                // IDs of scoreBuf's top rows (leadersOf)
	wanted      []uint16                // the IDs a client's snapshot names (snapNames.ids), reused
	scoresBuilt bool                    // scoreBuf is this tick's
	clock       proto.MatchClock        // this tick's match clock, sent with every scoreboard (matchClock)
	maxRate     *cvar.Int               // sv_maxrate, bytes/s: bounds each snapshot's byte budget (priority.go)
	enc         proto.Encoder           // writes every snapshot
	buf         snapBuffers             // the snapshot being written, whoever's
	stats       SnapshotStatus          // snapshots sent since start (/status)
	ix          frameIndex              // the frames by position, the sessions by ID (interest.go)
	// entDeltas and pickDeltas write this tick's entity and pickup records
	// once each and copy them into every delta that needs them (encode
	// once, send many); nil writes each client's records afresh.
	entDeltas  *proto.EntityDeltaCache
	pickDeltas *proto.PickupDeltaCache
	// phases keeps the clients of one update rate in a few phase groups
	// (phases.go); nil leaves each on the phase of its join.
	phases *phaseGroups
}

// snapBuffers is the storage the snapshot being written uses, reused from
// one client's to the next: after the first few snapshots, writing one
// allocates nothing (BenchmarkSnapshotPipeline). Only what a session must
// keep between its snapshots is its own (snapOut): all of this stays in
// the caches while the writer goes through 1 024 clients.
type snapBuffers struct {
	snap     proto.Snapshot // the snapshot being written
	entBuf   []proto.EntityState
	projBuf  []proto.ProjectileState
	pickBuf  []proto.PickupState
	evBuf    []proto.Event
	deltaBuf []byte      // EntityDelta
	pickWire []byte      // PickupDelta
	evWire   []byte      // EventData
	wire     []byte      // the encoded snapshot
	prio     prioScratch // priorityState.prioritize's
}

// newSnapshotWriter is the writer of world w's snapshots, with its events
// from q, their byte budgets bounded by maxRate (sv_maxrate).
func newSnapshotWriter(w *game.World, q *eventQueue, maxRate *cvar.Int) snapshotWriter {
	return snapshotWriter{w: w, tickRate: w.TickRate, events: q, maxRate: maxRate,
		entDeltas: new(proto.EntityDeltaCache), pickDeltas: new(proto.PickupDeltaCache), phases: new(phaseGroups)}
}

// everywhere is a spectator's view rectangle: no culling.
var everywhere = game.Rect{MinX: math.Inf(-1), MinY: math.Inf(-1), MaxX: math.Inf(1), MaxY: math.Inf(1)}

// send writes a snapshot to every client of sessions whose update
// interval is due, at time now, and hands it to the client's transport.
func (sw *snapshotWriter) send(sessions []*session, now time.Time) {
	sw.writeDue(sessions, now, func(ss *session, b []byte) {
		// The transport owns what it is given (its queue holds it until
		// written): the reused encoding is copied.
		ss.conn.SendRaw(append([]byte(nil), b...)) // a full queue drops it: the client sees a lost snapshot
	})
}

// writeDue writes the snapshot of every client of sessions whose update
// interval is due (rateControl, on its phase group's ticks: phases.go) at
// time now, passing each to out: the bytes are the writer's reused
// buffer (snapBuffers), valid until out returns.
func (sw *snapshotWriter) writeDue(sessions []*session, now time.Time, out func(*session, []byte)) {
	if sw.w.ScoresDirty {
		for _, ss := range sessions {
			ss.scoresDue = true
		}
		sw.w.ScoresDirty = false
	}
	framed := false // sw.frame is built at the first snapshot due this tick
	sw.scoresBuilt = false
	for _, ss := range sessions {
		if !ss.rate.phased {
			sw.phases.assign(&ss.rate, sw.tickRate)
		}
		if !ss.rate.due(sw.w.Tick, sw.tickRate) {
			continue
		}
		if !framed {
			sw.buildFrame()
			framed = true
		}
		b := sw.write(ss, sessions, now)
		ss.rate.sent(len(b))
		out(ss, b)
	}
}

// buildFrame quantizes every player once per tick into sw.frame, sorted
// by ID: the world frame that each client's snapshot selects from
// (ioquake3 builds its snapshot entities once, SV_BuildClientSnapshot, and
// writes them per client). The records written from the last frame are
// dropped.
func (sw *snapshotWriter) buildFrame() {
	sw.entDeltas.Reset()
	sw.pickDeltas.Reset()
	sw.frame = sw.frame[:0]
	sw.projFrame = sw.projFrame[:0]
	sw.pickFrame = sw.pickFrame[:0]
	for _, pk := range sw.w.Pickups {
		sw.pickFrame = append(sw.pickFrame, proto.PickupState{ID: pk.ID, Kind: uint8(pk.Kind),
			X: proto.ToFixed(pk.X), Y: proto.ToFixed(pk.Y), RespawnTick: pk.RespawnTick, Taker: pk.Taker})
	}
	for _, pr := range sw.w.Projectiles {
		sw.projFrame = append(sw.projFrame, proto.ProjectileState{ID: pr.ID, Owner: pr.Owner, Weapon: pr.Weapon,
			X: proto.ToFixed(pr.X), Y: proto.ToFixed(pr.Y), VX: proto.ToFixed(pr.VX), VY: proto.ToFixed(pr.VY)})
	}
	for _, o := range sw.w.Players {
		var flags uint8
		if o.Alive() {
			flags |= proto.FlagAlive
		}
		if o.Bot {
			flags |= proto.FlagBot
		}
		if o.Protected(sw.w.Tick) {
			flags |= proto.FlagProtected
		}
		if o.Powered(sw.w.Tick) {
			flags |= proto.FlagPowered
		}
		sw.frame = append(sw.frame, proto.EntityState{
			ID: o.ID, X: proto.ToFixed(o.State.X), Y: proto.ToFixed(o.State.Y),
			Angle: proto.AngleToWire(o.Angle), Health: uint8(o.Health), Flags: flags, Teleport: o.Teleport,
			Weapon: o.State.Weapon, Tick: sw.w.Tick, // fresh: the state of this tick
		})
	}
	sw.index()
}

// write builds the snapshot due to ss from this tick's frame,
// records it in the session's ring (for acks, baselines and the view),
// and encodes it: build, select, delta, encode (ioquake3's
// SV_BuildClientSnapshot then SV_WriteSnapshotToClient). The bytes are
// the writer's reused buffer, valid until the next snapshot it writes, to
// any client; nothing here allocates in the steady state
// (BenchmarkSnapshotPipeline).
// sessions are every client, for the scoreboard's pings.
func (sw *snapshotWriter) write(ss *session, sessions []*session, now time.Time) []byte {
	snap := sw.selectFor(ss)
	snap.Choke = ss.rate.takeChokes()
	// The scoreboard delta (scoreboard.go): in the client's first snapshot
	// (lastScor 0: the server runs tick 1 first), then once a second when
	// it changed (the kill feed says who killed whom near the client at
	// once, and the newest far kills as news), every
	// 500 ms while the last one left changed rows out, else every 2 s for
	// the pings and the match clock; after the first, only in the first
	// snapshot of one of the client's half-second slots (scoreSlot), the
	// intervals being two, one and four slots respectively (scoreDue).
	tick := sw.w.Tick
	due := scoreDue(tick, ss.lastSnap, ss.lastScor, ss.player.ID, sw.tickRate, ss.scoresDue, ss.view.scores.pending)
	ss.lastSnap = tick
	scoreSent := false
	if due {
		if !sw.scoresBuilt {
			sw.scoreBuf = sw.scoreboard(sw.scoreBuf[:0], sessions)
			sw.board.set(sw.scoreBuf)
			sw.leaders = leadersOf(sw.leaders, sw.scoreBuf, scoreLeaders)
			sw.clock = matchClock(sw.w)
			sw.scoresBuilt = true
		}
		sw.wanted = snapNames{snap}.ids(sw.wanted)
		ss.out.scoreFull, ss.out.scoreWire = ss.view.scores.delta(ss.out.scoreFull[:0], ss.out.scoreWire[:0],
			&sw.board, ss.player.ID, sw.wanted, sw.leaders)
		snap.Scores = nil
		if len(ss.out.scoreWire) > 0 {
			snap.Scores = ss.out.scoreWire
		}
		snap.Match = &sw.clock
		ss.lastScor = tick
		ss.scoresDue = false
		scoreSent = true
	}
	rec := ss.acks.record(tick, now, ss.view.leave)
	snap.Seq, rec.evDone = rec.seq, ss.out.evDone
	if n := len(snap.Events); n > 0 {
		ss.evSentMax = max(ss.evSentMax, snap.Events[n-1].ID)
	}
	rec.picks = append(rec.picks, snap.Pickups...)
	if scoreSent {
		ss.view.scores.sent(rec.seq, ss.out.scoreFull)
	}
	base := sw.encodePickups(ss, snap)
	sw.buf.evWire = proto.AppendEvents(sw.buf.evWire[:0], snap.Tick, snap.Events)
	snap.EventData = nil
	if len(sw.buf.evWire) > 0 {
		snap.EventData = sw.buf.evWire
	}
	// The byte budget (priority.go): what the rest of the snapshot takes,
	// with an empty entity delta and without the scoreboard (not fitted,
	// charged after), leaves the players' share.
	snap.EntityDelta = sw.buf.deltaBuf[:0]
	scores, match := snap.Scores, snap.Match
	snap.Scores, snap.Match = nil, nil
	envelope := len(sw.enc.Append(sw.buf.wire[:0], snap)) + 2 // a bin's length grows by at most 2 bytes
	snap.Scores, snap.Match = scores, match
	whole := envelope // with the scoreboard: what the carried must leave room for in a datagram
	if scores != nil || match != nil {
		whole = len(sw.enc.Append(sw.buf.wire[:0], snap)) + 2
	}
	planned := snapshotBudget(ss, sw.maxRate.Get())
	ent, carry := ss.out.prio.shares(planned, envelope, whole)
	ss.out.prio.prioritize(&sw.buf.prio, ss, snap, base, ent, carry)
	rec.ents = append(rec.ents, snap.Entities...)
	sw.encodeEntities(ss, snap, base)
	sw.buf.wire = sw.enc.Append(sw.buf.wire[:0], snap)
	ss.out.prio.charge(len(sw.buf.wire), planned)
	sw.count(snap, len(sw.buf.wire))
	return sw.buf.wire
}

// selectFor selects what one client receives from the tick's frame
// (interest management): the other players, projectiles and pickups inside its
// view (game.ViewRect: the most the client can show, plus a margin); the
// events about it, kills, joins and leaves always (far kills and notices
// as news, events.go), shots, hits and explosions only where it can see
// them. A player behind the camera's edge
// is not on the wire (the anti-maphack rule).
func (sw *snapshotWriter) selectFor(ss *session) *proto.Snapshot {
	p := ss.player
	view := game.ViewRect(sw.w.Map, p.State.X, p.State.Y)
	if ss.spectator {
		view = everywhere // a spectator's camera goes anywhere: nothing is culled
	}
	snap := &sw.buf.snap
	*snap = proto.Snapshot{
		Tick:       sw.w.Tick,
		AckCmd:     ss.cmds.lastCmd,
		Self:       sw.self(ss),
		TickTimeUs: sw.tickTimeUs,
		TickStdUs:  sw.tickStdUs,
		PingVarMs:  uint16(math.Min(ss.acks.rttVar, 65535)),
		CmdLoss:    uint8(math.Round(ss.cmds.seq.LossPct())),
		CmdQueue:   uint8(min(ss.cmds.depth(), 255)),
		CmdTarget:  uint8(ss.cmds.target),
		PingMs:     uint16(math.Max(ss.acks.rttMs, 0)),
		Entities:   sw.buf.entBuf[:0],
		// Reused storage; nil (msgpack nil) when there is none.
		Projectiles: sw.buf.projBuf[:0:cap(sw.buf.projBuf)],
		Events:      sw.buf.evBuf[:0:cap(sw.buf.evBuf)],
	}
	snap.Pickups = sw.buf.pickBuf[:0]
	sw.inView(snap, view, p.ID) // the frames' grids (interest.go)
	sw.buf.projBuf = snap.Projectiles
	if len(snap.Projectiles) == 0 {
		snap.Projectiles = nil
	}
	sw.buf.entBuf = snap.Entities
	sw.buf.pickBuf = snap.Pickups
	// Events not yet acknowledged (resent until they are), within the
	// client's event budget (events.go).
	snap.Events = sw.events.pick(ss, sw.w.Tick, view, snap.Events)
	sw.buf.evBuf = snap.Events
	if len(snap.Events) == 0 {
		snap.Events = nil
	}
	return snap
}

// self is the Self of a snapshot to ss: its player's state, or for a
// spectator the zero state with Dead and Spectator set.
func (sw *snapshotWriter) self(ss *session) proto.SelfState {
	if ss.spectator {
		self := proto.MakeSelf(shared.PlayerState{Dead: true}, 0, 0, false, sw.buf.snap.Self.Ammo)
		self.Spectator = true
		return self
	}
	p := ss.player
	self := proto.MakeSelf(p.State, p.Health, p.Teleport, p.Protected(sw.w.Tick), sw.buf.snap.Self.Ammo)
	self.Armour = uint8(p.Armour)
	if p.Powered(sw.w.Tick) {
		self.PowerTicks = uint16(p.PowerUntil - sw.w.Tick)
	}
	return self
}

// encodePickups writes the snapshot's pickup frame as a delta against the
// newest snapshot the client acknowledged (Quake 3's
// SV_WriteSnapshotToClient against frames[deltaMessage & PACKET_MASK]), or
// against nothing (a full snapshot) when there is no acked baseline the
// client still holds (a new client, lost acks, or a baseline more than
// proto.FrameRingSize snapshots old) or when the client asked for full
// snapshots (cl_nodelta); it sets snap.Baseline and returns the baseline's
// entity frame, the one encodeEntities writes against (nil: full). Each
// record comes from the tick's shared records (sw.pickDeltas): written
// once for all the clients whose baselines hold the same state.
func (sw *snapshotWriter) encodePickups(ss *session, snap *proto.Snapshot) []proto.EntityState {
	var base []proto.EntityState
	var pickBase []proto.PickupState
	snap.Baseline = 0
	if b := ss.acks.baseline(snap.Seq); b != nil && !ss.hello.NoDelta {
		base, pickBase, snap.Baseline = b.ents, b.picks, b.seq
	}
	// The pickups in view, against the same baseline (docs/PROTOCOL.md §5.15).
	sw.buf.pickWire = sw.pickDeltas.Append(sw.buf.pickWire[:0], pickBase, snap.Pickups)
	if sw.buf.pickWire == nil {
		sw.buf.pickWire = make([]byte, 0, 16) // a bin, never msgpack nil
	}
	snap.PickupDelta = sw.buf.pickWire
	return base
}

// encodeEntities writes the snapshot's entity frame as a delta against
// base, the baseline's frame encodePickups chose: the players sent fresh
// get records (an empty one when unchanged), the held ones none. Each
// record comes from the tick's shared records (sw.entDeltas): written once
// for all the clients whose baselines hold the same state of that entity.
func (sw *snapshotWriter) encodeEntities(ss *session, snap *proto.Snapshot, base []proto.EntityState) {
	sw.buf.deltaBuf = sw.entDeltas.Append(sw.buf.deltaBuf[:0], base, snap.Entities)
	if sw.buf.deltaBuf == nil {
		// Always a bin, empty when nothing changed, never msgpack nil
		// (docs/PROTOCOL.md §5.9): a client that has never had an entity in
		// view has no buffer yet.
		sw.buf.deltaBuf = make([]byte, 0, 64)
	}
	snap.EntityDelta = sw.buf.deltaBuf
}

// scoreboard appends every player's row to rows, then the spectators'
// (Team proto.TeamSpectator), sorted by id; sessions give the pings.
func (sw *snapshotWriter) scoreboard(rows []proto.ScoreEntry, sessions []*session) []proto.ScoreEntry {
	sw.ix.sortSessions(sessions)
	for _, p := range sw.w.Players {
		row := proto.ScoreEntry{ID: p.ID, Name: p.Name, Kills: int16(p.Kills), Deaths: int16(p.Deaths), Bot: p.Bot, Team: uint8(p.Team)}
		if ss := sw.ix.session(p.ID); ss != nil {
			row.Color = ss.hello.Color // checked on receipt (proto.Check)
			if ss.acks.rttMs > 0 {
				row.PingMs = uint16(ss.acks.rttMs)
			}
		}
		rows = append(rows, row)
	}
	if len(sw.w.Spectators) == 0 {
		return rows
	}
	for _, p := range sw.w.Spectators {
		row := proto.ScoreEntry{ID: p.ID, Name: p.Name, Kills: int16(p.Kills), Deaths: int16(p.Deaths), Team: proto.TeamSpectator}
		if ss := sw.ix.session(p.ID); ss != nil && ss.acks.rttMs > 0 {
			row.PingMs = uint16(ss.acks.rttMs)
		}
		rows = append(rows, row)
	}
	slices.SortFunc(rows, func(a, b proto.ScoreEntry) int { return cmp.Compare(a.ID, b.ID) })
	return rows
}

// count adds one sent snapshot of n bytes to the counters.
func (sw *snapshotWriter) count(snap *proto.Snapshot, n int) {
	st := &sw.stats
	if snap.Baseline == 0 {
		st.Full++
		st.FullBytes += uint64(n)
	} else {
		st.Delta++
		st.DeltaBytes += uint64(n)
	}
	st.MaxBytes = max(st.MaxBytes, n)
}

// matchClock is world w's match clock for the wire: the match's start, the
// intermission's end (0 while the match is on) and the frag and time
// limits (mp_timelimit in ticks, rounded up: the match ends at the first
// tick at or past the limit, game.Match.run).
func matchClock(w *game.World) proto.MatchClock {
	return proto.MatchClock{Start: w.MatchStart, End: w.Intermission,
		FragLimit: uint16(min(max(w.Rules.FragLimit, 0), math.MaxUint16)),
		TimeLimit: uint32(math.Ceil(max(w.Rules.TimeLimit, 0) * 60 * float64(w.TickRate)))}
}
