//go:build !headless && !js

package main

// The menu's Internet tab against a master server on loopback: a test
// master serves /servers.json (net/master's List) naming a real game
// server, and the menu lists it and joins it with a click.

import (
	"context"
	"encoding/json"
	"fmt"
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
	menuInternetTabX, menuInternetTabY = 832, 190
	menuLANTabX                        = 2*menuX - menuInternetTabX
	menuInternetRowY                   = 370
)

// TestMenuInternetJoins: a game server runs on loopback without LAN
// announcements and a test master lists it; with cl_master set in
// config.cfg, Join a game, then the Internet tab, asks the master (the
// request is seen) and shows the server; a click on its row and Enter
// join it (the server's /status lists the player, the arena is drawn),
// and it becomes a recent server.
func TestMenuInternetJoins(t *testing.T) {
	addr, srvOut := startGameServer(t, "--bots", "1", "--lan=false", "--name", "internet test")
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

	cfgHome, dir := configHome(t, "name \"carol\"\ncl_master \""+ms.URL+"\"\n")
	cmd, out := startTickshot(t, cfgHome)
	wid := openInternetTab(t, cmd)
	waitInternetRow(t, wid, func() string {
		return fmt.Sprintf("the master was asked %d times\nclient:\n%s\nserver:\n%s", asked.Load(), out.String(), srvOut.String())
	})
	if asked.Load() == 0 {
		t.Fatal("a row appeared but the master was never asked")
	}
	clickAndEnter(t, wid, menuX, menuInternetRowY)
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

// configHome makes an XDG_CONFIG_HOME whose tickshot/config.cfg holds
// cfg, and returns it and the game's directory in it.
func configHome(t *testing.T, cfg string) (home, dir string) {
	t.Helper()
	home = t.TempDir()
	dir = filepath.Join(home, "tickshot")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.cfg"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return home, dir
}

// startGameServer starts `tickshot server` on a loopback port with args
// (its --name gets the port appended, when given), stopped when the test
// ends, and returns its address and output.
func startGameServer(t *testing.T, args ...string) (string, *syncBuffer) {
	t.Helper()
	port := strconv.Itoa(pickPort(t))
	addr := "127.0.0.1:" + port
	for i := range args {
		if i > 0 && args[i-1] == "--name" {
			args[i] += " " + port
		}
	}
	srv := exec.Command(binPath, append([]string{"server", "--addr", addr}, args...)...)
	srvOut := &syncBuffer{}
	srv.Stdout, srv.Stderr = srvOut, srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	})
	return addr, srvOut
}

// openInternetTab finds the menu window of cmd, brings it to the front
// and goes to the Join page's Internet tab; it returns the window.
func openInternetTab(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	wid := strings.Fields(xdo(t, "search", "--sync", "--onlyvisible", "--pid", strconv.Itoa(cmd.Process.Pid), "--name", "^Tickshot$"))[0]
	front(t, wid)
	waitScreen(t, wid, 20*time.Second, "the menu", isMenu)
	holdClick(t, wid, menuX, menuJoinY)
	waitTab(t, wid, menuLANTabX, "the Join page's LAN tab")
	holdClick(t, wid, menuInternetTabX, menuInternetTabY)
	waitTab(t, wid, menuInternetTabX, "the Internet tab")
	return wid
}

// waitTab waits until the tab at x is the one drawn pressed (the title's
// colour): its page shows. The mouse must not move on before: a busy
// window that has not yet seen the release would take the move for a
// press dragged off the button, and drop the click.
func waitTab(t *testing.T, wid string, x int, what string) {
	t.Helper()
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		// The buttons' right parts, clear of their labels.
		img := grabWindow(t, wid)
		this := countColour(img, image.Rect(x+100, menuInternetTabY-2, x+160, menuInternetTabY+2), 0x3c, 0xd6, 0xf0)
		other := countColour(img, image.Rect(2*menuX-x+100, menuInternetTabY-2, 2*menuX-x+160, menuInternetTabY+2), 0x3c, 0xd6, 0xf0)
		if this > 200 && other == 0 {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("%s does not show after 15 s", what)
		}
	}
}

// waitInternetRow waits until the Internet tab's first row is drawn (its
// button's fill where the empty list is dark), then a second for its
// ping (the row stays where it is); why says what to log on a failure.
func waitInternetRow(t *testing.T, wid string, why func() string) {
	t.Helper()
	start := time.Now()
	row := image.Rect(330, menuInternetRowY-8, 1000, menuInternetRowY+8)
	for countColour(grabWindow(t, wid), row, 0x22, 0x26, 0x2d) <= 2000 {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("no server in the Internet tab after 20 s: %s", why())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the server appeared in the Internet tab after %v", time.Since(start).Round(100*time.Millisecond))
	time.Sleep(time.Second)
}

// clickAndEnter clicks at x, y in the window, then presses Enter: a click
// selects a row (the keyboard moves to it), Enter joins; a double click
// joins too (TestInternetTab in client/menu).
func clickAndEnter(t *testing.T, wid string, x, y int) {
	holdClick(t, wid, x, y)
	time.Sleep(800 * time.Millisecond) // longer than a double click
	xdo(t, "key", "Return")
}

// holdClick clicks at x, y in the window with the button held 100 ms: a
// press and release within one frame of a busy machine would be lost.
func holdClick(t *testing.T, wid string, x, y int) {
	xdo(t, "mousemove", "--window", wid, strconv.Itoa(x), strconv.Itoa(y))
	time.Sleep(100 * time.Millisecond)
	xdo(t, "mousedown", "1")
	time.Sleep(100 * time.Millisecond)
	xdo(t, "mouseup", "1")
}

// TestMenuInternetFromMaster is the "done when" in the menu: a
// real master (`tickshot master`) and a game server started with
// --master and --password; the master's URL is typed in the Internet
// tab's field (and kept as cl_master in config.cfg); the server appears,
// locked; a click and Enter ask for the password, which typed joins it.
func TestMenuInternetFromMaster(t *testing.T) {
	url := "http://127.0.0.1:" + strconv.Itoa(pickPort(t))
	mcmd := exec.Command(binPath, "master", "--addr", strings.TrimPrefix(url, "http://"))
	mOut := &syncBuffer{}
	mcmd.Stdout, mcmd.Stderr = mOut, mOut
	if err := mcmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = mcmd.Process.Kill()
		_ = mcmd.Wait()
	}()
	addr, srvOut := startGameServer(t, "--bots", "0", "--lan=false", "--password", "hunter2", "--master", url, "--name", "listed")
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if l, err := master.Fetch(context.Background(), nil, url); err == nil && len(l) == 1 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the master does not list the server after 20 s\nmaster:\n%s\nserver:\n%s", mOut.String(), srvOut.String())
		}
	}
	cfgHome, dir := configHome(t, "name \"dave\"\n")
	cmd, out := startTickshot(t, cfgHome)
	wid := openInternetTab(t, cmd)
	holdClick(t, wid, 580, 237) // the master field
	xdo(t, "type", "--delay", "40", url)
	time.Sleep(300 * time.Millisecond) // a frame for the text before Enter (TestMenuJoinsServer)
	xdo(t, "key", "Return")
	waitInternetRow(t, wid, func() string {
		return fmt.Sprintf("\nmaster:\n%s\nclient:\n%s\nserver:\n%s", mOut.String(), out.String(), srvOut.String())
	})
	b, _ := os.ReadFile(filepath.Join(dir, "config.cfg"))
	if !strings.Contains(string(b), `cl_master "`+url+`"`) {
		t.Errorf("config.cfg lacks cl_master %s:\n%s", url, b)
	}
	clickAndEnter(t, wid, menuX, menuInternetRowY)
	time.Sleep(500 * time.Millisecond) // the password page, its field focused
	xdo(t, "type", "--delay", "40", "hunter2")
	time.Sleep(300 * time.Millisecond)
	xdo(t, "key", "Return")
	waitPlayers(t, addr, []string{"dave"}, out, srvOut)
	waitScreen(t, wid, 20*time.Second, "the game joined with its password", isGame)
	xdo(t, "key", "Escape")
	waitScreen(t, wid, 20*time.Second, "the menu after Esc", isMenu)
	click(t, wid, menuX, menuQuitY)
	waitExit(t, cmd, out)
}
