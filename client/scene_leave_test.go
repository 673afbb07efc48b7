//go:build !headless

package client

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/server"
)

// TestBoundDisconnectWithEventsPending: a key bound to `disconnect` (or
// `connect ADDR`) runs in the game scene's Update after that frame's
// snapshot was read; when the snapshot brought a join and a chat line, the
// frame that leaves the game still handles them without the window's
// connection, which the command has just closed. The window must go to the
// "you left the server" screen, not panic on the nil connection.
func TestBoundDisconnectWithEventsPending(t *testing.T) {
	srv := testserver.Start(t, server.Config{TickRate: 64, Bots: 0, Map: "arena"})
	var leave atomic.Bool
	script := ScriptedInput(func(time.Duration) InputFrame {
		if leave.Load() {
			return InputFrame{Commands: []string{"disconnect"}}
		}
		return InputFrame{}
	})
	g := newGame(Options{Addr: srv.Addr(), Config: netclient.DefaultConfig("leaver"), Input: script, Width: testScreenW, Height: testScreenH})
	if err := g.initCvars(); err != nil {
		t.Fatal(err)
	}
	g.scenes.Switch(newConnectScene(srv.Addr()))
	t.Cleanup(func() { g.disconnect("test over"); g.scenes.Close() })
	frame := func() {
		onFrame(func(screen *ebiten.Image) {
			if err := g.Update(); err != nil && err != ebiten.Termination {
				t.Errorf("Update: %v", err)
			}
			g.Draw(screen)
		})
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		if p, ok := g.scenes.Current().(*playScene); ok && p.c.View().HaveSnapshot {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not in the game after 15 s (scene %T)", g.scenes.Current())
		}
		frame()
		time.Sleep(5 * time.Millisecond)
	}
	for i := 0; i < 10; i++ {
		frame()
		time.Sleep(5 * time.Millisecond)
	}

	// A second player joins and chats while the window runs no frame: the
	// snapshot with EvJoin, EvTeam and EvChat waits in the connection.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	other, err := netclient.Connect(ctx, netclient.Websocket, srv.Addr(), netclient.DefaultConfig("other"))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close("test over")
	other.SendCommand("say hello", "")
	time.Sleep(500 * time.Millisecond) // several snapshots at cl_updaterate 20

	leave.Store(true)
	frame() // reads the snapshot, runs the bound disconnect, handles the events
	if _, ok := g.scenes.Current().(*connectScene); !ok || g.c != nil {
		t.Fatalf("after a bound disconnect: scene %T, connection %v; want the error scene and none", g.scenes.Current(), g.c)
	}
	frame()
}
