package server_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
)

func TestFoldName(t *testing.T) {
	for in, want := range map[string]string{
		"Server":               "player",
		"sErVeR":               "player",
		"Ser\u200bver":         "player",
		"\u202eServer\u202c":   "player",
		"Console":              "player",
		"[BOT] Evil":           "Evil",
		"[bot]\u00a0[BOT]Evil": "Evil",
		"[BOT] ":               "player",
		"\u200b\u200d\ufeff":   "player",
		"a\u00a0\u00a0b":       "a b",
		"\u3164":               "player",
		"Zoë":                  "Zoë",
		"  Thresh  ":           "Thresh",
		"Serverless":           "Serverless",
	} {
		if got := server.FoldName(in); got != want {
			t.Errorf("FoldName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestReservedNames: players who ask for the server's names get folded
// ones, as every other player sees them on the scoreboard; and a client's
// leave reason never reaches another client.
func TestReservedNames(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	watcher, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.DefaultConfig("watcher"))
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close("test over")
	var events []proto.Event
	pump := func(d time.Duration, done func() bool) {
		t.Helper()
		end := time.Now().Add(d)
		for time.Now().Before(end) {
			if err := watcher.Poll(); err != nil {
				t.Fatalf("watcher: %v", err)
			}
			watcher.Tick(time.Second/time.Duration(watcher.View().TickRate), netclient.Input{})
			events = append(events, watcher.Match().TakeEvents()...)
			if done != nil && done() {
				return
			}
			time.Sleep(time.Second / time.Duration(watcher.View().TickRate))
		}
	}
	var evil []*netclient.Client
	for _, name := range []string{"Server", "[BOT] Evil", "Ser\u200bver", "\u200b"} {
		c, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.DefaultConfig(name))
		if err != nil {
			t.Fatalf("join as %q: %v", name, err)
		}
		evil = append(evil, c)
	}
	want := []string{"Evil", "player", "player(2)", "player(3)", "watcher"}
	var names []string
	pump(4*time.Second, func() bool {
		names = names[:0]
		for _, r := range watcher.View().Scores {
			names = append(names, r.Name)
		}
		slices.Sort(names)
		return slices.Equal(names, want)
	})
	if !slices.Equal(names, want) {
		t.Fatalf("watcher's scoreboard names %q, want %q", names, want)
	}
	for _, r := range watcher.View().Scores {
		if r.Name == "Evil" && r.Bot {
			t.Error("the player who asked for [BOT] Evil is flagged as a bot")
		}
	}
	// A client leaves claiming to have been banned.
	gone := evil[1].View().ID
	evil[1].Close("kicked: banned by admin")
	var left *proto.Event
	pump(3*time.Second, func() bool {
		for i := range events {
			if events[i].Kind == proto.EvLeft && events[i].A == gone {
				left = &events[i]
				return true
			}
		}
		return false
	})
	if left == nil {
		t.Fatal("the watcher saw no EvLeft for the leaving player")
	}
	if strings.Contains(left.Text, "banned") || strings.Contains(left.Text, "kicked") {
		t.Errorf("the client's leave reason reached another client: %q", left.Text)
	}
	if left.Text != server.LeftReason {
		t.Errorf("EvLeft text %q, want %q", left.Text, server.LeftReason)
	}
	for _, c := range evil {
		c.Close("test over")
	}
}
