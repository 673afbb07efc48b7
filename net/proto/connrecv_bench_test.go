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
// path some 65 000 times a second at 1 024 clients.
func BenchmarkConnRecv(b *testing.B) {
	a, z := transport.Pipe(transport.Options{}, transport.Options{})
	c := NewConn(z)
	defer c.Close("done")
	defer a.Close("done")
	frame := MustEncode(&Cmds{Ack: 99, Seq: 1, Cmds: []shared.UserCmd{validCmd(10)}})
	b.ReportAllocs()
	for b.Loop() {
		for !a.Send(frame) {
		}
		<-c.Recv()
	}
}
