package server_test

import (
	"strings"
	"testing"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/server"
)

// localAnswer sends hello to a Local over a pipe and steps the server
// until the answer arrives (at most 5 s of real time: the pipe's goroutine).
func localAnswer(t *testing.T, l *server.Local, hello *proto.Hello) proto.Message {
	t.Helper()
	ct, st := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
	l.Serve(st)
	c := proto.NewConn(ct)
	defer c.Close("test over")
	c.Send(hello)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); {
		now = now.Add(time.Second / 64)
		l.Step(now)
		select {
		case p, ok := <-c.Recv():
			if !ok {
				r, _ := c.Reason()
				t.Fatalf("closed without an answer: %s", r)
			}
			return p.Msg
		case <-time.After(time.Millisecond):
		}
	}
	t.Fatal("no answer to the hello")
	return nil
}

// Local admits a Hello as ServeTransport does: the protocol version and
// the join password are checked, and a refusal says why in the same words.
func TestLocalChecksTheHello(t *testing.T) {
	l, err := server.NewLocal(server.Config{Map: "arena", TickRate: 64, Seed: 1, Password: "sesame"})
	if err != nil {
		t.Fatal(err)
	}
	hello := func(protocol uint16, pw string) *proto.Hello {
		return &proto.Hello{Protocol: protocol, Name: "p", Rate: 100000, UpdateRate: 20, CmdRate: 64, InterpMs: 100,
			InterpRatio: 2, Password: pw}
	}
	for _, c := range []struct {
		hello *proto.Hello
		want  string
	}{
		{hello(proto.ProtocolVersion-1, "sesame"), "update your game"},
		{hello(proto.ProtocolVersion, ""), proto.RejectNeedPassword},
		{hello(proto.ProtocolVersion, "open"), proto.RejectWrongPassword},
	} {
		m := localAnswer(t, l, c.hello)
		if r, ok := m.(*proto.Reject); !ok || !strings.Contains(r.Reason, c.want) {
			t.Errorf("hello (protocol %d, password %q): answered %#v, want a Reject with %q", c.hello.Protocol, c.hello.Password, m, c.want)
		}
	}
	if m := localAnswer(t, l, hello(proto.ProtocolVersion, "sesame")); m.Type() != proto.MsgAccept {
		t.Errorf("the right hello: answered %#v, want an Accept", m)
	}
	if cl := l.Clients(); len(cl) != 1 || cl[0].ID == 0 {
		t.Errorf("clients %+v, want the one admitted", cl)
	}
}
