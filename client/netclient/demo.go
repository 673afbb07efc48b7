package netclient

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
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
// Frame tick loop (ReplayFrame), with the clock of the demo (Client.now).
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

type recording struct {
	sink     DemoSink
	frame    DemoFrame
	cfg      Config
	waitFull bool // mid-game: nothing is recorded before a full snapshot
	noDelta  bool // the cl_nodelta to restore after the full snapshot
}

// now is the client's real time: the wall clock, or the demo's.
func (c *Client) now() time.Time {
	if c.nowFunc != nil {
		return c.nowFunc()
	}
	return time.Now()
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
	defer c.changed()
	if c.rec != nil {
		return DemoStart{}, ErrRecording
	}
	if c.acceptRaw == nil {
		return DemoStart{}, errors.New("no Accept to record (not connected to a server)")
	}
	st := DemoStart{Accept: c.acceptRaw, AcceptAt: c.acceptAt, Start: c.acceptAt, PlayerID: c.id,
		TickRate: c.tickRate, Map: c.accept.Map, Name: c.cfg.Name, Config: c.cfg}
	r := &recording{sink: sink, cfg: c.cfg}
	if c.clk.haveSnap || c.link.st.snapshotsReceived > 0 {
		st.MidGame, st.Start = true, c.now()
		r.waitFull, r.noDelta = true, c.cfg.NoDelta
		c.cfg.NoDelta = true
		c.sendSettings()
	}
	c.rec = r
	return st, nil
}

// StopRecording ends the recording (the sink is not closed).
func (c *Client) StopRecording() {
	defer c.changed()
	if c.rec == nil {
		return
	}
	if c.rec.waitFull {
		c.cfg.NoDelta = c.rec.noDelta
		c.sendSettings()
	}
	c.rec = nil
}

// syncConfig hands the sink the Config when it changed (console).
func (c *Client) syncConfig() {
	if r := c.rec; c.cfg != r.cfg && !r.waitFull {
		r.cfg = c.cfg
		r.sink.Config(c.cfg)
	}
}

func (c *Client) recordPacket(p proto.Packet) {
	r := c.rec
	if r.waitFull {
		s, ok := p.Msg.(*proto.Snapshot)
		if !ok || s.Baseline != 0 || !c.link.fresh(s.Tick) {
			return
		}
		r.waitFull = false
		c.cfg.NoDelta = r.noDelta
		r.cfg = c.cfg
		r.sink.Config(c.cfg)
		r.sink.State(c.demoState())
		c.sendSettings()
	}
	c.syncConfig()
	r.sink.Packet(p.Raw, p.At)
}

func (c *Client) recordFrame() {
	r := c.rec
	if r == nil {
		return // stopped during the frame
	}
	c.syncConfig()
	r.frame.Acc = c.clk.acc()
	if !r.waitFull {
		r.sink.Frame(&r.frame)
	}
	r.frame.Cmds = r.frame.Cmds[:0]
}

func (c *Client) demoState() *DemoState {
	p := c.pred
	st := &DemoState{CmdNum: p.cmdNum, AckCmd: p.ackCmd, SentUpTo: c.link.sentUpTo, Predicted: p.state(),
		Pending: p.pending(), LastEventID: c.lastEventID}
	for id, name := range c.names {
		st.Names = append(st.Names, DemoName{ID: id, Name: name})
	}
	sort.Slice(st.Names, func(i, j int) bool { return st.Names[i].ID < st.Names[j].ID })
	return st
}

// NewDemoClient makes a playback client: accept is the recorded Accept
// frame, t the transport the demo's frames arrive on (whatever is sent on
// it goes nowhere), now the demo's clock.
func NewDemoClient(t transport.Transport, accept []byte, at time.Time, cfg Config, now func() time.Time) (*Client, error) {
	m, err := proto.Decode(accept)
	if err != nil {
		return nil, err
	}
	a, ok := m.(*proto.Accept)
	if !ok {
		return nil, fmt.Errorf("first frame is %s, not accept", m.Type())
	}
	conn := proto.NewConn(t)
	c, err := newClient(conn, cfg, a)
	if err != nil {
		return nil, err
	}
	c.nowFunc, c.link.heard, c.acceptRaw, c.acceptAt = now, at, accept, at
	return c, nil
}

// SeedDemoState applies a mid-game recording's DemoState (before its
// first snapshot).
func (c *Client) SeedDemoState(st *DemoState) {
	defer c.changed()
	c.pred.seed(st.CmdNum, st.AckCmd, st.Predicted, st.Pending)
	c.link.sentUpTo, c.lastEventID = st.SentUpTo, st.LastEventID
	for _, n := range st.Names {
		c.names[n.ID] = n.Name
	}
}

// ReplayConfig applies a recorded Config (the name stays).
func (c *Client) ReplayConfig(cfg Config) {
	defer c.changed()
	cfg.Name = c.cfg.Name
	c.cfg = cfg
}

// ErrDemoDesync is returned by ReplayFrame when the client made another
// number of commands than were recorded.
var ErrDemoDesync = errors.New("demo out of step: the client made another number of commands than recorded")

// ReplayFrame runs a recorded Frame: the same clock steps and ticks, each
// tick's usercmd being the recorded one (prediction runs it as it ran
// live). Call it with the client's clock (NewDemoClient's now) at f.Now.
func (c *Client) ReplayFrame(f *DemoFrame) error {
	defer c.changed()
	c.clk.replay(f.Now, f.Resync, f.Skip, f.Ticks, f.Acc)
	if f.Resync && c.clk.haveSnap {
		c.link.resetPacing()
	}
	if f.Ticks == 0 {
		if len(f.Cmds) > 0 {
			return ErrDemoDesync
		}
		return nil
	}
	c.replay = append(c.replay[:0], f.Cmds...)
	c.runTicks(f.Now, f.Ticks, func() Input { return Input{} })
	left := len(c.replay)
	c.replay = c.replay[:0]
	if left > 0 {
		return ErrDemoDesync
	}
	return nil
}

// takeReplay returns the recorded command that replaces made.
func (c *Client) takeReplay(made shared.UserCmd) shared.UserCmd {
	r := c.replay[0]
	c.replay = c.replay[1:]
	return r
}

// DeliverDemo takes the next n frames a demo transport delivered from the
// connection and handles them as Poll does, waiting at most wait for
// them. It returns an error when the connection ended (a frame the
// client refused, a Disconnect in the demo) or the frames did not come.
func (c *Client) DeliverDemo(n int, wait time.Duration) error {
	defer c.changed()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for range n {
		select {
		case p, ok := <-c.link.recv():
			if !ok {
				reason, _ := c.link.conn.Reason()
				c.err = &ClosedError{Reason: reason, Remote: true}
				return c.err
			}
			c.handle(p)
		case <-timer.C:
			return fmt.Errorf("a demo frame was not delivered within %v", wait)
		}
	}
	select {
	case <-c.link.conn.Done():
		reason, _ := c.link.conn.Reason()
		return fmt.Errorf("the client refused the frame: %s", reason)
	default:
	}
	return c.err
}

// PredictedOf returns the state predicted for command n, if still held.
func (c *Client) PredictedOf(n uint32) (shared.PlayerState, bool) { return c.pred.stateOf(n) }

// LastCommand returns the newest usercmd made or replayed (a demo's
// window draws the recorded aim from it).
func (c *Client) LastCommand() (shared.UserCmd, bool) { return c.pred.last() }
