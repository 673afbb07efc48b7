package server

import (
	"context"
	"log/slog"
	"math"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Lag compensation (Bernier 2001, "Lag Compensation"; Valve, "Source
// Multiplayer Networking", "Lag compensation"). Before a hitscan shot of a
// human player runs, the server works out when the shooter saw the world,
// puts every other player's hitbox where the shooter drew it, and traces the
// shot against those. Players themselves are never moved: the trace runs on
// a rewound copy of the hitboxes, so the world cannot be left changed.
//
// Where the shooter drew a target is recomputed, not guessed: the server
// rebuilds, per client and for the players a shot can hit, the same
// interpolation histories (game.EntityView) the client keeps, from exactly
// the snapshots the client acknowledged (Cmds.Ack and AckBits;
// clientView.entity), and evaluates them at the command's render tick
// (UserCmd.RenderTick) with the same function (game.History.At). When no
// such view exists, it falls back to the per-tick hitbox record (lagRing).

// MaxUnlagTicks is the per-player hitbox record length: 1 s at 128 ticks/s.
const MaxUnlagTicks = 129

// MaxExtrapolateMs is cl_extrapolate_amount, the extrapolation limit the
// client uses and the server's reconstruction of the client's view mirrors.
const MaxExtrapolateMs = 250

// CrossCheckMs is how far the client's claimed render time may be from both
// of the server's own estimates (now - RTT - lerp, and the tick of the
// newest snapshot the client acknowledged - lerp) before the claim is
// refused and the first estimate used.
const CrossCheckMs = 200

// DefaultMaxUnlag is sv_maxunlag's default, seconds: the deepest rewind.
// Honest play needs RTT + lerp + a command interval: 300 ms of RTT with
// 20 ms of jitter and the default 100 ms lerp measured 425 ms in
// docs/LAGCOMP.md's table, so 0.5 s keeps every such shot exact while a
// client that fakes its latency gains at most half a second (the old
// default, 1 s, was Half-Life's; CS:GO uses 0.2 s, which would clamp honest
// players beyond about 100 ms of RTT).
const DefaultMaxUnlag = 0.5

// UnlagSlackMs is how far, ms, a shot may rewind beyond the link's round
// trip plus the command's lerp when sv_cheats is 0 (rewindBound). It covers
// what the link's round trip (websocket ping, TCP) leaves out and an
// honest client's rewind contains: the wait for the client's next command
// packet (1/cl_cmdrate), the server's tick, and network jitter. It is also
// all a client that holds its acks back gains.
const UnlagSlackMs = 100

// lagRecord is one player's hitbox state at one tick: the sample a
// client's game.History holds, and the teleport counter.
type lagRecord struct {
	game.Sample
	teleport uint8
}

// lagRing is a player's hitbox record for the last MaxUnlagTicks ticks, in
// a fixed array: recording never allocates. It holds the samples
// game.History holds and interpolates them with the same game.Lerp, but
// differs where the server needs it to: a second of ticks at 128/s, not
// HistorySize (32) snapshots; no answer outside the record (History holds
// or extrapolates); and no interpolation across a respawn (the teleport
// counter) or a jump, which a client's History is Reset for instead.
type lagRing struct {
	rec  [MaxUnlagTicks]lagRecord
	head int // index of the oldest
	n    int
	// irregular is the tick of the newest record that is not a tick's
	// walk from the one before (note, lagreach.go).
	irregular uint32
}

func (r *lagRing) record(rec lagRecord) {
	if r.n == MaxUnlagTicks {
		r.head = (r.head + 1) % MaxUnlagTicks
		r.n--
	}
	r.rec[(r.head+r.n)%MaxUnlagTicks] = rec
	r.n++
}

func (r *lagRing) get(i int) *lagRecord { return &r.rec[(r.head+i)%MaxUnlagTicks] }

// at returns the hitbox centre at tick t (fractional), interpolated between
// the records around it with game.Lerp. ok is false when t is older than
// the oldest record, or newer than the newest. Across a respawn (teleport
// counter change) or a jump of more than game.TeleportDist, the later record
// is used as is: a rewind never slides a player across the map.
func (r *lagRing) at(t float64) (x, y float64, alive, ok bool) {
	// r is nil for a player who joined this tick (no record yet).
	if r == nil || r.n == 0 {
		return 0, 0, false, false
	}
	first, last := r.get(0), r.get(r.n-1)
	if t < float64(first.Tick) || t > float64(last.Tick) {
		return 0, 0, false, false
	}
	return r.lerpAt(r.after(t), t)
}

// after is the index of the first record at or after tick t, 1 ≤ i < n
// (1 when n is 1), for t within the record: where it must be when the
// records are one a tick (as record makes them: one a tick, every tick),
// else by binary search (the ticks increase; kept as the guard). t-first
// is exact (an integer less than t taken from t, t < 2^53), so its
// ceiling is the search's answer. The direct index reads two records of
// a ring nobody read lately, the search seven: a shot at 1 024 players
// asks some 90 rings.
func (r *lagRing) after(t float64) int {
	first, last := r.get(0), r.get(r.n-1)
	if r.n > 1 && last.Tick-first.Tick == uint32(r.n-1) {
		return max(1, int(math.Ceil(t-float64(first.Tick))))
	}
	return r.search(t)
}

// search is after by binary search alone.
func (r *lagRing) search(t float64) int {
	lo, hi := 1, r.n
	for lo < hi {
		if m := int(uint(lo+hi) >> 1); float64(r.get(m).Tick) < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// lerpAt is the hitbox centre at tick t between records i-1 and i (after),
// or the only record when i is n.
func (r *lagRing) lerpAt(i int, t float64) (x, y float64, alive, ok bool) {
	if i >= r.n {
		first := r.get(0)
		return first.X, first.Y, first.Alive, true
	}
	b := r.get(i)
	a := r.get(i - 1)
	if a.teleport != b.teleport || math.Hypot(b.X-a.X, b.Y-a.Y) > game.TeleportDist {
		return b.X, b.Y, b.Alive, true
	}
	s := game.Lerp(a.Sample, b.Sample, (t-float64(a.Tick))/float64(b.Tick-a.Tick))
	return s.X, s.Y, s.Alive, true
}

// rewinder is lag compensation: it owns every player's per-tick hitbox
// record (lagRing) and the counts of rewound shots, decides the tick a
// shot rewinds to (rewindTick, rewindBound), and is the
// game.HitboxSource of one human's command (ss, set while the command
// runs): every other player's hitbox where that client drew it. The tick
// goroutine owns it.
type rewinder struct {
	w        *game.World
	vars     *vars
	log      *slog.Logger
	tickRate int
	lag      map[uint16]*lagRing
	boxBuf   []game.Hitbox // reused: a shot allocates nothing
	// The candidate set's state (lagreach.go): the irregular records of
	// the last irregularKeep ticks, oldest first, the roster generation
	// every player had a record at (record), and candidates' buffers.
	irregular []irregularNote
	recorded  uint64
	cand      []int32
	cand2     []int32
	rects     []game.Rect   // a shot's ray corridor (reach.corridor)
	stats     LagCompStatus // lag-compensated shots since start (/status)
	ss        *session      // the shooter's session while its command runs
	// judged, when set (Local), collects each shot's rewind.
	judged *[]JudgedShot
}

// newRewinder is the lag compensation of world w under the cvars v.
func newRewinder(w *game.World, v *vars, log *slog.Logger) rewinder {
	return rewinder{w: w, vars: v, log: log, tickRate: w.TickRate, lag: map[uint16]*lagRing{}}
}

// record appends every player's hitbox of this tick to its ring.
func (r *rewinder) record() {
	for _, p := range r.w.Players {
		ring := r.lag[p.ID]
		if ring == nil {
			ring = new(lagRing)
			r.lag[p.ID] = ring
		}
		rec := lagRecord{Sample: game.Sample{Tick: r.w.Tick, X: p.State.X, Y: p.State.Y, Alive: p.Alive()}, teleport: p.Teleport}
		if ring.note(rec, r.tickRate) {
			r.irregular = append(r.irregular, irregularNote{id: p.ID, tick: rec.Tick})
		}
		ring.record(rec)
	}
	r.recorded = r.w.Generation()
	old := 0
	for old < len(r.irregular) && r.irregular[old].tick+irregularKeep < r.w.Tick {
		old++
	}
	if old > 0 {
		r.irregular = append(r.irregular[:0], r.irregular[old:]...)
	}
}

// forget drops player id's record (it left, or has no body any more).
func (r *rewinder) forget(id uint16) { delete(r.lag, id) }

// rewindInfo explains one rewind decision (for the debug log and tests).
type rewindInfo struct {
	Now          uint32
	ClientTick   float64 // render tick the command claims
	ServerTick   float64 // now - RTT - lerp, from the server's own measure
	AckTick      float64 // the newest acknowledged snapshot's tick - lerp; 0 before any ack
	Used         float64 // the tick rewound to
	LerpMs       float64 // lerp_msec after clamping
	UsedServer   bool    // the claim was off both estimates by more than CrossCheckMs (refused)
	Clamped      bool    // Used was limited to [now - min(sv_maxunlag, BoundMs), now]
	BoundMs      float64 // the deepest rewind the link's round trip allows (rewindBound); <0: none
	LinkRTTMs    float64 // the credible round trip BoundMs was made of; <0: none
	Bounded      bool    // BoundMs, not sv_maxunlag, limited Used
	FromView     int     // hitboxes taken from the client's view
	FromRecord   int     // hitboxes taken from the tick record
	NotRewound   int     // hitboxes left at the present (no history)
	MaxRewindGap float64 // largest distance between rewound and present centre
	OutOfReach   int     // players left out: no rewind of theirs can be hit (lagreach.go)
}

// maxLerpMs is the largest lerp_msec the client's announced rates allow:
// max(cl_interp, cl_interp_ratio / cl_updaterate), plus 1 ms of rounding,
// at most net.MaxInterpMs.
func (ss *session) maxLerpMs() float64 {
	return math.Min(game.InterpPeriodMs(float64(ss.hello.InterpMs), float64(ss.hello.InterpRatio), ss.rate.updateRate)+1, proto.MaxInterpMs)
}

// rewindTick decides the tick to rewind to for cmd (Source's formula,
// cross-checked and clamped; see CrossCheckMs and sv_maxunlag).
//
// The claim is credible when it is near either of two estimates. The RTT
// one follows the smoothed round trip, which lags behind when the client's
// frames stall (its acks and commands then leave late, together); the ack
// one is the snapshot this very command's message acknowledged, the newest
// the client had when it made the command, which an honest client renders
// lerp behind. Both can be pushed back only by holding acks back, which
// sv_maxunlag bounds.
func (r *rewinder) rewindTick(ss *session, cmd *shared.UserCmd) rewindInfo {
	tr := float64(r.tickRate)
	now := float64(r.w.Tick)
	info := rewindInfo{Now: r.w.Tick}
	info.LerpMs = math.Min(float64(cmd.LerpMsec), ss.maxLerpMs())
	c := *cmd
	c.LerpMsec = uint16(info.LerpMs)
	info.ClientTick = c.RenderTick(r.tickRate)
	rtt := math.Max(ss.acks.rttMs, 0)
	info.ServerTick = now - (rtt+info.LerpMs)*tr/1000
	info.Used = info.ClientTick
	slack := CrossCheckMs * tr / 1000
	credible := math.Abs(info.ClientTick-info.ServerTick) <= slack
	if ss.acks.ackSeq != 0 {
		info.AckTick = float64(ss.acks.ackTick) - info.LerpMs*tr/1000
		credible = credible || math.Abs(info.ClientTick-info.AckTick) <= slack
	}
	if !credible {
		info.Used, info.UsedServer = info.ServerTick, true
	}
	deepest := r.vars.maxUnlag.Get() * 1000
	info.LinkRTTMs, info.BoundMs = r.rewindBound(ss, info.LerpMs)
	bounded := info.BoundMs >= 0 && info.BoundMs < deepest
	if bounded {
		deepest = info.BoundMs
	}
	lo := now - deepest*tr/1000
	if info.Used < lo {
		info.Used, info.Clamped, info.Bounded = lo, true, bounded
	}
	if info.Used > now {
		info.Used, info.Clamped = now, true
	}
	return info
}

// rewindBound returns the deepest rewind, ms, the latency of ss's link
// allows for a command with lerp lerpMs, and the credible round trip it is
// made of; both negative when there is no bound but sv_maxunlag.
//
// The server's RTT (ackState.rttMs) is timed by the client's acks, so a
// client that reads its snapshots at once but holds its acks back
// stretches it at will, and with it the rewind its claims are credited
// (the "backtrack" cheat). The link's own round trips cannot be stretched
// that way: the websocket's ping/pong (the client's websocket library
// answers it) and, on Linux, the kernel's TCP estimate (tcpi_rtt), which a
// client cannot raise without delaying everything it sends. The lowest of
// these and the ack RTT is the credible round trip; the TCP one is skipped
// for a loopback peer (a reverse proxy on the host: it would measure only
// the hop to the proxy). The server's own net_fakelag and net_fakejitter
// delay the acks above the socket, so they are added back. The bound is
// credible RTT + lerp + UnlagSlackMs (Source bounds the rewind by
// sv_maxunlag alone).
//
// With sv_cheats 1 the ack RTT is trusted (client-side net_fakelag, which
// delays snapshots above the socket exactly as held acks do, is then
// compensated); a link without its own measure (Pipe) has no bound either.
// Until the first pong the ping RTT counts as 0.
func (r *rewinder) rewindBound(ss *session, lerpMs float64) (rttMs, boundMs float64) {
	if r.vars.cheats.Get() || ss.conn == nil {
		return -1, -1
	}
	link, ok := ss.conn.LinkRTT()
	if !ok {
		return -1, -1
	}
	rtt := math.Max(link.PingMs, 0)
	if link.TCPMs >= 0 && !link.Loopback {
		rtt = math.Min(rtt, link.TCPMs)
	}
	rtt += r.vars.fake.LagMs + r.vars.fake.JitterMs
	if ss.acks.rttMs >= 0 {
		rtt = math.Min(rtt, ss.acks.rttMs)
	}
	return rtt, rtt + lerpMs + UnlagSlackMs
}

// rewoundHitboxes returns every player's hitbox (the shooter's included, for
// TraceShot to skip) as the shooter of cmd saw them, of the players that
// shot (nil: any hitscan shot from the shooter) can strike (reach.mayHit).
func (r *rewinder) rewoundHitboxes(ss *session, cmd *shared.UserCmd, shot *shared.Shot) ([]game.Hitbox, rewindInfo) {
	info := r.rewindTick(ss, cmd)
	boxes := r.boxBuf[:0]
	reach := r.shotReach(ss, info.Used, shot)
	cands, all := r.candidates(ss, &reach)
	n := len(cands)
	if all {
		n = len(r.w.Players)
	}
	for k := range n {
		o := r.w.Players[k]
		if !all {
			o = r.w.Players[cands[k]]
		}
		if !reach.mayHit(r, ss, o) {
			continue
		}
		b := o.Hitbox()
		if o.ID != ss.player.ID {
			x, y, alive, fromView, ok := r.drawnBy(ss, o.ID, info.Used)
			switch {
			case !ok:
				info.NotRewound++
			case fromView:
				info.FromView++
			default:
				info.FromRecord++
			}
			if ok {
				b.X, b.Y = x, y
				b.Alive = b.Alive && alive
			}
			info.MaxRewindGap = math.Max(info.MaxRewindGap, math.Hypot(b.X-o.State.X, b.Y-o.State.Y))
		}
		boxes = append(boxes, b)
	}
	info.OutOfReach = len(r.w.Players) - len(boxes)
	r.boxBuf = boxes
	return boxes, info
}

// drawnBy returns where ss's client drew player id at render tick t, as a
// shot is rewound to it: from the server's copy of that client's
// interpolation (game.History.At, extrapolating up to MaxExtrapolateMs, as
// the client draws it; fromView), rebuilt for id from the snapshots the
// client acknowledged (clientView.entity), else from the tick record. ok
// is false when the server has neither (the player is left at the present).
func (r *rewinder) drawnBy(ss *session, id uint16, t float64) (x, y float64, alive, fromView, ok bool) {
	if v := ss.view.entity(id, t, &ss.acks, r.tickRate); v != nil && v.Hist.Len() > 0 {
		smp, _, _ := v.Hist.At(t, float64(MaxExtrapolateMs)*float64(r.tickRate)/1000)
		return smp.X, smp.Y, smp.Alive, true, true
	}
	x, y, alive, ok = r.lag[id].at(t)
	return x, y, alive, false, ok
}

// judge adds js, a shot of shooter traced against boxes at this tick, to
// r.judged (Local's) with the boxes rewound and present; nothing when
// judged is unset (a server that is not Local).
func (r *rewinder) judge(w *game.World, shooter *game.Player, boxes []game.Hitbox, js JudgedShot) {
	if r.judged == nil {
		return
	}
	js.Shooter, js.Tick = shooter.ID, w.Tick
	for _, b := range boxes {
		if b.ID == shooter.ID {
			continue
		}
		jb := ShotBox{ID: b.ID, X: b.X, Y: b.Y, Alive: b.Alive}
		if o := w.Player(b.ID); o != nil {
			jb.PresentX, jb.PresentY = o.State.X, o.State.Y
		}
		js.Boxes = append(js.Boxes, jb)
	}
	*r.judged = append(*r.judged, js)
}

// presentShots is the game.HitboxSource of a human's command with sv_unlag
// 0 on a Local server: the present hitboxes, as the world traces without
// one, each shot judged against them as it is traced (not at the end of
// the tick, when later commands have moved the players).
type presentShots struct{ r *rewinder }

// ShotHitboxes implements game.HitboxSource.
func (p presentShots) ShotHitboxes(w *game.World, shooter *game.Player, cmd *shared.UserCmd, _ *shared.Shot) ([]game.Hitbox, game.Rewind) {
	boxes := w.PresentHitboxes()
	p.r.judge(w, shooter, boxes, JudgedShot{Cmd: cmd.CommandNumber, RewindTo: float64(w.Tick)})
	return boxes, 0
}

// ShotHitboxes implements game.HitboxSource for r.ss's command: every
// other player's hitbox where that client drew it. It also writes the
// debug log line of the shot, the decision and its reasons.
func (r *rewinder) ShotHitboxes(w *game.World, shooter *game.Player, cmd *shared.UserCmd, shot *shared.Shot) ([]game.Hitbox, game.Rewind) {
	boxes, info := r.rewoundHitboxes(r.ss, cmd, shot)
	var rw game.Rewind
	st := &r.stats
	st.Shots++
	if info.UsedServer {
		rw |= game.RewindRefused
		st.Refused++
	} else {
		st.Claimed++
	}
	if info.Clamped {
		rw |= game.RewindClamped
		st.Clamped++
	}
	rewindMs := (float64(w.Tick) - info.Used) * 1000 / float64(r.tickRate)
	r.judge(w, shooter, boxes, JudgedShot{Cmd: cmd.CommandNumber, RewindTo: info.Used, Unlagged: true,
		RewindMs: rewindMs, Refused: info.UsedServer, Clamped: info.Clamped})
	if r.log.Enabled(context.Background(), slog.LevelDebug) {
		r.log.Debug("shot", "shooter", shooter.Name, "cmd", cmd.CommandNumber, "tick", w.Tick,
			"client_render_tick", info.ClientTick, "server_estimate", info.ServerTick, "ack_estimate", info.AckTick, "rewound_to", info.Used,
			"lerp_ms", info.LerpMs, "rtt_ms", r.ss.acks.rttMs, "link_rtt_ms", info.LinkRTTMs, "bound_ms", info.BoundMs,
			"rewind_ms", rewindMs,
			"used_server_estimate", info.UsedServer, "clamped", info.Clamped, "bounded", info.Bounded,
			"from_view", info.FromView, "from_record", info.FromRecord, "max_rewind_units", info.MaxRewindGap, "out_of_reach", info.OutOfReach)
	}
	return boxes, rw
}
