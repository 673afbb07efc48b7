package server

import (
	"testing"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// withConn gives test session ss a connection (an in-memory pipe nobody
// reads), for benchmarks that write its snapshots: the writer sends each
// through the session's connection (snapshotWriter.send), which a session
// without one lacks. Both ends close when tb ends.
func withConn(tb testing.TB, ss *session) *session {
	ct, st := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
	ss.conn = proto.NewConn(st)
	tb.Cleanup(func() {
		ss.conn.Close("benchmark over")
		ct.Close("benchmark over")
	})
	return ss
}
