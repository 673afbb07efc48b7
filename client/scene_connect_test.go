//go:build !headless

package client

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/server"
)

// TestConnectSceneErrorRetryAndDisconnect walks the window's scenes over
// real websockets on loopback: connecting to a port where nobody listens
// ends on the error screen ("Could not connect"); once a server listens
// there, a retry (Enter) connects and the game scene plays; when the
// server shuts down, the game ends on the error screen again, now as
// "Disconnected" with the server's reason.
func TestConnectSceneErrorRetryAndDisconnect(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	idle := ScriptedInput(func(time.Duration) InputFrame { return InputFrame{} })
	g := newGame(Options{Addr: addr, Config: netclient.DefaultConfig("retry"), Input: idle, Width: testScreenW, Height: testScreenH})
	if err := g.initCvars(); err != nil {
		t.Fatal(err)
	}
	first := newConnectScene(addr)
	g.scenes.Switch(first)
	t.Cleanup(func() { g.disconnect("test over"); g.scenes.Close() })
	img := make(chan *ebiten.Image, 1)
	frame := func() {
		onFrame(func(*ebiten.Image) {
			var dst *ebiten.Image
			select {
			case dst = <-img:
			default:
				dst = ebiten.NewImage(testScreenW, testScreenH)
			}
			if err := g.Update(); err != nil {
				t.Errorf("Update: %v", err)
			}
			g.Draw(dst)
			img <- dst
		})
		time.Sleep(5 * time.Millisecond)
	}
	until := func(what string, d time.Duration, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !ok() {
			if time.Now().After(deadline) {
				r := g.report()
				t.Fatalf("no %s within %v: phase %q, error %q", what, d, r.Phase, r.Error)
			}
			frame()
		}
	}

	until("error screen", 12*time.Second, func() bool { return g.report().Phase == "error" })
	r := g.report()
	if g.scenes.Current() != first || r.ConnectedOnce || r.Connected || first.errorHeading() != "Could not connect" || r.Error == "" {
		t.Fatalf("after a refused connection: scene %T, report %+v, heading %q", g.scenes.Current(), r, first.errorHeading())
	}
	t.Logf("refused: %q (%s)", r.Error, r.ErrorDetail)

	srv, err := server.New(server.Config{Addr: addr, TickRate: 64, Map: "arena", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()

	first.retry(g.ctx) // what Enter does on the error screen
	if r := g.report(); r.Phase != "connecting" {
		t.Fatalf("retry: phase %q", r.Phase)
	}
	until("game", 12*time.Second, func() bool {
		p, ok := g.scenes.Current().(*playScene)
		return ok && p.c.View().HaveSnapshot
	})
	if r := g.report(); r.Phase != "playing" || !r.Connected || g.c == nil {
		t.Fatalf("in the game: %+v", r)
	}

	cancel() // the server shuts down and tells its players why
	until("error screen after the game", 12*time.Second, func() bool { return g.report().Phase == "error" })
	s, ok := g.scenes.Current().(*connectScene)
	if !ok || s.errorHeading() != "Disconnected" || g.c != nil {
		t.Fatalf("after the server stopped: scene %T, connection %v", g.scenes.Current(), g.c)
	}
	t.Logf("after the shutdown: %q (%s)", g.report().Error, g.report().ErrorDetail)
	if r := g.report(); !r.ConnectedOnce || !strings.Contains(strings.ToLower(r.Error+r.ErrorDetail), "shut") {
		t.Errorf("after the server stopped: error %q (%s), connected once %v; want the server's reason", r.Error, r.ErrorDetail, r.ConnectedOnce)
	}
}
