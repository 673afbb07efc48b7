package server_test

import (
	"context"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/server"
)

// TestColorOnScoreboard: the colour a client sends in its Hello
// (cl_color) reaches every client in that player's scoreboard row; a
// client that chose none has 0 there.
func TestColorOnScoreboard(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	watcher, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.DefaultConfig("watcher"))
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close("test over")
	cfg := netclient.DefaultConfig("painter")
	cfg.Color = 6
	painter, err := netclient.Connect(ctx, netclient.Websocket, addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer painter.Close("test over")
	colours := func() map[string]uint8 {
		m := map[string]uint8{}
		for _, r := range watcher.View().Scores {
			m[r.Name] = r.Color
		}
		return m
	}
	end := time.Now().Add(4 * time.Second)
	for time.Now().Before(end) {
		for _, c := range []*netclient.Client{watcher, painter} {
			if err := c.Poll(); err != nil {
				t.Fatal(err)
			}
			c.Tick(time.Second/time.Duration(c.View().TickRate), netclient.Input{})
		}
		if _, ok := colours()["painter"]; ok {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	got := colours()
	if c, ok := got["painter"]; !ok || c != 6 {
		t.Errorf("the watcher's scoreboard: painter's colour %d (row %v), want 6", c, ok)
	}
	if c := got["watcher"]; c != 0 {
		t.Errorf("the watcher's own row: colour %d, want 0", c)
	}
}
