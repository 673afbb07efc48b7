package netclient

import (
	"errors"
	"time"

	"tickshot/net/proto"
	"tickshot/shared"
)

// Demos (Source's record / playdemo; Quake 3 and Teeworlds record the same
// way): a recording client hands a DemoSink, in the order it did them,
// every frame it took from its connection (the bytes as received, with
// their arrival time, after net_fake* as it saw them), every Frame it ran
// (its real time, the ticks it ran and the usercmds it made), and every
// change of its Config. Playback feeds the same things back in the same
// order into a Client built from the recorded Accept: the frames through a
// transport and proto.Conn like a server's, the commands through the same
// Frame tick loop (Playback.Frame), with the clock of the demo (Client.now).
// The client so computes bit for bit what it computed when recording:
// prediction, interpolation, events and net_graph figures.

// DemoFrame is one Frame of a recording client.
type DemoFrame struct {
	Now    time.Time        // the Frame's real time
	Resync bool             // the frame resynchronised the clock (first frame, stall)
	Skip   int              // ticks of real time run without commands (longer than MaxFrameTime)
	Ticks  int              // ticks run, each with a command once a snapshot has arrived
	Acc    time.Duration    // real time left over short of a tick after the frame
	Cmds   []shared.UserCmd // the usercmds made, oldest first
}

// DemoCmd is a usercmd with the state it predicted.
type DemoCmd struct {
	Cmd   shared.UserCmd
	State shared.PlayerState
}

// DemoName is one player name the client knew.
type DemoName struct {
	ID   uint16
	Name string
}

// DemoState is what a recording started in the middle of a game needs
// besides the Accept and a full snapshot: the commands not yet acked with
// their predictions (so reconciliation on the first snapshot finds what it
// found live), the player names the server no longer sends, and the
// newest event applied.
type DemoState struct {
	CmdNum, AckCmd, SentUpTo uint32
	Predicted                shared.PlayerState
	Pending                  []DemoCmd // AckCmd (if not 0) .. CmdNum
	Names                    []DemoName
	LastEventID              uint32
	// Scores is the scoreboard table the client held (names apart:
	// Names): the snapshots after it carry only deltas (proto.Snapshot.Scores).
	Scores []proto.ScoreEntry
}

// DemoStart is what a recording starts with (the demo's header and first
// record).
type DemoStart struct {
	Accept   []byte    // the Accept frame as received
	AcceptAt time.Time // its arrival
	Start    time.Time // the recording's time zero: the Accept's arrival, or now mid-game
	MidGame  bool      // started after snapshots had arrived (DemoState follows)
	PlayerID uint16
	TickRate int
	Map      string
	Name     string
	Config   Config
}

// DemoSink receives a recording. Its methods are called on the client's
// goroutine.
type DemoSink interface {
	Packet(raw []byte, at time.Time)
	Frame(f *DemoFrame)
	Config(cfg Config)
	State(st *DemoState)
}

// tap is what a demo recording hears: from the link, every packet it
// received and every usercmd it queued to send; from Client.FrameFunc,
// every Frame. noTap is the link's tap while nothing is recorded.
type tap interface {
	packet(p proto.Packet)
	cmd(cmd shared.UserCmd)
	frame(f DemoFrame)
}

type noTap struct{}

func (noTap) packet(proto.Packet) {}
func (noTap) cmd(shared.UserCmd)  {}
func (noTap) frame(DemoFrame)     {}

// recording is the tap of a running recording: it hands sink what it
// hears, and the Config when it changed.
type recording struct {
	c        *Client
	sink     DemoSink
	cmds     []shared.UserCmd // the usercmds of the Frame running, oldest first
	cfg      Config           // the Config the sink has
	waitFull bool             // mid-game: nothing is recorded before a full snapshot
	noDelta  bool             // the cl_nodelta to restore after the full snapshot
}

// recording returns the running recording, nil when none.
func (l *link) recording() *recording {
	r, _ := l.tap.(*recording)
	return r
}

// ErrRecording is returned by StartRecording while a recording runs.
var ErrRecording = errors.New("already recording a demo (stop first)")

// StartRecording starts a demo into sink and returns what the demo's
// header needs. Started before the first snapshot was handled (right
// after Connect), the recording holds everything the client received.
// Started later, the client asks the server for a full snapshot
// (Settings with cl_nodelta 1, restored once it arrived: no protocol
// change), records nothing before it, and hands sink the DemoState it
// needs first; playback then starts at that snapshot as after a connect
// (interpolation histories and the clock start afresh; prediction is
// exact from the first command).
func (c *Client) StartRecording(sink DemoSink) (DemoStart, error) {
	defer c.views.stale()
	if c.link.recording() != nil {
		return DemoStart{}, ErrRecording
	}
	if c.acceptRaw == nil {
		return DemoStart{}, errors.New("no Accept to record (not connected to a server)")
	}
	st := DemoStart{Accept: c.acceptRaw, AcceptAt: c.acceptAt, Start: c.acceptAt, PlayerID: c.id,
		TickRate: c.tickRate, Map: c.accept.Map, Name: c.cfg.Name, Config: c.cfg}
	r := &recording{c: c, sink: sink, cfg: c.cfg}
	if c.clk.haveSnap || c.link.st.snapshotsReceived > 0 {
		st.MidGame, st.Start = true, c.clk.now()
		r.waitFull, r.noDelta = true, c.cfg.NoDelta
		c.cfg.NoDelta = true
		c.link.sendSettings(c.cfg)
	}
	c.link.tap = r
	return st, nil
}

// StopRecording ends the recording (the sink is not closed).
func (c *Client) StopRecording() {
	defer c.views.stale()
	r := c.link.recording()
	if r == nil {
		return
	}
	if r.waitFull {
		c.cfg.NoDelta = r.noDelta
		c.link.sendSettings(c.cfg)
	}
	c.link.tap = noTap{}
}

// syncConfig hands the sink the Config when it changed (console).
func (r *recording) syncConfig() {
	if c := r.c; c.cfg != r.cfg && !r.waitFull {
		r.cfg = c.cfg
		r.sink.Config(c.cfg)
	}
}

// packet records a packet as received (before the client handles it).
// Mid-game, the first full snapshot newer than the newest applied starts
// the recording: cl_nodelta is restored and the sink gets the Config and
// the DemoState first.
func (r *recording) packet(p proto.Packet) {
	c := r.c
	if r.waitFull {
		s, ok := p.Msg.(*proto.Snapshot)
		if !ok || s.Baseline != 0 || !c.link.fresh(s.Tick) {
			return
		}
		r.waitFull = false
		c.cfg.NoDelta = r.noDelta
		r.cfg = c.cfg
		r.sink.Config(c.cfg)
		r.sink.State(r.state())
		c.link.sendSettings(c.cfg)
	}
	r.syncConfig()
	r.sink.Packet(p.Raw, p.At)
}

// cmd records a usercmd of the Frame running.
func (r *recording) cmd(cmd shared.UserCmd) { r.cmds = append(r.cmds, cmd) }

// frame records a Frame with the usercmds it made.
func (r *recording) frame(f DemoFrame) {
	r.syncConfig()
	f.Cmds = r.cmds
	if !r.waitFull {
		r.sink.Frame(&f)
	}
	r.cmds = r.cmds[:0]
}

// state is what a mid-game recording starts with besides the snapshot.
func (r *recording) state() *DemoState {
	c, p := r.c, r.c.pred
	st := &DemoState{CmdNum: p.cmdNum, AckCmd: p.ackCmd, SentUpTo: c.link.sentUpTo, Predicted: p.state(),
		Pending: p.pending(), LastEventID: c.match.lastEventID, Names: c.match.heard(), Scores: c.match.scores}
	return st
}

// cmdSource gives the usercmd that is predicted and sent in place of the
// one made from the input: live (liveCmds) that one; in demo playback
// (Playback) the recorded one.
type cmdSource interface {
	next(made shared.UserCmd) shared.UserCmd
}

type liveCmds struct{}

func (liveCmds) next(made shared.UserCmd) shared.UserCmd { return made }

// PredictedOf returns the state predicted for command n, if still held.
func (c *Client) PredictedOf(n uint32) (shared.PlayerState, bool) { return c.pred.stateOf(n) }
