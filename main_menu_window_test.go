//go:build !headless && !js

package main

// The main menu driven as a person would, in the real window under Xvfb:
// xdotool types and clicks, and the screen is read back from the X server
// (the window keeps running, so it cannot save its own screenshot and quit).

import (
	"encoding/json"
	"image"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// grabWindow reads the window wid's pixels from the X server.
func grabWindow(t *testing.T, wid string) image.Image {
	t.Helper()
	conn, err := xgb.NewConn()
	if err != nil {
		t.Fatalf("X connection: %v", err)
	}
	defer conn.Close()
	id, err := strconv.ParseUint(wid, 10, 32)
	if err != nil {
		t.Fatalf("window id %q: %v", wid, err)
	}
	win := xproto.Window(id)
	geo, err := xproto.GetGeometry(conn, xproto.Drawable(win)).Reply()
	if err != nil {
		t.Fatalf("window geometry: %v", err)
	}
	w, h := int(geo.Width), int(geo.Height)
	rep, err := xproto.GetImage(conn, xproto.ImageFormatZPixmap, xproto.Drawable(win), 0, 0, uint16(w), uint16(h), 0xffffffff).Reply()
	if err != nil {
		t.Fatalf("window image: %v", err)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	if len(rep.Data) < w*h*4 {
		t.Fatalf("window image: %d bytes for %dx%d (depth %d)", len(rep.Data), w, h, rep.Depth)
	}
	for i := 0; i < w*h; i++ { // 24-bit depth, 32 bits a pixel: B, G, R, pad
		img.Pix[i*4], img.Pix[i*4+1], img.Pix[i*4+2], img.Pix[i*4+3] = rep.Data[i*4+2], rep.Data[i*4+1], rep.Data[i*4], 0xff
	}
	return img
}

// shares counts, in every second pixel of img, the menu's title colour
// (the accent), the menu's background and the arena's floor.
func shares(img image.Image) (title, menuBG, floor int) {
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case r == 0x3c && g == 0xd6 && bl == 0xf0:
				title++
			case r == 0x14 && g == 0x16 && bl == 0x1b:
				menuBG++
			case near(r, g, bl, 0x22, 0x26, 0x2d):
				floor++
			}
		}
	}
	return
}

// waitScreen grabs the window until ok accepts it (or fails after d).
func waitScreen(t *testing.T, wid string, d time.Duration, what string, ok func(title, bg, floor int) bool) image.Image {
	t.Helper()
	var title, bg, floor int
	for end := time.Now().Add(d); ; time.Sleep(250 * time.Millisecond) {
		img := grabWindow(t, wid)
		title, bg, floor = shares(img)
		if ok(title, bg, floor) {
			t.Logf("%s: title %d, menu background %d, floor %d samples", what, title, bg, floor)
			return img
		}
		if time.Now().After(end) {
			t.Fatalf("%s not on screen after %v: title %d, menu background %d, floor %d samples", what, d, title, bg, floor)
		}
	}
}

// The menu's main page at 1280x720 (client/menu's layout): centre x, and
// the centres of the name field and the buttons.
const (
	menuX         = 640
	menuNameY     = 296
	menuPlayY     = 346
	menuJoinY     = 446
	menuQuitY     = 546
	totalSamples  = (1280 / 2) * (720 / 2)
	menuShowsMenu = totalSamples / 2 // menu background in at least half the samples
)

func isMenu(title, bg, floor int) bool {
	return title > 300 && bg > menuShowsMenu && floor < totalSamples/10
}
func isGame(title, bg, floor int) bool { return floor > totalSamples/5 && title < 300 }

// startMenu starts `tickshot` with no arguments and a config dir of its
// own, and returns the process, its window and the config dir.
func startMenu(t *testing.T) (*exec.Cmd, string, string, *syncBuffer) {
	t.Helper()
	if _, err := exec.LookPath("xdotool"); err != nil {
		t.Fatal("xdotool is not installed (make deps installs it)")
	}
	cfgHome := t.TempDir()
	cmd, out := startTickshot(t, cfgHome)
	wid := strings.Fields(xdo(t, "search", "--sync", "--name", "^Tickshot$"))[0]
	xdo(t, "windowfocus", "--sync", wid)
	return cmd, wid, filepath.Join(cfgHome, "tickshot"), out
}

// startTickshot starts the game binary with args and XDG_CONFIG_HOME at
// cfgHome, its output collected; it is killed when the test ends if it
// has not exited by then.
func startTickshot(t *testing.T, cfgHome string, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(binPath, args...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+cfgHome)
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			_, _ = cmd.Process.Wait()
		}
	})
	return cmd, out
}

// typeName replaces the name field's text.
func typeName(t *testing.T, wid, name string) {
	xdo(t, "mousemove", "--window", wid, strconv.Itoa(menuX), strconv.Itoa(menuNameY))
	xdo(t, "click", "1")
	xdo(t, "key", "--delay", "80", "--repeat", "24", "BackSpace")
	xdo(t, "type", "--delay", "40", name)
}

func click(t *testing.T, wid string, x, y int) {
	xdo(t, "mousemove", "--window", wid, strconv.Itoa(x), strconv.Itoa(y))
	time.Sleep(100 * time.Millisecond)
	xdo(t, "click", "1")
}

// waitExit waits for the process to end with status 0.
func waitExit(t *testing.T, cmd *exec.Cmd, out *syncBuffer) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("tickshot: %v\n%s", err, out.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("tickshot did not quit\n%s", out.String())
	}
}

// TestMenuPlayBotsAndBack: `tickshot` opens the menu; a name is typed and
// "Play against bots" chosen with Down and Enter: the arena is drawn; Esc
// brings the menu back (the local server stopped); a click on Quit closes
// the window. The name is in config.cfg, and the first game was marked
// played.
func TestMenuPlayBotsAndBack(t *testing.T) {
	cmd, wid, dir, out := startMenu(t)
	waitScreen(t, wid, 20*time.Second, "the menu", isMenu)
	typeName(t, wid, "alice")
	// The keyboard: Down moves from the name field to Play, Enter presses it.
	time.Sleep(300 * time.Millisecond)
	xdo(t, "key", "Down")
	time.Sleep(300 * time.Millisecond)
	xdo(t, "key", "Return")
	waitScreen(t, wid, 30*time.Second, "the game against bots", isGame)
	time.Sleep(500 * time.Millisecond)
	xdo(t, "key", "Escape")
	waitScreen(t, wid, 20*time.Second, "the menu after Esc", isMenu)
	b, err := os.ReadFile(filepath.Join(dir, "config.cfg"))
	if err != nil || !strings.Contains(string(b), `name "alice"`) {
		t.Errorf("config.cfg after typing the name: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "played")); err != nil {
		t.Errorf("the local server did not stop (no first-game marker): %v", err)
	}
	click(t, wid, menuX, menuQuitY)
	waitExit(t, cmd, out)
}

// TestMenuJoinsServer: a server runs on loopback; in the menu a name is
// typed and Join a game clicked: the server appears in the LAN list, a
// click on it and Enter join (the server's /status lists a player with the
// typed name), Esc leaves; then its address typed in the address field and
// Enter join it again.
func TestMenuJoinsServer(t *testing.T) {
	port := pickPort(t)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	// "!" sorts first, above servers other tests on this machine announce.
	srv := exec.Command(binPath, "server", "--addr", addr, "--bots", "0", "--name", "!menu test "+strconv.Itoa(port))
	srvOut := &syncBuffer{}
	srv.Stdout, srv.Stderr = srvOut, srvOut
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	}()
	cmd, wid, dir, out := startMenu(t)
	waitScreen(t, wid, 20*time.Second, "the menu", isMenu)
	typeName(t, wid, "bob")
	click(t, wid, menuX, menuJoinY)
	// The first row of the list (client/menu's join page at 1280x720):
	// its button's fill appears where the empty list was dark.
	start := time.Now()
	for {
		if n := countColour(grabWindow(t, wid), image.Rect(300, 260, 1000, 279), 0x22, 0x26, 0x2d); n > 2000 {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("no server in the LAN list after 10 s\nclient:\n%s\nserver:\n%s", out.String(), srvOut.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the server appeared in the LAN list after %v", time.Since(start).Round(100*time.Millisecond))
	// A click selects the row and puts the keyboard on it; Enter joins.
	// (A double click joins too: TestServerListJoins in client/menu.)
	xdo(t, "mousemove", "--window", wid, "640", "269")
	xdo(t, "click", "1")
	time.Sleep(800 * time.Millisecond) // longer than a double click
	xdo(t, "key", "Return")
	waitPlayers(t, addr, []string{"bob"}, out, srvOut)
	waitScreen(t, wid, 20*time.Second, "the game joined from the list", isGame)
	xdo(t, "key", "Escape")
	waitScreen(t, wid, 20*time.Second, "the menu after Esc", isMenu)
	waitPlayers(t, addr, nil, out, srvOut)

	// Again by address: the join page puts the keyboard in the address
	// field, with the address clicked before selected, so typing replaces it.
	click(t, wid, menuX, menuJoinY)
	time.Sleep(500 * time.Millisecond)
	xdo(t, "type", "--delay", "40", addr)
	// ebitenui's text input takes typed characters and a command key in
	// separate steps: an Enter in the same frame as the last characters is
	// lost. Give the typing a frame first, as a person's pause does.
	time.Sleep(300 * time.Millisecond)
	xdo(t, "key", "Return")
	waitPlayers(t, addr, []string{"bob"}, out, srvOut)
	waitScreen(t, wid, 20*time.Second, "the game joined by address", isGame)
	xdo(t, "key", "Escape")
	waitScreen(t, wid, 20*time.Second, "the menu after Esc", isMenu)
	if b, _ := os.ReadFile(filepath.Join(dir, "recent.txt")); strings.TrimSpace(string(b)) != addr {
		t.Errorf("recent.txt = %q, want %s once", b, addr)
	}
	xdo(t, "key", "Escape") // nothing to go back to on the main page
	click(t, wid, menuX, menuQuitY)
	waitExit(t, cmd, out)
}

// countColour counts the pixels of colour r, g, b in rect of img.
func countColour(img image.Image, rect image.Rectangle, r, g, b uint32) int {
	n := 0
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		for x := rect.Min.X; x < rect.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if cr>>8 == r && cg>>8 == g && cb>>8 == b {
				n++
			}
		}
	}
	return n
}

// waitPlayers waits until the server at addr lists exactly these humans.
func waitPlayers(t *testing.T, addr string, want []string, out, srvOut *syncBuffer) {
	t.Helper()
	for end := time.Now().Add(20 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		names := statusNames(t, addr)
		if strings.Join(names, ",") == strings.Join(want, ",") {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the server lists players %q, want %q\nclient:\n%s\nserver:\n%s", names, want, out.String(), srvOut.String())
		}
	}
}

// statusNames returns the names of the players on the server at addr.
func statusNames(t *testing.T, addr string) []string {
	resp, err := http.Get("http://" + addr + "/status")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var st struct {
		Players []struct {
			Name string `json:"name"`
			Bot  bool   `json:"bot"`
		} `json:"players"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatalf("/status: %v", err)
	}
	var names []string
	for _, p := range st.Players {
		if !p.Bot {
			names = append(names, p.Name)
		}
	}
	return names
}

// startMenuArgs is startMenu for a second window: its own config dir and
// args, its window found by process id.
func startMenuArgs(t *testing.T, args ...string) (*exec.Cmd, string, *syncBuffer) {
	t.Helper()
	cmd, out := startTickshot(t, t.TempDir(), args...)
	wid := strings.Fields(xdo(t, "search", "--sync", "--onlyvisible", "--pid", strconv.Itoa(cmd.Process.Pid), "--name", "^Tickshot$"))[0]
	return cmd, wid, out
}

// front raises and focuses a window.
func front(t *testing.T, wid string) {
	xdo(t, "windowraise", wid)
	xdo(t, "windowfocus", "--sync", wid)
	time.Sleep(300 * time.Millisecond)
}

// TestMenuHostAndJoin is the "done when" between two windows on
// one machine: the first hosts a game from the menu (Host a game, a
// server name, Start), the second finds it in its LAN list and joins with
// a click and Enter; the host's server lists both; when the host goes
// back to the menu its server stops.
func TestMenuHostAndJoin(t *testing.T) {
	port := pickPort(t)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	host, hostWid, hostOut := startMenuArgs(t, "menu", "--nosound", "--name", "hostess", "--addr", addr)
	front(t, hostWid)
	waitScreen(t, hostWid, 20*time.Second, "the host's menu", isMenu)
	click(t, hostWid, menuX, 396) // Host a game
	time.Sleep(500 * time.Millisecond)
	click(t, hostWid, menuX, 259) // Server name; "!" sorts it first in the list
	xdo(t, "type", "--delay", "40", "!hosted "+strconv.Itoa(port))
	time.Sleep(300 * time.Millisecond)
	click(t, hostWid, 737, 615) // Start
	waitPlayers(t, addr, []string{"hostess"}, hostOut, hostOut)
	waitScreen(t, hostWid, 20*time.Second, "the host's game", isGame)

	// The guest's window on top of the host's: the X server keeps no
	// pixels of a covered window, so the host's is unmapped meanwhile.
	xdo(t, "windowunmap", "--sync", hostWid)
	guest, guestWid, guestOut := startMenuArgs(t, "menu", "--nosound", "--name", "guest")
	front(t, guestWid)
	waitScreen(t, guestWid, 20*time.Second, "the guest's menu", isMenu)
	click(t, guestWid, menuX, menuJoinY)
	start := time.Now()
	for countColour(grabWindow(t, guestWid), image.Rect(300, 260, 1000, 279), 0x22, 0x26, 0x2d) <= 2000 {
		if time.Since(start) > 10*time.Second {
			t.Fatalf("the hosted game is not in the guest's LAN list after 10 s\nhost:\n%s\nguest:\n%s", hostOut.String(), guestOut.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("the hosted game appeared in the guest's LAN list after %v", time.Since(start).Round(100*time.Millisecond))
	click(t, guestWid, 640, 269)
	time.Sleep(800 * time.Millisecond)
	xdo(t, "key", "Return")
	waitPlayers(t, addr, []string{"hostess", "guest"}, hostOut, guestOut)
	waitScreen(t, guestWid, 20*time.Second, "the guest's game", isGame)

	// The host leaves: its server stops, and the guest is told.
	xdo(t, "windowunmap", "--sync", guestWid)
	xdo(t, "windowmap", "--sync", hostWid)
	front(t, hostWid)
	xdo(t, "key", "Escape")
	waitScreen(t, hostWid, 20*time.Second, "the host's menu after Esc", isMenu)
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		resp, err := http.Get("http://" + addr + "/status")
		if err != nil {
			break
		}
		resp.Body.Close()
		if time.Now().After(end) {
			t.Fatal("the hosted server still answers 10 s after the host went back to the menu")
		}
	}
	click(t, hostWid, menuX, menuQuitY)
	waitExit(t, host, hostOut)
	xdo(t, "windowmap", "--sync", guestWid)
	front(t, guestWid)
	xdo(t, "key", "Escape") // the error screen ("Disconnected"): Esc goes to the menu
	waitScreen(t, guestWid, 20*time.Second, "the guest's menu", isMenu)
	click(t, guestWid, menuX, menuQuitY)
	waitExit(t, guest, guestOut)
}
