package proto

import (
	"testing"

	"tickshot/net/transport"
	"tickshot/shared"
)

// BenchmarkConnRecv is the receive path of one connection, frame by frame:
// a Cmds message written into one end of a transport.Pipe, decoded by the
// Conn at the other end (FakeLag with no conditions set) and taken from
// Recv, one at a time as a client sends them a tick apart:
// `go test ./net/proto -run '^$' -bench ConnRecv`. The server runs this
// path some 65 000 times a second at 1 024 clients. reader: the Conn's
// reader goroutine takes each frame from the transport's Recv (a
// transport that is no Tapper); tapped: the transport's own reader hands
// it over (transport.Tapper, as net/ws and net/rtc do), one goroutine
// hand-off fewer.
func BenchmarkConnRecv(b *testing.B) {
	for _, tapped := range []bool{false, true} {
		name := "reader"
		if tapped {
			name = "tapped"
		}
		b.Run(name, func(b *testing.B) {
			a, z := transport.Pipe(transport.Options{}, transport.Options{})
			var t transport.Transport = z
			if tapped {
				t = tapPipe{z}
			}
			c := NewConn(t)
			defer c.Close("done")
			defer a.Close("done")
			frame := MustEncode(&Cmds{Ack: 99, Seq: 1, Cmds: []shared.UserCmd{validCmd(10)}})
			b.ReportAllocs()
			for b.Loop() {
				for !a.Send(frame) {
				}
				<-c.Recv()
			}
		})
	}
}

// tapPipe is a pipe end that is a transport.Tapper: its frames come
// through its Endpoint's Deliver (transport.Endpoint.TapRecv).
type tapPipe struct{ transport.Transport }

func (p tapPipe) Tap(deliver func(transport.Frame), ended func()) {
	p.Transport.(interface {
		TapRecv(func(transport.Frame), func())
	}).TapRecv(deliver, ended)
}
