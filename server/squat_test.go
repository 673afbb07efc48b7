package server_test

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
)

// TestSilentPlayerTimedOut: a client that joins and then sends no
// usercmds (its websocket answers pings, so the connection stays up) is
// kicked after sv_timeout, as a player and as a spectator, while a player
// and a spectator that send commands stay.
func TestSilentPlayerTimedOut(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 8, Cvars: [][2]string{{"sv_timeout", "1"}}})
	active := startGoodClient(t, addr, "active")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cfg := netclient.DefaultConfig("watching")
	cfg.Spectate = true
	spec, err := netclient.Connect(ctx, netclient.Websocket, addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer spec.Close("test over")
	specErr := make(chan error, 1)
	stopSpec := make(chan struct{})
	defer close(stopSpec)
	go func() {
		tk := time.NewTicker(time.Second / time.Duration(spec.View().TickRate))
		defer tk.Stop()
		for {
			select {
			case <-stopSpec:
				specErr <- nil
				return
			case <-tk.C:
				if err := spec.Poll(); err != nil {
					specErr <- err
					return
				}
				spec.Tick(time.Second/time.Duration(spec.View().TickRate), netclient.Input{})
			}
		}
	}()

	silent := dialRaw(t, addr)
	silent.join("silent")
	silentSpec := dialRaw(t, addr)
	silentSpec.mustSend(proto.MustEncode(&proto.Hello{Protocol: proto.ProtocolVersion, Name: "lurker", Rate: 100000,
		UpdateRate: 20, CmdRate: 64, InterpMs: 100, InterpRatio: 2, Spectate: true}))
	start := time.Now()
	for _, r := range []*raw{silent, silentSpec} {
		e := r.readEnd(4 * time.Second)
		if !e.closed || !e.mentions("timed out: no input for 1 s") {
			t.Errorf("silent client: want a Disconnect 'timed out: no input for 1 s', got %s", e)
		}
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("silent clients kicked after %v, sv_timeout is 1 s", took)
	}
	// The active player and spectator are still there, after more than
	// sv_timeout.
	active.healthy(t, 1500*time.Millisecond)
	select {
	case err := <-specErr:
		t.Fatalf("the spectator sending empty commands was dropped: %v", err)
	default:
	}
	st, err := getStatus(addr)
	if err != nil {
		t.Fatal(err)
	}
	if names := playerNames(st); len(names) != 1 || names[0] != "active" {
		t.Errorf("players after the timeout: %q, want [active]", names)
	}
	if st.Spectators != 1 {
		t.Errorf("%d spectators after the timeout, want 1 (the active one)", st.Spectators)
	}
}

// lanIP is a non-loopback IPv4 address of this machine, or "".
func lanIP() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.String()
		}
	}
	return ""
}

// TestMaxPlayersPerIP: with sv_maxplayers_per_ip 2, a third join from one
// address is refused with the reason; loopback is exempt; 0 lifts the
// limit. (Before sv_maxplayers_per_ip every join was admitted.) The clients connect to the machine's own non-loopback address so
// that the server sees them come from it.
func TestMaxPlayersPerIP(t *testing.T) {
	srv, loopback, addr := startLANServer(t, server.Config{MaxPlayers: 8, Cvars: [][2]string{{"sv_maxplayers_per_ip", "2"}}})
	first, second := dialRaw(t, addr), dialRaw(t, addr)
	first.join("one")
	second.join("two")
	third := dialRaw(t, addr)
	third.mustSend(helloFrame("three", proto.ProtocolVersion))
	e := third.readEnd(3 * time.Second)
	if !e.rejected || !e.mentions("too many players from your address (2/2") {
		t.Errorf("third join from %s: want a Reject 'too many players from your address (2/2 …', got %s", addr, e)
	}
	// From loopback the limit does not apply (the host's own clients, or a
	// reverse proxy on the host): three more join.
	for _, name := range []string{"lo1", "lo2", "lo3"} {
		dialRaw(t, loopback).join(name)
	}
	// sv_maxplayers_per_ip 0: no limit.
	if out := srv.Exec("sv_maxplayers_per_ip 0"); !strings.Contains(out, "= 0") {
		t.Fatalf("sv_maxplayers_per_ip 0: %s", out)
	}
	fourth := dialRaw(t, addr)
	fourth.join("four")
}
