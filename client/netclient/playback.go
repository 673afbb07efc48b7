package netclient

import (
	"errors"
	"fmt"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/shared"
)

// Playback plays a recorded demo into a Client built from the recorded
// Accept. It is the client's transport and its command source: the
// recorded frames arrive on a transport as a server's would (the caller
// writes them to its far end; Deliver handles them as Poll does), and the
// recorded usercmds replace the ones the client makes (Frame runs the
// same Frame tick loop as live). The client so computes bit for bit what
// it computed when recording (demo.go).
type Playback struct {
	c     *Client
	queue []shared.UserCmd // the recorded usercmds of the Frame replayed
}

// NewPlayback makes a playback client: accept is the recorded Accept
// frame, t the transport the demo's frames arrive on (whatever is sent on
// it goes nowhere), now the demo's clock.
func NewPlayback(t transport.Transport, accept []byte, at time.Time, cfg Config, now func() time.Time) (*Playback, error) {
	m, err := proto.Decode(accept)
	if err != nil {
		return nil, err
	}
	a, ok := m.(*proto.Accept)
	if !ok {
		return nil, fmt.Errorf("first frame is %s, not accept", m.Type())
	}
	c, err := newClient(proto.NewConn(t), cfg, a)
	if err != nil {
		return nil, err
	}
	c.clk.wall, c.stall.heard, c.acceptRaw, c.acceptAt = now, at, accept, at
	p := &Playback{c: c}
	c.cmds = p
	return p, nil
}

// Client returns the client the demo plays into (its View is what the
// demo's window draws).
func (p *Playback) Client() *Client { return p.c }

// next is the recorded usercmd in place of made (cmdSource); made when
// the Frame has no more.
func (p *Playback) next(made shared.UserCmd) shared.UserCmd {
	if len(p.queue) == 0 {
		return made
	}
	r := p.queue[0]
	p.queue = p.queue[1:]
	return r
}

// Seed applies a mid-game recording's DemoState (before its first snapshot).
func (p *Playback) Seed(st *DemoState) {
	c := p.c
	defer c.views.stale()
	c.pred.seed(st.CmdNum, st.AckCmd, st.Predicted, st.Pending)
	c.link.sentUpTo = st.SentUpTo
	c.match.seed(st.LastEventID, st.Names, st.Scores)
}

// Config applies a recorded Config (the name stays).
func (p *Playback) Config(cfg Config) {
	c := p.c
	defer c.views.stale()
	cfg.Name = c.cfg.Name
	c.cfg = cfg
}

// ErrDemoDesync is returned by Playback.Frame when the client made another
// number of commands than were recorded.
var ErrDemoDesync = errors.New("demo out of step: the client made another number of commands than recorded")

// Frame runs a recorded Frame: the same clock steps and ticks, each tick's
// usercmd being the recorded one (prediction runs it as it ran live). Call
// it with the client's clock (NewPlayback's now) at f.Now.
func (p *Playback) Frame(f *DemoFrame) error {
	c := p.c
	defer c.views.stale()
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
	p.queue = append(p.queue[:0], f.Cmds...)
	c.runTicks(f.Now, f.Ticks, func() Input { return Input{} })
	left := len(p.queue)
	p.queue = p.queue[:0]
	if left > 0 {
		return ErrDemoDesync
	}
	return nil
}

// Deliver takes the next n frames the demo's transport delivered and
// handles them as Poll does, waiting at most wait for them. It returns an
// error when the connection ended (a frame the client refused, a
// Disconnect in the demo) or the frames did not come.
func (p *Playback) Deliver(n int, wait time.Duration) error {
	c := p.c
	defer c.views.stale()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for range n {
		select {
		case pk, ok := <-c.link.recv():
			if !ok {
				ce := c.link.closedError()
				ce.Remote = true // whatever ended it, it is the demo's
				c.err = ce
				return c.err
			}
			c.handle(pk)
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
