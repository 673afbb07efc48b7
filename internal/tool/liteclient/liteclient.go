// Package liteclient is a client that does only Tickshot's wire protocol,
// over any transport.Transport: the Hello and join, every snapshot's
// entity and pickup deltas applied against the baseline it names and its
// events decoded (with net/proto, as netclient's link does, so the frame
// it holds is the server's and a snapshot that does not decode ends it
// with a protocol error), the acks (Cmds.Ack, AckBits, AckAges) and one
// scripted usercmd per server tick, sent in packets at cl_cmdrate with
// cl_cmdbackup earlier ones. It moves around, aims at the nearest player
// it was sent and fires now and then, claiming the render time an
// interpolating client would draw at (TickCount + TickFrac - lerp), so
// the server's lag compensation runs for its shots as for a person's.
//
// It neither predicts, interpolates nor draws, and has no bot brain: a
// thousand of them fit in one process on two cores, which is what it is
// for (the server benchmark ServerTick in package server, `tickshot
// loadtest --lite`). It imports neither Ebiten nor a socket library: the
// caller dials (net/ws) or pipes (transport.HeldPipe, server.Local).
//
// A Client is driven by one goroutine: either Run (real time, for a
// socket), or Poll and Tick on the caller's clock (a virtual one).
package liteclient

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/shared"
)

// Config is what a lite client announces in its Hello, and its script's
// seed. Zero fields take DefaultConfig's values.
type Config struct {
	Name        string  // player name (the server makes it unique)
	Password    string  // the join password, "" for none
	Rate        int     // rate, bytes/s
	UpdateRate  int     // cl_updaterate, snapshots/s wanted
	CmdRate     int     // cl_cmdrate, command packets/s (0: the tick rate)
	InterpMs    int     // cl_interp, ms
	InterpRatio float64 // cl_interp_ratio
	CmdBackup   int     // cl_cmdbackup: earlier usercmds resent in each packet
	Spectate    bool    // join as a spectator
	NoDelta     bool    // cl_nodelta: ask for full snapshots only
	// Seed picks the script's moves, aim and bursts of fire: clients with
	// different seeds wander apart.
	Seed uint64
}

// DefaultConfig returns the settings of a person's client with the
// defaults of netclient.DefaultConfig (rate 196608, cl_updaterate 20,
// cl_cmdrate the tick rate, cl_interp 100 ms, cl_interp_ratio 2,
// cl_cmdbackup 2).
func DefaultConfig(name string, seed uint64) Config {
	return Config{Name: name, Rate: 196608, UpdateRate: 20, InterpMs: 100, InterpRatio: 2, CmdBackup: 2, Seed: seed}
}

func (cfg Config) withDefaults() Config {
	d := DefaultConfig(cfg.Name, cfg.Seed)
	if cfg.Rate == 0 {
		cfg.Rate = d.Rate
	}
	if cfg.UpdateRate == 0 {
		cfg.UpdateRate = d.UpdateRate
	}
	if cfg.InterpMs == 0 {
		cfg.InterpMs = d.InterpMs
	}
	if cfg.InterpRatio == 0 {
		cfg.InterpRatio = d.InterpRatio
	}
	if cfg.CmdBackup == 0 {
		cfg.CmdBackup = d.CmdBackup
	}
	return cfg
}

// RejectedError is the server's refusal of the join (a Reject).
type RejectedError struct{ Reason string }

func (e *RejectedError) Error() string { return "rejected: " + e.Reason }

// ClosedError says why the connection ended and whether the server said it.
type ClosedError struct {
	Reason string
	Remote bool
}

func (e *ClosedError) Error() string {
	if e.Remote {
		return "disconnected by the server: " + e.Reason
	}
	return "disconnected: " + e.Reason
}

// Stats are a lite client's counters.
type Stats struct {
	Snapshots       int // snapshots applied
	FullSnapshots   int // of which full (no baseline)
	BaselineMissing int // dropped: their baseline was no longer held
	Stale           int // dropped: not newer than the newest applied
	Lost            int // Seq numbers skipped (never arrived)
	Events          int // events decoded
	Scoreboards     int // snapshots applied that carried a scoreboard (Match)
	Cmds            int // usercmds made
	CmdPackets      int // Cmds messages sent
	Shots           int // usercmds made with the attack button down
	Choked          int // snapshots the server's rate held back (the sum of Snapshot.Choke)
	// SnapshotBytes is the bytes on the wire of the snapshots applied;
	// SnapshotPeak the largest of them since the join or ResetPeak.
	SnapshotBytes uint64
	SnapshotPeak  int
	// PingMs is the server's RTT of this client in its newest snapshot.
	PingMs int
	// InView is the number of other players in the newest frame.
	InView int
	// Transport are the transport's counters (bytes and frames each way).
	Transport transport.Stats
}

// cmdRing is how many recent usercmds are kept for backups (at least
// proto.MaxCmdsPerMsg).
const cmdRing = 2 * proto.MaxCmdsPerMsg

// MaxCmdsPerTick bounds the usercmds one Tick makes after a stall (a
// late ticker): the rest of the time is skipped, as netclient resyncs.
const MaxCmdsPerTick = 8

// Client is one lite client. Its methods run on one goroutine.
type Client struct {
	cfg  Config
	conn *proto.Conn
	err  error // the end, once it ended (ClosedError, RejectedError)

	// The join.
	accept   *proto.Accept
	tickRate int
	lerpMs   float64
	joinedAt time.Time // when the Accept arrived: the command clock's origin
	made     uint64    // usercmds made since the join (the command clock)

	// Snapshots in: the frame, the acks.
	frames     proto.FrameRing
	ents       []proto.EntityState
	picks      []proto.PickupState
	evBuf      []proto.Event
	self       proto.SelfState
	newestSeq  uint32
	seqBits    uint32
	newestTick uint32
	newestAt   time.Time // the newest snapshot's arrival
	ackCmd     uint32    // the newest command the server ran (Snapshot.AckCmd)

	// Usercmds out.
	cmdNum   uint32
	cmds     [cmdRing]shared.UserCmd
	madeWith [cmdRing]uint32 // newestSeq when each was made (AckAges)
	sentUpTo uint32
	cmdSeq   uint32
	cmdAcc   int // cl_cmdrate accumulator: a packet is due when it reaches the tick rate

	script script
	st     Stats
}

// New starts a lite client over t (give t proto.ClientOptions()): it sends
// the Hello at once. Drive it with Run, or with Poll and Tick.
func New(t transport.Transport, cfg Config) *Client {
	cfg = cfg.withDefaults()
	c := &Client{cfg: cfg, conn: proto.NewConn(t)}
	c.script.rng = rand.New(rand.NewPCG(cfg.Seed, 0x11e))
	c.conn.Send(&proto.Hello{Protocol: proto.ProtocolVersion, Name: cfg.Name, Rate: uint32(cfg.Rate),
		UpdateRate: uint16(cfg.UpdateRate), CmdRate: uint16(cfg.CmdRate), InterpMs: uint16(cfg.InterpMs),
		InterpRatio: float32(cfg.InterpRatio), NoDelta: cfg.NoDelta, Spectate: cfg.Spectate, Password: cfg.Password})
	return c
}

// Joined reports whether the server accepted the client.
func (c *Client) Joined() bool { return c.accept != nil }

// Accept returns the server's Accept, nil before it arrived.
func (c *Client) Accept() *proto.Accept { return c.accept }

// ID is the client's player, 0 before the join.
func (c *Client) ID() uint16 {
	if c.accept == nil {
		return 0
	}
	return c.accept.PlayerID
}

// Err is why the client ended (*ClosedError, *RejectedError), nil while it runs.
func (c *Client) Err() error { return c.err }

// Frame returns the newest snapshot's tick, its other players and its
// pickups, as rebuilt from the deltas (sorted by ID; valid until the next
// Poll: copy to keep).
func (c *Client) Frame() (tick uint32, ents []proto.EntityState, picks []proto.PickupState) {
	return c.newestTick, c.ents, c.picks
}

// Self is the client's own state in the newest snapshot.
func (c *Client) Self() proto.SelfState { return c.self }

// Stats returns the counters.
func (c *Client) Stats() Stats {
	s := c.st
	s.Transport = c.conn.Stats()
	return s
}

// ResetPeak starts Stats.SnapshotPeak afresh (a measuring window's start).
func (c *Client) ResetPeak() { c.st.SnapshotPeak = 0 }

// Close ends the connection with a reason the server is told.
func (c *Client) Close(reason string) {
	c.conn.Close(reason)
	if c.err == nil {
		c.err = &ClosedError{Reason: reason}
	}
}

// Poll handles every message that has arrived, without waiting: the
// Accept, snapshots (applied and to be acked by the next packet), the
// rest ignored. It returns the client's end once it ended: the server's
// Reject, the connection's close, a snapshot that did not decode.
func (c *Client) Poll(now time.Time) error {
	for c.err == nil {
		select {
		case p, ok := <-c.conn.Recv():
			if !ok {
				c.ended()
				return c.err
			}
			c.handle(p, now)
		default:
			return c.err
		}
	}
	return c.err
}

// ended records the connection's end as the client's.
func (c *Client) ended() {
	if c.err == nil {
		reason, remote := c.conn.Reason()
		c.err = &ClosedError{Reason: reason, Remote: remote}
	}
}

// handle takes one message; p.At is its arrival (now when it has none).
func (c *Client) handle(p proto.Packet, now time.Time) {
	at := p.At
	if at.IsZero() {
		at = now
	}
	switch m := p.Msg.(type) {
	case *proto.Accept:
		c.join(m, at)
	case *proto.Reject:
		c.err = &RejectedError{Reason: m.Reason}
		c.conn.Close("rejected")
	case *proto.Snapshot:
		if c.accept != nil && c.snapshot(m, at) {
			c.st.SnapshotBytes += uint64(p.Size)
			c.st.SnapshotPeak = max(c.st.SnapshotPeak, p.Size)
		}
	}
}

func (c *Client) join(a *proto.Accept, at time.Time) {
	if c.accept != nil {
		return
	}
	c.accept, c.joinedAt = a, at
	c.tickRate = max(int(a.TickRate), 1)
	c.newestTick, c.newestAt = a.Tick, at
	ur := int(max(a.UpdateRate, 1))
	c.lerpMs = math.Round(math.Min(game.InterpPeriodMs(float64(c.cfg.InterpMs), c.cfg.InterpRatio, ur), proto.MaxInterpMs))
	if c.cfg.CmdRate == 0 || c.cfg.CmdRate > c.tickRate {
		c.cfg.CmdRate = c.tickRate
	}
}

// snapshot rebuilds s's frames against its baseline, decodes its events
// and records it for the acks; a malformed delta or event block closes
// the connection with a protocol error, as netclient does. It reports
// whether s was applied.
func (c *Client) snapshot(s *proto.Snapshot, at time.Time) bool {
	if c.st.Snapshots > 0 && s.Tick <= c.newestTick {
		c.st.Stale++
		return false
	}
	base, pickBase, ok := c.baseline(s.Baseline)
	if !ok {
		c.st.BaselineMissing++
		return false
	}
	ents, err := proto.ApplyEntityDelta(c.ents[:0], base, s.EntityDelta)
	if err == nil {
		c.picks, err = proto.ApplyPickupDelta(c.picks[:0], pickBase, s.PickupDelta)
	}
	if err == nil {
		c.evBuf, err = proto.DecodeEvents(c.evBuf[:0], s.Tick, s.EventData)
	}
	if err != nil {
		c.fail(fmt.Errorf("snapshot %d: %w", s.Seq, err))
		return false
	}
	c.ents = ents
	c.frames.Put(s.Seq, ents)
	c.frames.PutPickups(s.Seq, c.picks)
	c.st.Events += len(c.evBuf)
	c.st.Snapshots++
	if s.Match != nil {
		c.st.Scoreboards++
	}
	c.st.PingMs, c.st.InView = int(s.PingMs), len(ents)
	c.self, c.ackCmd = s.Self, s.AckCmd
	c.newestTick, c.newestAt = s.Tick, at
	c.st.Choked += int(s.Choke)
	c.trackSeq(s.Seq)
	return true
}

// baseline returns the frames of snapshot seq, which a snapshot's deltas
// apply to: none for seq 0 (a full snapshot, counted); false when the
// ring no longer holds it.
func (c *Client) baseline(seq uint32) ([]proto.EntityState, []proto.PickupState, bool) {
	if seq == 0 {
		c.st.FullSnapshots++
		return nil, nil, true
	}
	ents, ok := c.frames.Get(seq)
	picks, _ := c.frames.Pickups(seq)
	return ents, picks, ok
}

// fail ends the client on a protocol error.
func (c *Client) fail(err error) {
	reason := "protocol error: " + err.Error()
	c.conn.Close(reason)
	c.err = &ClosedError{Reason: reason}
}

// trackSeq records snapshot seq's arrival for Ack and AckBits (bit i: Seq
// newest-1-i arrived) and counts the Seqs skipped.
func (c *Client) trackSeq(seq uint32) {
	if seq <= c.newestSeq {
		return
	}
	shift := seq - c.newestSeq
	switch {
	case c.newestSeq == 0 || shift > 32:
		c.seqBits = 0
	default:
		c.seqBits = c.seqBits<<shift | 1<<(shift-1)
	}
	if c.newestSeq != 0 {
		c.st.Lost += int(shift - 1)
	}
	c.newestSeq = seq
}

// Tick makes the usercmds due at now (one per server tick since the join,
// at most MaxCmdsPerTick at once) and sends one Cmds packet with them when
// cl_cmdrate says one is due. Before the join it does nothing.
func (c *Client) Tick(now time.Time) {
	if c.accept == nil || c.err != nil {
		return
	}
	due := uint64(now.Sub(c.joinedAt) * time.Duration(c.tickRate) / time.Second)
	if due <= c.made {
		return
	}
	if due-c.made > MaxCmdsPerTick {
		c.made = due - MaxCmdsPerTick // a stall: skip ahead
	}
	send := false
	for ; c.made < due; c.made++ {
		c.makeCmd(now)
		c.cmdAcc += c.cfg.CmdRate
		if c.cmdAcc >= c.tickRate {
			c.cmdAcc -= c.tickRate
			send = true
		}
	}
	// The usercmds of one Tick go out together, as netclient's of one
	// Frame (Source's CL_Move): a late ticker's catch-up is one packet,
	// not a burst that the server's flood limit counts.
	if send {
		c.sendCmds()
	}
}

// clock is the client's estimate of the server's tick now: the newest
// snapshot's tick advanced at the tick rate since it arrived (Source's
// tick_count), in whole ticks and 1/256ths.
func (c *Client) clock(now time.Time) (uint32, uint8) {
	t := float64(c.newestTick) + now.Sub(c.newestAt).Seconds()*float64(c.tickRate)
	whole := math.Floor(t)
	return uint32(whole), uint8(min(255, math.Floor((t-whole)*256)))
}

// makeCmd makes the next usercmd from the script.
func (c *Client) makeCmd(now time.Time) {
	c.cmdNum++
	tick, frac := c.clock(now)
	cmd := shared.UserCmd{CommandNumber: c.cmdNum, TickCount: tick, TickFrac: frac,
		Msec: shared.MsecFor(c.tickRate), LerpMsec: uint16(c.lerpMs), Weapon: c.self.Weapon}
	c.script.steer(&cmd, c)
	if cmd.Buttons&shared.ButtonAttack != 0 {
		c.st.Shots++
	}
	i := c.cmdNum % cmdRing
	c.cmds[i], c.madeWith[i] = cmd, c.newestSeq
	c.st.Cmds++
}

// sendCmds sends the usercmds not yet sent with cl_cmdbackup earlier ones
// and the acks.
func (c *Client) sendCmds() {
	from := c.sentUpTo + 1 - min(uint32(c.cfg.CmdBackup), c.sentUpTo)
	from = max(from, c.cmdNum+1-min(c.cmdNum, proto.MaxCmdsPerMsg), 1)
	c.cmdSeq++
	m := &proto.Cmds{Ack: c.newestSeq, AckBits: c.seqBits, Seq: c.cmdSeq, Cmds: make([]shared.UserCmd, 0, c.cmdNum-from+1)}
	for n := from; n <= c.cmdNum; n++ {
		m.Cmds = append(m.Cmds, c.cmds[n%cmdRing])
		if age := c.newestSeq - c.madeWith[n%cmdRing]; age != 0 && m.AckAges == nil {
			m.AckAges = make([]uint8, n-from, c.cmdNum-from+1)
		}
		if m.AckAges != nil {
			m.AckAges = append(m.AckAges, uint8(min(c.newestSeq-c.madeWith[n%cmdRing], proto.MaxAckAge)))
		}
	}
	if c.conn.Send(m) {
		c.sentUpTo = c.cmdNum
		c.st.CmdPackets++
	}
}

// Run drives the client in real time until ctx ends (then it closes with
// "load test over" and returns nil) or the client ends (its error):
// messages are handled as they arrive, usercmds made at the server's tick
// rate.
func (c *Client) Run(ctx context.Context) error {
	tk := time.NewTicker(time.Second / 64)
	defer tk.Stop()
	joined := false
	for {
		select {
		case <-ctx.Done():
			c.Close("load test over")
			return nil
		case p, ok := <-c.conn.Recv():
			if !ok {
				c.ended()
				return c.err
			}
			c.handle(p, time.Now())
		case now := <-tk.C:
			c.Tick(now)
		}
		if c.err != nil {
			return c.err
		}
		if !joined && c.accept != nil {
			joined = true
			tk.Reset(time.Second / time.Duration(c.tickRate))
		}
	}
}
