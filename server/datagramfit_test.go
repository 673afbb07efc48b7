package server_test

import (
	"context"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/net/rtc"
	"tickshot/net/transport"
	"tickshot/server"
)

// onWebRTC is a transport that says its data channel is up (the server
// then fits its snapshots into datagrams), over a pipe.
type onWebRTC struct{ transport.Transport }

func (onWebRTC) Kind() string { return transport.KindWebRTC }

// spectate joins srv as a spectator (every player in view) over a pipe,
// the server's end wrapped by wrap, and returns the client's connection.
// It never acks, so every snapshot is a full one.
func spectate(t *testing.T, srv *server.Server, wrap func(transport.Transport) transport.Transport) *proto.Conn {
	t.Helper()
	a, b := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
	go srv.ServeTransport(wrap(b))
	c := proto.NewConn(a)
	t.Cleanup(func() { c.Close("test over") })
	c.Send(&proto.Hello{Protocol: proto.ProtocolVersion, Name: "watcher", Rate: proto.MaxRate, UpdateRate: 20, InterpMs: 100,
		InterpRatio: 2, Spectate: true})
	return c
}

// snapshots reads d of c's snapshots, with their sizes.
func snapshots(t *testing.T, c *proto.Conn, d time.Duration) (snaps []*proto.Snapshot, sizes []int) {
	t.Helper()
	end := time.After(d)
	for {
		select {
		case p, ok := <-c.Recv():
			if !ok {
				r, _ := c.Reason()
				t.Fatalf("connection ended: %s", r)
			}
			if s, isSnap := p.Msg.(*proto.Snapshot); isSnap {
				snaps, sizes = append(snaps, s), append(sizes, p.Size)
			}
		case <-end:
			return snaps, sizes
		}
	}
}

// On a data channel a snapshot whose players do not fit one datagram
// (120 in view, about 1 700 bytes) keeps to rtc.MaxDatagram bytes with
// the players that fit, and every player gets its turn; on a WebSocket
// the same snapshot goes whole.
func TestSnapshotFitsOneDatagram(t *testing.T) {
	const bots = 120
	srv := testserver.Start(t, server.Config{Bots: bots, MaxPlayers: bots + 1, TickRate: 20, Map: "range"})
	whole := spectate(t, srv, func(t transport.Transport) transport.Transport { return t })
	fitted := spectate(t, srv, func(t transport.Transport) transport.Transport { return onWebRTC{t} })
	wholeSnaps, wholeSizes := snapshots(t, whole, 2*time.Second)
	snaps, sizes := snapshots(t, fitted, 3*time.Second)
	big := 0
	for i, s := range wholeSnaps {
		if s.Scores == nil && wholeSizes[i] > rtc.MaxDatagram {
			big++
		}
	}
	if big == 0 {
		t.Fatalf("no snapshot over %d bytes on the WebSocket (sizes %v): the test shows nothing", rtc.MaxDatagram, wholeSizes)
	}
	seen := map[uint16]bool{}
	fitted0 := 0
	for i, s := range snaps {
		if s.Scores != nil {
			continue // the scoreboard alone is over a datagram: it goes as it is
		}
		if sizes[i] > rtc.MaxDatagram {
			t.Errorf("snapshot %d: %d bytes on the data channel, over %d", s.Seq, sizes[i], rtc.MaxDatagram)
		}
		ents, err := proto.ApplyEntityDelta(nil, nil, s.EntityDelta)
		if err != nil {
			t.Fatal(err)
		}
		if len(ents) < bots {
			fitted0++
		}
		for _, e := range ents {
			seen[e.ID] = true
		}
	}
	t.Logf("WebSocket: %d of %d snapshots over %d bytes; data channel: %d of %d snapshots fitted, %d players seen",
		big, len(wholeSnaps), rtc.MaxDatagram, fitted0, len(snaps), len(seen))
	if fitted0 == 0 {
		t.Error("no snapshot left players out: nothing was fitted")
	}
	if len(seen) != bots {
		t.Errorf("%d of %d players appeared in %d snapshots: some never got their turn", len(seen), bots, len(snaps))
	}
}

// With acks (deltas against the acked snapshot) a fitted snapshot keeps
// every player the client holds: one that waits stands still for a
// snapshot rather than vanishing, and the client decodes every snapshot
// (no protocol error, no missing baseline).
func TestFittedSnapshotsKeepPlayersInView(t *testing.T) {
	const bots = 250
	srv := testserver.Start(t, server.Config{Bots: bots, MaxPlayers: bots + 1, TickRate: 20, Map: "range"})
	dial := func(ctx context.Context, addr string) (transport.Transport, error) {
		a, b := transport.Pipe(proto.ClientOptions(), proto.ServerOptions())
		go srv.ServeTransport(onWebRTC{b})
		return a, nil
	}
	cfg := netclient.DefaultConfig("watcher")
	cfg.Spectate = true
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := netclient.Connect(ctx, dial, "pipe", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close("test over")
	dt := 50 * time.Millisecond
	minHeld := bots
	for start := time.Now(); time.Since(start) < 4*time.Second; time.Sleep(dt) {
		if err := c.Poll(); err != nil {
			t.Fatalf("poll: %v", err)
		}
		c.Tick(dt, netclient.Input{})
		if v := c.View(); time.Since(start) > 2*time.Second {
			minHeld = min(minHeld, len(v.Held))
		}
	}
	sizes := map[bool]int{} // snapshots over / within one datagram
	for i := 0; i < min(c.Net().GraphN, netclient.GraphLen); i++ {
		sizes[c.Net().GraphAt(i).Size > rtc.MaxDatagram]++
	}
	t.Logf("snapshots within one datagram: %d, over: %d (the scoreboard's)", sizes[false], sizes[true])
	if sizes[false] < 40 {
		t.Errorf("%d snapshots within one datagram", sizes[false])
	}
	st := c.View().Stats
	if st.BaselineMissing != 0 || st.SnapshotsReceived < 40 {
		t.Errorf("%d snapshots, %d without their baseline", st.SnapshotsReceived, st.BaselineMissing)
	}
	if minHeld != bots {
		t.Errorf("the newest snapshot held as few as %d of the %d players after 2 s", minHeld, bots)
	}
}
