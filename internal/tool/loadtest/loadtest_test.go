package loadtest

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"
	"time"

	"tickshot/internal/tool/testserver"
	"tickshot/net/rtc"
	"tickshot/server"
)

// TestShortRun runs 3 clients and 2 server bots in-process for 2 s and
// checks that every figure of the report is sane.
func TestShortRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := Run(ctx, Options{Clients: 3, Bots: 2, TickRate: 64, Duration: 2 * time.Second, Warmup: time.Second, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rep)
	if rep.Players != 5 || rep.Clients != 3 || rep.Bots != 2 {
		t.Errorf("players %d (%d clients + %d bots), want 5 (3 + 2)", rep.Players, rep.Clients, rep.Bots)
	}
	if rep.TickRate != 64 || rep.UpdateRate != DefaultUpdateRate || rep.Server != "in-process" || rep.Map != "arena" {
		t.Errorf("tick rate %d, update rate %d, server %q, map %q", rep.TickRate, rep.UpdateRate, rep.Server, rep.Map)
	}
	// Never shorter than asked; longer only by a busy machine's delays.
	if rep.DurationS < 1.9 || rep.DurationS > 6 {
		t.Errorf("measured %.1f s, want about 2", rep.DurationS)
	}
	// By the server's clock: a busy machine may run fewer ticks in a wall
	// second (SnapshotsPerClient is per wall second).
	if r := rep.SnapshotsPerServerSecond; r < 18 || r > 22 {
		t.Errorf("snapshots per server second per client %.1f (%.1f per wall second), want 20 ± 2", r, rep.SnapshotsPerClient)
	}
	if rep.BytesInPerClient <= 0 || rep.BytesOutPerClient <= 0 {
		t.Errorf("bytes/s per client in %.0f, out %.0f, want both > 0", rep.BytesInPerClient, rep.BytesOutPerClient)
	}
	// Every received byte is almost all snapshots: the mean size times the
	// rate comes close to the incoming bytes/s.
	if rep.SnapshotBytesMean <= 0 || float64(rep.SnapshotBytesMax) < rep.SnapshotBytesMean {
		t.Errorf("snapshot size mean %.1f, max %d", rep.SnapshotBytesMean, rep.SnapshotBytesMax)
	}
	if got := rep.SnapshotBytesMean * rep.SnapshotsPerClient; got < 0.8*rep.BytesInPerClient || got > 1.05*rep.BytesInPerClient {
		t.Errorf("snapshot size × rate = %.0f B/s, but %.0f B/s came in", got, rep.BytesInPerClient)
	}
	tt := rep.TickTimeUs
	if tt.P99 <= 0 || tt.Mean <= 0 || tt.P50 > tt.P99 || tt.P99 > tt.Max || rep.TickP99WorstUs < tt.P99 {
		t.Errorf("tick time %+v, worst p99 %.1f", tt, rep.TickP99WorstUs)
	}
	if rep.CPUPct <= 0 || rep.CPUPct > 100*float64(64) {
		t.Errorf("CPU %.1f %%", rep.CPUPct)
	}
	if rep.ServerCPUPct != -1 {
		t.Errorf("server CPU %.1f without --server-pid, want -1 (not measured)", rep.ServerCPUPct)
	}
	if rep.HeapPerClientBytes <= 0 {
		t.Errorf("heap per client %.0f B, want > 0", rep.HeapPerClientBytes)
	}
	if rep.Corrections < 0 || rep.SnapshotsLost != 0 {
		t.Errorf("corrections %d, snapshots lost %d on loopback", rep.Corrections, rep.SnapshotsLost)
	}

	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, rep) {
		t.Errorf("JSON round trip changed the report:\n%+v\n%+v", rep, back)
	}
	for _, key := range []string{`"players":5`, `"tick_time_us":{"mean"`, `"bytes_in_per_s_per_client"`, `"snapshot_bytes_max"`, `"heap_per_client_bytes"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
	var sb strings.Builder
	rep.WriteTable(&sb)
	for _, want := range []string{"players (clients + bots)           5 (3 + 2)", "tick time mean / p50 / p99 / max", "snapshot size mean / max"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, sb.String())
		}
	}
}

// TestRemoteServer loads a server running elsewhere: the tick time comes
// from its /status, the bots are counted from it.
func TestRemoteServer(t *testing.T) {
	srv := testserver.Start(t, server.Config{Bots: 2, MaxPlayers: 8, TickRate: 32})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := Run(ctx, Options{Server: srv.Addr(), Clients: 1, Duration: time.Second, Warmup: -1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Players != 3 || rep.Bots != 2 || rep.TickRate != 32 || rep.Server != srv.Addr() {
		t.Errorf("players %d, bots %d, tick rate %d, server %q; want 3, 2, 32, %q", rep.Players, rep.Bots, rep.TickRate, rep.Server, srv.Addr())
	}
	if rep.TickTimeUs.P99 <= 0 || rep.SnapshotsPerClient <= 0 || !strings.Contains(rep.CPUScope, "clients only") {
		t.Errorf("report %+v", rep)
	}
}

// --transport webrtc: every client plays on its data channel, and the
// report says so; the default stays the WebSocket.
func TestTransportWebRTC(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := Run(ctx, Options{Clients: 2, Duration: time.Second, Warmup: 4 * time.Second, Transport: rtc.ModeWebRTC, Seed: 3}) // the warm-up lets the data channels open on a busy machine
	if err != nil {
		t.Fatal(err)
	}
	if rep.Transport != "webrtc" || rep.ClientsOnWebRTC != 2 || rep.SnapshotsPerClient <= 0 {
		t.Errorf("transport %q, %d of 2 clients on webrtc, %.1f snapshots/s each", rep.Transport, rep.ClientsOnWebRTC, rep.SnapshotsPerClient)
	}
	rep, err = Run(ctx, Options{Clients: 1, Duration: 500 * time.Millisecond, Warmup: -1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Transport != "websocket" || rep.ClientsOnWebRTC != 0 {
		t.Errorf("by default: transport %q, %d clients on webrtc", rep.Transport, rep.ClientsOnWebRTC)
	}
}

func TestValidateRefuses(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{Clients: -1}, "--clients must be 0..512"},
		{Options{Clients: 513}, "--clients must be 0..512"},
		{Options{Clients: 1, Bots: 1025}, "--bots must be 0..1024"},
		{Options{Clients: 1, TickRate: 19}, "--tickrate must be 20..128"},
		{Options{Clients: 1, TickRate: 129}, "--tickrate must be 20..128"},
		{Options{Clients: 1, Duration: -time.Second}, "--duration must be more than 0"},
		{Options{}, "--clients and --bots are both 0"},
		{Options{Server: "127.0.0.1:27015", Clients: 1, Bots: 1}, "--bots applies only to the in-process server"},
		{Options{Server: "127.0.0.1:27015", Clients: 1, TickRate: 64}, "--tickrate applies only"},
		{Options{Server: "127.0.0.1:27015", Clients: 1, Map: "range"}, "--map applies only"},
		{Options{Server: "127.0.0.1:27015"}, "give --clients 1 or more"},
		{Options{Clients: 1, ServerPID: 1}, "--server-pid needs --server"},
		{Options{Clients: 513}, "(0..1024 with --lite)"},
		{Options{Lite: true, Clients: 1025}, "--clients must be 0..1024 with --lite, got 1025"},
		{Options{Lite: true, Clients: 1, Transport: rtc.ModeWebRTC}, "--lite clients speak the websocket only"},
	} {
		err := c.opt.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want an error with %q", c.opt, err, c.want)
		}
	}
	if err := (Options{Clients: 512, Bots: 1024, TickRate: 128}).Validate(); err != nil {
		t.Errorf("largest values refused: %v", err)
	}
	if err := (Options{Lite: true, Clients: MaxLiteClients, TickRate: 128}).Validate(); err != nil {
		t.Errorf("largest --lite values refused: %v", err)
	}
}

// TestTooManyPlayersInProcess: the in-process server's cap is reported as a sentence.
func TestTooManyPlayersInProcess(t *testing.T) {
	_, err := Run(context.Background(), Options{Clients: 1, Bots: MaxServerPlayers, Duration: time.Second})
	if err == nil || !strings.Contains(err.Error(), "the in-process server refused") {
		t.Errorf("got %v", err)
	}
}

// TestMaxServerPlayersMatchesServer keeps MaxServerPlayers (quoted by
// --help) equal to what server.Config accepts; update it when the server's
// cap changes.
func TestMaxServerPlayersMatchesServer(t *testing.T) {
	cfg := server.Config{Addr: "127.0.0.1:0", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	cfg.MaxPlayers = MaxServerPlayers
	if _, err := server.New(cfg); err != nil {
		t.Errorf("server refuses MaxPlayers %d: %v; lower loadtest.MaxServerPlayers", MaxServerPlayers, err)
	}
	cfg.MaxPlayers = MaxServerPlayers + 1
	if _, err := server.New(cfg); err == nil {
		t.Errorf("server accepts MaxPlayers %d; raise loadtest.MaxServerPlayers to its cap", MaxServerPlayers+1)
	}
}
