//go:build !headless && !js

package main

// The menu's Internet tab against a master server on loopback: a test
// master serves /servers.json (net/master's List) naming a real game
// server, and the menu lists it and joins it with a click.

import (
	"encoding/json"
	"image"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/net/master"
	"tickshot/net/proto"
)

// The Internet tab at 1280x720 (client/menu's layout): the tab's button
// and the centre of the list's first row.
const (
	menuInternetTabX, menuInternetTabY = 832, 197
	menuInternetRowY                   = 380
)

// TestMenuInternetJoins: a game server runs on loopback without LAN
// announcements and a test master lists it; with cl_master set in
// config.cfg, Join a game, then the Internet tab, asks the master (the
// request is seen) and shows the server; a click on its row and Enter
// join it (the server's /status lists the player, the arena is drawn),
// and it becomes a recent server.
func TestMenuInternetJoins(t *testing.T) {
	port := pickPort(t)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	srv := exec.Command(binPath, "server", "--addr", addr, "--bots", "1", "--lan=false", "--name", "internet test "+strconv.Itoa(port))
	srvOut := &syncBuffer{}
	srv.Stdout, srv.Stderr = srvOut, srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	}()
	var asked atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/servers.json", func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(master.List{Servers: []master.Entry{{Name: "internet test", Addr: addr, Map: "arena",
			Bots: 1, MaxPlayers: 16, Protocol: proto.ProtocolVersion}}})
	})
	ms := httptest.NewServer(mux)
	defer ms.Close()

	cfgHome := t.TempDir()
	dir := filepath.Join(cfgHome, "tickshot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.cfg"), []byte("name \"carol\"\ncl_master \""+ms.URL+"\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, out := startTickshot(t, cfgHome)
	wid := strings.Fields(xdo(t, "search", "--sync", "--onlyvisible", "--pid", strconv.Itoa(cmd.Process.Pid), "--name", "^Tickshot$"))[0]
	front(t, wid)
	waitScreen(t, wid, 20*time.Second, "the menu", isMenu)
	click(t, wid, menuX, menuJoinY)
	time.Sleep(500 * time.Millisecond)
	click(t, wid, menuInternetTabX, menuInternetTabY)
	start := time.Now()
	row := image.Rect(330, menuInternetRowY-8, 1000, menuInternetRowY+8)
	for countColour(grabWindow(t, wid), row, 0x22, 0x26, 0x2d) <= 2000 {
		if time.Since(start) > 15*time.Second {
			t.Fatalf("no server in the Internet tab after 15 s (the master was asked %d times)\nclient:\n%s\nserver:\n%s",
				asked.Load(), out.String(), srvOut.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if asked.Load() == 0 {
		t.Fatal("a row appeared but the master was never asked")
	}
	t.Logf("the server appeared in the Internet tab after %v", time.Since(start).Round(100*time.Millisecond))
	time.Sleep(time.Second) // its ping arrives; the row stays where it is
	// A click selects the row (the keyboard moves to it), Enter joins; a
	// double click joins too (TestInternetTab in client/menu). The button
	// is held for a few frames, so that a busy machine's slow frame does
	// not swallow the press and release together.
	xdo(t, "mousemove", "--window", wid, strconv.Itoa(menuX), strconv.Itoa(menuInternetRowY))
	time.Sleep(100 * time.Millisecond)
	xdo(t, "mousedown", "1")
	time.Sleep(100 * time.Millisecond)
	xdo(t, "mouseup", "1")
	time.Sleep(800 * time.Millisecond) // longer than a double click
	xdo(t, "key", "Return")
	waitPlayers(t, addr, []string{"carol"}, out, srvOut)
	waitScreen(t, wid, 20*time.Second, "the game joined from the Internet tab", isGame)
	xdo(t, "key", "Escape")
	waitScreen(t, wid, 20*time.Second, "the menu after Esc", isMenu)
	if b, _ := os.ReadFile(filepath.Join(dir, "recent.txt")); strings.TrimSpace(string(b)) != addr {
		t.Errorf("recent.txt = %q, want %s", b, addr)
	}
	click(t, wid, menuX, menuQuitY)
	waitExit(t, cmd, out)
}
