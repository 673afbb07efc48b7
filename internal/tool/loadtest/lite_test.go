package loadtest

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestLiteRun runs 32 --lite clients against the in-process server over
// its websocket for a short window: every client joins and receives
// snapshots, the server reports its ticks, and nothing fails to decode.
func TestLiteRun(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const n = 32
	rep, err := Run(ctx, Options{Lite: true, Clients: n, TickRate: 64, Duration: 2 * time.Second, Warmup: time.Second, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rep)
	if !rep.Lite || rep.Clients != n || rep.Players != n || rep.Map != "arena" || rep.Transport != "websocket" {
		t.Errorf("lite %v, %d clients, %d players, map %q, transport %q; want true, %d, %d, arena, websocket",
			rep.Lite, rep.Clients, rep.Players, rep.Map, rep.Transport, n, n)
	}
	tt := rep.TickTimeUs
	if tt.Mean <= 0 || tt.P50 <= 0 || tt.P50 > tt.P99 || tt.P99 > tt.Max {
		t.Errorf("tick time %+v: want 0 < p50 <= p99 <= max", tt)
	}
	if r := rep.SnapshotsPerServerSecond; r < 18 || r > 22 {
		t.Errorf("snapshots per server second per client %.1f (%.1f per wall second), want 20 ± 2", r, rep.SnapshotsPerClient)
	}
	if rep.BytesInPerClient <= 0 || rep.BytesOutPerClient <= 0 || rep.SnapshotBytesMean <= 0 || rep.SnapshotBytesMax < int(rep.SnapshotBytesMean) {
		t.Errorf("per client in %.0f B/s, out %.0f B/s, snapshot mean %.1f max %d: want all > 0, max >= mean",
			rep.BytesInPerClient, rep.BytesOutPerClient, rep.SnapshotBytesMean, rep.SnapshotBytesMax)
	}
	// Snapshots are almost all of what comes in.
	if got := rep.SnapshotBytesMean * rep.SnapshotsPerClient; got < 0.8*rep.BytesInPerClient || got > 1.05*rep.BytesInPerClient {
		t.Errorf("snapshot size × rate = %.0f B/s, but %.0f B/s came in", got, rep.BytesInPerClient)
	}
	if rep.DecodeErrors != 0 || rep.SnapshotsLost != 0 {
		t.Errorf("decode errors %d, snapshots lost %d on loopback; want 0", rep.DecodeErrors, rep.SnapshotsLost)
	}
	// cl_nodelta reaches the server from --lite clients too.
	full, err := Run(ctx, Options{Lite: true, Clients: 2, NoDelta: true, Duration: 500 * time.Millisecond, Warmup: -1, Seed: 6})
	if err != nil {
		t.Fatal(err)
	}
	if full.SnapshotsFull == 0 || full.SnapshotsDelta != 0 || full.DecodeErrors != 0 {
		t.Errorf("--nodelta: %d full, %d delta snapshots, %d decode errors; want > 0, 0, 0", full.SnapshotsFull, full.SnapshotsDelta, full.DecodeErrors)
	}
	var sb strings.Builder
	rep.WriteTable(&sb)
	for _, want := range []string{"--lite", "decode errors", "tick time mean / p50 / p99 / max"} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, sb.String())
		}
	}
}

func TestDefaultMap(t *testing.T) {
	for _, c := range []struct {
		lite    bool
		clients int
		want    string
	}{{true, 64, ""}, {true, 256, ""}, {true, 257, LiteBigMap}, {true, 1024, LiteBigMap}, {false, 512, ""}} {
		if got := DefaultMap(c.lite, c.clients); got != c.want {
			t.Errorf("DefaultMap(%v, %d) = %q, want %q", c.lite, c.clients, got, c.want)
		}
	}
}
