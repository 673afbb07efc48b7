package netclient

import (
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/shared"
)

// A demo recording as the link's tap, and playback as the command source,
// on a client that never reaches a server.

type tapSink struct {
	packets int
	frames  []DemoFrame
	configs int
}

func (s *tapSink) Packet([]byte, time.Time) { s.packets++ }
func (s *tapSink) Frame(f *DemoFrame) {
	cp := *f
	cp.Cmds = append([]shared.UserCmd(nil), f.Cmds...)
	s.frames = append(s.frames, cp)
}
func (s *tapSink) Config(Config)    { s.configs++ }
func (s *tapSink) State(*DemoState) {}

func offlineClient(t *testing.T) *Client {
	t.Helper()
	a, b := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
	t.Cleanup(func() { a.Close("test over"); b.Close("test over") })
	c, err := newClient(proto.NewConn(a), DefaultConfig("tap"), &proto.Accept{PlayerID: 1, TickRate: partsTickRate, Map: "arena", Tick: 100, UpdateRate: 20})
	if err != nil {
		t.Fatal(err)
	}
	c.acceptRaw, c.acceptAt = []byte{0}, t0
	return c
}

func TestRecordingIsTheLinksTap(t *testing.T) {
	c := offlineClient(t)
	sink := &tapSink{}
	if _, err := c.StartRecording(sink); err != nil {
		t.Fatal(err)
	}
	if !c.View().Recording {
		t.Error("View.Recording false while recording")
	}
	if _, err := c.StartRecording(sink); err != ErrRecording {
		t.Errorf("a second StartRecording: %v, want ErrRecording", err)
	}
	c.link.received(proto.Packet{Msg: &proto.Print{Text: "hello"}, Raw: []byte{1, 2}, At: t0})
	c.link.queued(shared.UserCmd{CommandNumber: 1}, partsTickRate)
	c.FrameFunc(t0, func() Input { return Input{} }) // the first Frame: a resync, no ticks
	if sink.packets != 1 || len(sink.frames) != 1 {
		t.Fatalf("sink got %d packets and %d frames, want 1 and 1", sink.packets, len(sink.frames))
	}
	if f := sink.frames[0]; !f.Resync || f.Ticks != 0 || len(f.Cmds) != 1 || f.Cmds[0].CommandNumber != 1 || !f.Now.Equal(t0) {
		t.Errorf("recorded frame %+v, want the first Frame at t0 with the queued command", f)
	}
	c.StopRecording()
	c.link.received(proto.Packet{Msg: &proto.Print{Text: "again"}, Raw: []byte{3}, At: t0})
	c.FrameFunc(t0.Add(time.Millisecond), func() Input { return Input{} })
	if sink.packets != 1 || len(sink.frames) != 1 || c.View().Recording {
		t.Errorf("after StopRecording the sink got %d packets, %d frames (recording %v)", sink.packets, len(sink.frames), c.View().Recording)
	}
}

func TestPlaybackReplacesTheCommandsMade(t *testing.T) {
	c := offlineClient(t)
	p := &Playback{c: c}
	c.cmds = p
	made := shared.UserCmd{CommandNumber: 7, MoveX: 1}
	if got := c.cmds.next(made); got != made {
		t.Errorf("no recorded command left: got %+v, want the one made", got)
	}
	p.queue = []shared.UserCmd{{CommandNumber: 3, MoveY: -1}, {CommandNumber: 4}}
	if got := c.cmds.next(made); got.CommandNumber != 3 || got.MoveY != -1 {
		t.Errorf("got %+v, want recorded command 3", got)
	}
	if got := c.cmds.next(made); got.CommandNumber != 4 || len(p.queue) != 0 {
		t.Errorf("got %+v (left %d), want recorded command 4 and none left", got, len(p.queue))
	}
	if live := (liveCmds{}).next(made); live != made {
		t.Errorf("live source changed the command: %+v", live)
	}
}
