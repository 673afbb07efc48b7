package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"

	"tickshot/net/proto"
)

// TestWindowAndBrowserVoteNextMap is issue 21's "a second window and a
// browser join the same game, vote for the next map and play it", as
// people do it: a native window client (`tickshot connect`, on its own
// Xvfb display, keys pressed with xdotool) and the browser client
// (headless Chromium on the server's page, keys sent through the DevTools
// protocol) join one dedicated server whose map cycle is arena, foundry,
// plaza, bunker. When both play, an admin connection (the test's own, a
// spectator with the rcon password) ends the match (rcon mp_timelimit);
// at the intermission both press 2, plaza, which is not the cycle's next
// (foundry). The vote's tally, as the server sends it, must count both;
// when the intermission ends plaza loads (/status), both players are on it,
// and both clients go on playing there.
//
// It skips, saying why, where Chromium, the built browser client, Xvfb or
// xdotool is missing.
func TestWindowAndBrowserVoteNextMap(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and the window client, runs a browser and Xvfb")
	}
	for _, tool := range []string{"Xvfb", "xdotool"} {
		if _, err := exec.LookPath(tool); err != nil {
			needBrowser(t, tool+" is not installed (make deps installs it)")
		}
	}
	const pw = "vote-e2e-rcon"
	chrome, _, addr, hc := browserSetup(t, "--map", "arena", "--mapcycle", "arena,foundry,plaza,bunker",
		"--rcon-password", pw, "--cvar", "mp_chattime=25", "--cvar", "sv_timeout=0")
	display := startXvfb(t)
	win := buildWindowClient(t)
	dir := t.TempDir()
	rep := filepath.Join(dir, "report.json")
	game := exec.Command(win, "connect", addr, "--name", "windy", "--nosound", "--exit-report", rep, "--width", "640", "--height", "360")
	game.Env = append(os.Environ(), "DISPLAY="+display, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	var gameOut syncBuf
	game.Stdout, game.Stderr = &gameOut, &gameOut
	if err := game.Start(); err != nil {
		t.Fatal(err)
	}
	gameDone := make(chan struct{}) // closed when the window client exited
	go func() { _ = game.Wait(); close(gameDone) }()
	t.Cleanup(func() {
		select {
		case <-gameDone:
		default:
			_ = game.Process.Kill()
			<-gameDone
		}
		if t.Failed() {
			t.Logf("window client's output:\n%s", gameOut.String())
		}
	})
	xdo := func(args ...string) string {
		t.Helper()
		xctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(xctx, "xdotool", args...)
		cmd.Env = append(os.Environ(), "DISPLAY="+display)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("xdotool %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	ctx, logs := newBrowser(t, chrome, 3*time.Minute)
	if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/?name=webby")); err != nil {
		t.Fatal(err)
	}
	// The invite link joins at once; the page shows the game.
	waitState(t, ctx, logs, "the browser to join", 90*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots >= 10
	})
	waitPlayers(t, hc, addr, "arena", 60*time.Second)

	admin := dialAdmin(t, addr)
	admin.rcon(pw, "mp_timelimit 0.01") // about half a second: the match is long over
	vote := admin.nextVote(t, 30*time.Second, func(v *proto.MapVote) bool { return len(v.Maps) > 0 })
	if vote == nil {
		t.Fatal("no map vote opened in 30 s after the match's time limit was cut")
	}
	admin.rcon(pw, "mp_timelimit 10") // the next match (on the voted map) lasts
	t.Logf("the vote is open: %v", vote.Maps)
	if want := []string{"foundry", "plaza", "bunker"}; strings.Join(vote.Maps, ",") != strings.Join(want, ",") {
		t.Fatalf("candidates %v, want %v (the cycle's next three after arena)", vote.Maps, want)
	}
	const choice, want = 2, "plaza"

	// Both press 2, as a person does, until the server counts two votes
	// for plaza (a key pressed before the client showed the vote is lost,
	// as it is for a person, who presses again).
	wid := strings.Fields(xdo("search", "--sync", "--name", "Tickshot - "+addr))[0]
	deadline := time.Now().Add(15 * time.Second)
	var tally []uint16
	for {
		xdo("windowfocus", "--sync", wid)
		xdo("key", strconv.Itoa(choice))
		if err := holdKey(ctx, strconv.Itoa(choice), "Digit"+strconv.Itoa(choice), 48+choice, 80*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		v := admin.nextVote(t, time.Second, func(v *proto.MapVote) bool { return len(v.Votes) == len(v.Maps) && v.Votes[choice-1] == 2 })
		if v != nil {
			tally = v.Votes
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server never counted both votes for %s: last tally %v\nconsole:\n%s", want, admin.lastVotes(), logs)
		}
	}
	t.Logf("tally %v: both voted for %s", tally, want)

	// The intermission ends: plaza loads, with both players on it.
	st := waitPlayers(t, hc, addr, want, 45*time.Second)
	t.Logf("/status after the intermission: map %s, players %v", st.Map, playerNames(st))

	// Both play on: the browser keeps receiving snapshots and moves; the
	// window client is connected and playing when it closes.
	before := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
	after := waitState(t, ctx, logs, "the browser to play on plaza", 30*time.Second, func(r gameReport) bool {
		return r.Phase == "playing" && r.Snapshots >= before.Snapshots+20 && r.Health > 0
	})
	t.Logf("browser on %s: %d snapshots, health %d", want, after.Snapshots, after.Health)
	if err := game.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-gameDone:
	case <-time.After(30 * time.Second):
		t.Fatal("the window client did not close on SIGINT")
	}
	var r gameReport
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatalf("no exit report from the window client: %v", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("exit report: %v", err)
	}
	if r.Phase != "playing" || r.Health <= 0 {
		t.Errorf("the window client on %s: phase %q, health %d, error %q; want playing", want, r.Phase, r.Health, r.Error)
	}
}

// waitPlayers polls /status until the server runs mapName with the
// players webby (the browser) and windy (the window) on it.
func waitPlayers(t *testing.T, hc *http.Client, addr, mapName string, timeout time.Duration) *status {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var last *status
	var lastErr error
	for time.Now().Before(deadline) {
		st, err := getStatus(hc, addr)
		if err == nil {
			last = st
			names := playerNames(st)
			if st.Map == mapName && slices.Contains(names, "webby") && slices.Contains(names, "windy") {
				return st
			}
		}
		lastErr = err
		time.Sleep(100 * time.Millisecond)
	}
	if last != nil {
		t.Fatalf("waiting for webby and windy on %s: the server runs %s with %v", mapName, last.Map, playerNames(last))
	}
	t.Fatalf("waiting for webby and windy on %s: /status: %v", mapName, lastErr)
	return nil
}

// playerNames are the names of the players /status lists.
func playerNames(st *status) []string {
	var names []string
	for _, p := range st.Players {
		names = append(names, p.Name)
	}
	return names
}

// startXvfb starts an X server of its own (the display number it chose,
// -displayfd) for the window client and xdotool; it stops with the test.
func startXvfb(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "800x600x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	var log syncBuf
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("Xvfb's output:\n%s", log.String())
		}
	})
	line := make(chan string, 1)
	go func() {
		// The whole line: closing the pipe before Xvfb wrote its newline
		// makes that write fail, and Xvfb exits.
		l, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(l)
	}()
	select {
	case n := <-line:
		if n == "" {
			t.Fatalf("Xvfb did not say which display it took:\n%s", log.String())
		}
		t.Logf("Xvfb on :%s", n)
		return ":" + n
	case <-time.After(30 * time.Second):
		t.Fatal("Xvfb did not start in 30 s")
	}
	return ""
}

// buildWindowClient builds the game with its window (cgo, Ebiten).
func buildWindowClient(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tickshot")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build (the window client): %v\n%s", err, out)
	}
	return bin
}

// adminConn is the test's own connection to the server: a spectator that
// runs rcon commands and reads the map vote as the server sends it.
type adminConn struct {
	t     *testing.T
	ws    *websocket.Conn
	votes chan *proto.MapVote
	mu    sync.Mutex
	last  []uint16 // the newest tally
}

// dialAdmin joins addr as the spectator "admin-e2e" and reads its
// messages until the test ends.
func dialAdmin(t *testing.T, addr string) *adminConn {
	t.Helper()
	d := websocket.Dialer{HandshakeTimeout: 5 * time.Second}
	ws, _, err := d.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatalf("admin: dial: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	a := &adminConn{t: t, ws: ws, votes: make(chan *proto.MapVote, 256)}
	hello := &proto.Hello{Protocol: proto.ProtocolVersion, Name: "admin-e2e", Rate: 100000, UpdateRate: 20,
		CmdRate: 64, InterpMs: 100, InterpRatio: 2, Spectate: true}
	if err := ws.WriteMessage(websocket.BinaryMessage, proto.MustEncode(hello)); err != nil {
		t.Fatalf("admin: hello: %v", err)
	}
	go func() {
		for {
			kind, data, err := ws.ReadMessage()
			if err != nil {
				close(a.votes)
				return
			}
			if kind != websocket.BinaryMessage {
				continue
			}
			m, err := proto.Decode(data)
			if err != nil {
				continue
			}
			switch m := m.(type) {
			case *proto.MapVote:
				a.mu.Lock()
				a.last = m.Votes
				a.mu.Unlock()
				select {
				case a.votes <- m:
				default:
				}
			case *proto.Reject:
				t.Logf("admin rejected: %s", m.Reason)
			}
		}
	}()
	return a
}

// rcon runs a server command over rcon.
func (a *adminConn) rcon(password, line string) {
	a.t.Helper()
	msg := &proto.Command{Text: "rcon " + line, Password: password}
	if err := a.ws.WriteMessage(websocket.BinaryMessage, proto.MustEncode(msg)); err != nil {
		a.t.Fatalf("admin: rcon %s: %v", line, err)
	}
}

// nextVote waits up to timeout for a MapVote that satisfies ok; nil when
// none came.
func (a *adminConn) nextVote(t *testing.T, timeout time.Duration, ok func(*proto.MapVote) bool) *proto.MapVote {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case v, open := <-a.votes:
			if !open {
				t.Fatal("admin: the server closed the connection")
			}
			if ok(v) {
				return v
			}
		case <-deadline:
			return nil
		}
	}
}

// lastVotes is the newest tally the server sent.
func (a *adminConn) lastVotes() []uint16 {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.last
}
