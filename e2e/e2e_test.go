// Package e2e tests the built program end to end: the dedicated server
// binary (CGO_ENABLED=0, -tags headless) and headless network bots in
// separate processes, talking over real loopback sockets.
package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"tickshot/client/botclient"
	"time"
)

// Summary is what `tickshot bot --json` prints, one per line.
type Summary = botclient.Summary

// status is the part of GET /status this test reads.
type status struct {
	TickRate int    `json:"tickrate"`
	Map      string `json:"map"`
	Players  []struct {
		Name   string `json:"name"`
		PingMs int    `json:"ping_ms"`
		Bot    bool   `json:"bot"`
		Kills  int    `json:"kills"`
		Deaths int    `json:"deaths"`
		// Transport is webrtc or websocket (absent for a bot).
		Transport string `json:"transport"`
	} `json:"players"`
}

const (
	botDuration = 12 * time.Second
	updateRate  = 20 // the bot command's default cl_updaterate
)

// repoRoot walks up from the test's working directory to the directory of
// the go.mod that declares module tickshot.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(strings.TrimSpace(string(b)), "module tickshot") {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod of module tickshot above the working directory")
		}
		dir = parent
	}
}

// buildServer builds the dedicated server binary as hosts build it.
func buildServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tickshot-server")
	cmd := exec.Command("go", "build", "-tags", "headless", "-o", bin, ".")
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build -tags headless: %v\n%s", err, out)
	}
	return bin
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// syncBuf is a bytes.Buffer safe for a process writer and the test.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proc is a started child process.
type proc struct {
	cmd    *exec.Cmd
	stdout syncBuf
	stderr syncBuf
	done   chan struct{}
	err    error // Wait's result, after done
}

func start(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), done: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", strings.Join(args, " "), err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	return p
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func getStatus(client *http.Client, addr string) (*status, error) {
	resp, err := client.Get("http://" + addr + "/status")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /status: %s", resp.Status)
	}
	var st status
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st); err != nil {
		return nil, fmt.Errorf("GET /status: %w", err)
	}
	return &st, nil
}

// startServer starts the dedicated server on a free port and waits until
// /status answers; extra are more server flags. A port taken between choosing and binding is retried.
func startServer(t *testing.T, bin string, hc *http.Client, extra ...string) (*proc, string) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		addr := freeAddr(t)
		srv := start(t, bin, append([]string{"server", "--addr", addr, "--bots", "0"}, extra...)...)
		deadline := time.Now().Add(15 * time.Second)
		for !srv.exited() && time.Now().Before(deadline) {
			if _, err := getStatus(hc, addr); err == nil {
				return srv, addr
			}
			time.Sleep(50 * time.Millisecond)
		}
		if srv.exited() && attempt < 2 && strings.Contains(srv.stderr.String(), "address already in use") {
			continue
		}
		t.Fatalf("server on %s did not answer /status (exited: %v, %v); log:\n%s", addr, srv.exited(), srv.err, srv.stderr.String())
	}
}

// maxRounds bounds the 12 s games played until the two bots have fought.
// They play on range, one open room whose two spawns face each other 448
// units apart, so they meet at once: in 12 rounds played by hand (two at a
// time on this 2-core machine) every one had both bots firing and 11 a hit
// each way. On arena, where network bots roam and hunt only the players
// their snapshots show (interest management), 4 of 8 rounds had no shots
// exchanged with a hit (bunker: 10 of 16), and six such rounds in a row
// failed CI at 4df2db3. A second
// round is played only if the first fails (a slow start, say).
const maxRounds = 3

// TestServerAndTwoNetworkBots builds the dedicated server, starts it with no
// server bots on the range map, lets two headless network bots (separate
// processes) play each other for 12 s, and stops the server with SIGINT.
// Every round must deliver snapshots at the configured rate and show each
// bot the other one moving;
// when the bots never met in a round, another round is played (up to
// maxRounds) until they have exchanged fire.
func TestServerAndTwoNetworkBots(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and plays for 12 s or more")
	}
	bin := buildServer(t)
	hc := &http.Client{Timeout: 2 * time.Second}
	srv, addr := startServer(t, bin, hc, "--map", "range")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", srv.stderr.String())
		}
	})

	fought := false
	for round := 1; round <= maxRounds && !fought && !t.Failed(); round++ {
		a, b := playRound(t, bin, addr, hc, round)
		if t.Failed() {
			break
		}
		if a.ShotsFired >= 1 && b.ShotsFired >= 1 && a.HitsDealt+b.HitsDealt >= 1 {
			fought = true
			// With interest management a bot sees the other only when it is
			// in view, which it must be for them to fight.
			for _, s := range []Summary{a, b} {
				if s.OthersSeen < 1 || s.OthersMoved < 1 {
					t.Errorf("%s fought but saw %d others and %d move, want the other bot seen moving", s.Name, s.OthersSeen, s.OthersMoved)
				}
			}
			break
		}
		t.Logf("round %d: the bots did not exchange fire (shots %d and %d, hits %d and %d); playing another round",
			round, a.ShotsFired, b.ShotsFired, a.HitsDealt, b.HitsDealt)
	}
	if !t.Failed() && !fought {
		t.Errorf("in %d rounds of %v the two bots never both fired with a hit", maxRounds, botDuration)
	}

	// Stop the server: SIGINT, clean exit within 3 s.
	if err := srv.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatalf("SIGINT: %v", err)
	}
	select {
	case <-srv.done:
		if srv.err != nil {
			t.Errorf("server exit after SIGINT: %v, want status 0", srv.err)
		}
	case <-time.After(3 * time.Second):
		t.Errorf("server still running 3 s after SIGINT")
	}
}

// playRound runs bots "a" and "b" for botDuration against the server,
// watching /status meanwhile, checks everything but combat and returns the
// two summaries.
func playRound(t *testing.T, bin, addr string, hc *http.Client, round int) (Summary, Summary) {
	t.Helper()
	bots := map[string]*proc{}
	for _, name := range []string{"a", "b"} {
		bots[name] = start(t, bin, "bot", "--server", addr, "--count", "1",
			"--duration", botDuration.String(), "--json", "--name", name)
	}

	// Watch /status while they play: both players must show up with a
	// measured ping.
	var statusSeen, bothPinged bool
	var lastStatus *status
	deadline := time.Now().Add(botDuration + 30*time.Second)
	for !(bots["a"].exited() && bots["b"].exited()) {
		if time.Now().After(deadline) {
			t.Fatalf("round %d: bots still running %v after start", round, botDuration+30*time.Second)
		}
		if st, err := getStatus(hc, addr); err == nil {
			statusSeen, lastStatus = true, st
			pinged := map[string]bool{}
			for _, p := range st.Players {
				if p.PingMs > 0 && !p.Bot && p.Name != "" {
					pinged[p.Name[:1]] = true // a1 and b1 (a1(2) if a name was still taken)
				}
			}
			if pinged["a"] && pinged["b"] {
				bothPinged = true
			}
		}
		time.Sleep(250 * time.Millisecond)
	}
	if !statusSeen {
		t.Errorf("round %d: /status never answered during the game", round)
	}
	if !bothPinged {
		t.Errorf("round %d: /status never listed both bots with ping_ms > 0 (last: %+v)", round, lastStatus)
	}

	// The bots' summaries.
	sums := map[string]Summary{}
	for _, name := range []string{"a", "b"} {
		p := bots[name]
		if p.err != nil {
			t.Errorf("bot %s: %v\nstderr:\n%s", name, p.err, p.stderr.String())
		}
		sc := bufio.NewScanner(strings.NewReader(p.stdout.String()))
		n := 0
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				continue
			}
			var s Summary
			if err := json.Unmarshal([]byte(line), &s); err != nil {
				t.Fatalf("bot %s printed %q: %v", name, line, err)
			}
			sums[name] = s
			n++
		}
		if n != 1 {
			t.Fatalf("bot %s printed %d JSON summaries, want 1:\n%s\nstderr:\n%s", name, n, p.stdout.String(), p.stderr.String())
		}
		b, _ := json.Marshal(sums[name])
		t.Logf("round %d bot %s: %s", round, name, b)
	}

	a, b := sums["a"], sums["b"]
	for _, s := range []Summary{a, b} {
		if s.Error != "" {
			t.Errorf("%s ended with error %q, want a normal end", s.Name, s.Error)
		}
		if s.Seconds < botDuration.Seconds()*0.9 {
			t.Errorf("%s played %.1f s, want about %v", s.Name, s.Seconds, botDuration)
		}
		// By the server's clock (the snapshots' ticks, 64 a second when
		// the machine keeps up): a busy machine may run fewer ticks in a
		// wall second, and the server sends per tick.
		if want := float64(s.ServerTicks)*updateRate/64 + 1; float64(s.SnapshotsReceived) < want*0.9 || float64(s.SnapshotsReceived) > want*1.1 {
			t.Errorf("%s received %d snapshots over %d server ticks, want %.0f (%d per 64 ticks) ± 10%%",
				s.Name, s.SnapshotsReceived, s.ServerTicks, want, updateRate)
		}
		if s.MeanRTTMs <= 0 {
			t.Errorf("%s mean RTT %.1f ms, want > 0", s.Name, s.MeanRTTMs)
		}
		// How smoothly snapshots came (issue 19): the median gap near the
		// mean (gaps are timed at the bot's frames, 15.6 ms apart), and on
		// loopback drawn past the newest snapshot in a minority of frames.
		g := s.SnapshotGapMs
		if mean := s.Seconds * 1000 / float64(max(s.SnapshotsReceived, 1)); s.Transport != "websocket" && s.Transport != "webrtc" ||
			g.P50 < mean*0.6 || g.P50 > mean*1.5 || g.P99 < g.P50 || g.Max < g.P99 || s.ExtrapolatingPct > 50 ||
			s.FreezesOver250ms > s.SnapshotsReceived/10 {
			t.Errorf("%s: transport %q, snapshot gaps %+v ms (mean %.1f), %d freezes, %.1f %% extrapolating; want webrtc or websocket, p50 near the mean, p50 <= p99 <= max, few freezes, under 50 %%",
				s.Name, s.Transport, g, mean, s.FreezesOver250ms, s.ExtrapolatingPct)
		}
		// One usercmd per tick of real time, less the ticks of frames too
		// long to make up (a busy machine's stalls: CmdTicksDropped).
		if want := s.Seconds*64 - float64(s.CmdTicksDropped); float64(s.CmdsSent) < want*0.8 {
			t.Errorf("%s sent %d usercmds in %.1f s (%d ticks dropped), want about %.0f (64/s)", s.Name, s.CmdsSent, s.Seconds, s.CmdTicksDropped, want)
		}
	}
	// What one bot dealt the other took (events are resent until acked). The
	// bots start and stop a few ms apart, so a hit in the last moments may be
	// counted by one of them only.
	if absDiff(a.HitsDealt, b.HitsTaken) > 2 || absDiff(b.HitsDealt, a.HitsTaken) > 2 {
		t.Errorf("hits dealt/taken disagree: a dealt %d, b took %d; b dealt %d, a took %d",
			a.HitsDealt, b.HitsTaken, b.HitsDealt, a.HitsTaken)
	}
	if absDiff(a.Kills, b.Deaths) > 1 || absDiff(b.Kills, a.Deaths) > 1 {
		t.Errorf("kills/deaths disagree: a %d/%d, b %d/%d", a.Kills, a.Deaths, b.Kills, b.Deaths)
	}
	return a, b
}

func absDiff(x, y int) int {
	if x > y {
		return x - y
	}
	return y - x
}
