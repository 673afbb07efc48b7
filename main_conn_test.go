//go:build unix && !js

package main

import (
	"bytes"
	"context"
	"math"
	"net"
	"os/exec"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"tickshot/client/netclient"
)

// pickPort returns a loopback TCP port that was free a moment ago.
func pickPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startServerProcess runs `tickshot-server server` on a free loopback port
// until the test ends; it returns the address and the process.
func startServerProcess(t *testing.T, bin string, args ...string) (string, *exec.Cmd) {
	t.Helper()
	addr := "127.0.0.1:" + strconv.Itoa(pickPort(t))
	cmd := exec.Command(bin, append([]string{"server", "--addr", addr, "--log", "warn"}, args...)...)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // SIGKILL ends a stopped process too
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("server log:\n%s", log.String())
		}
	})
	return addr, cmd
}

// connectRetry joins addr, retrying for 10 s while the server starts.
func connectRetry(t *testing.T, addr string, cfg netclient.Config) *netclient.Client {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := netclient.Connect(ctx, netclient.Websocket, addr, cfg)
		cancel()
		if err == nil {
			t.Cleanup(func() { c.Close("test over") })
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("cannot join the server at %s: %v", addr, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

var problemRE = regexp.MustCompile(`^Connection problem, auto-disconnect in (\d+) s$`)

// TestConnectionProblemWhenServerStops runs a real server process and a
// client, stops the server (SIGSTOP): the client must report the
// connection problem at the first look past ProblemAfter (at most 1 s),
// count down to its 15 s timeout, and clear the warning as soon as a
// snapshot arrives after the server resumes (SIGCONT). Each moment is
// judged by the client's own record (Trouble.Silence, the arrival of the
// newest snapshot), not a wall-clock margin: on a busy machine a look, or
// the resumed server, may come late.
func TestConnectionProblemWhenServerStops(t *testing.T) {
	_, headless := binaries(t)
	addr, srv := startServerProcess(t, headless, "--bots", "1")
	c := connectRetry(t, addr, netclient.DefaultConfig("stall-test"))
	const dt = time.Second / 64
	// step polls and ticks the client once; it fails the test if the
	// connection ended.
	step := func() {
		t.Helper()
		if err := c.Poll(); err != nil {
			t.Fatalf("connection ended: %v (%s)", err, netclient.Describe(err, addr))
		}
		c.Tick(dt, netclient.Input{})
		time.Sleep(dt)
	}
	for end := time.Now().Add(10 * time.Second); c.View().Stats.SnapshotsReceived < 20; step() {
		if time.Now().After(end) {
			t.Fatalf("only %d snapshots in 10 s", c.View().Stats.SnapshotsReceived)
		}
	}
	if tr, bad := c.ConnectionProblem(time.Now()); bad {
		t.Fatalf("%q while the server runs", tr)
	}

	if err := srv.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := time.Now()
	resumed := false
	defer func() {
		if !resumed {
			_ = srv.Process.Signal(syscall.SIGCONT)
		}
	}()
	var tr netclient.Trouble
	var prevLook, look time.Time
	for bad := false; !bad; step() {
		if time.Since(stopped) > 10*time.Second {
			t.Fatalf("no connection problem reported %v after SIGSTOP", time.Since(stopped))
		}
		prevLook, look = look, time.Now()
		tr, bad = c.ConnectionProblem(look)
	}
	warnAfter := time.Since(stopped)
	first := tr.String()
	m := problemRE.FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("warning %q, want it to match %q", first, problemRE)
	}
	n0, _ := strconv.Atoi(m[1])
	if pa := c.View().Config.ProblemAfter(); pa > time.Second {
		t.Errorf("ProblemAfter %v, want at most 1 s", pa)
	}
	// The look before saw no problem: it came no later than ProblemAfter
	// past the last snapshot (look - Silence), or the warning was late.
	if heard := look.Add(-tr.Silence); !prevLook.IsZero() && prevLook.Sub(heard) > c.View().Config.ProblemAfter() {
		t.Errorf("no warning at %v of silence, over ProblemAfter %v", prevLook.Sub(heard), c.View().Config.ProblemAfter())
	}
	// 14 or 15 s left of the 15 s timeout, as the silence says (rounded up).
	if tr.Left != c.View().Config.GiveUpAfter()-tr.Silence || n0 != int(math.Ceil(tr.Left.Seconds())) || (tr.Silence < time.Second && n0 != 15) {
		t.Errorf("warning %q (left %v) after %v of silence with the 15 s timeout", first, tr.Left, tr.Silence)
	}

	// The count goes down while the server stays stopped.
	for end := time.Now().Add(1500 * time.Millisecond); time.Now().Before(end); step() {
	}
	tr, bad := c.ConnectionProblem(time.Now())
	later := tr.String()
	if !bad {
		t.Fatal("the warning went while the server was still stopped")
	}
	if m := problemRE.FindStringSubmatch(later); m == nil {
		t.Errorf("warning %q, want it to match %q", later, problemRE)
	} else if n, _ := strconv.Atoi(m[1]); n > n0-1 {
		t.Errorf("1.5 s later the warning reads %q after %q: not counting down", later, first)
	}

	if err := srv.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	resumed = true
	cont := time.Now()
	before := c.View().Stats.SnapshotsReceived
	for bad := true; bad; step() {
		if time.Since(cont) > 10*time.Second {
			t.Fatalf("still %q %v after SIGCONT", tr, time.Since(cont))
		}
		now := time.Now()
		tr, bad = c.ConnectionProblem(now)
		// A snapshot that arrived within ProblemAfter ends the warning.
		if bad && c.View().Stats.SnapshotsReceived > before && now.Sub(c.Net().GraphAt(0).At) <= c.View().Config.ProblemAfter() {
			t.Fatalf("still %q %v after a snapshot arrived", tr, now.Sub(c.Net().GraphAt(0).At))
		}
	}
	clearAfter := time.Since(cont)
	for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); step() {
	}
	if c.View().Stats.SnapshotsReceived <= before {
		t.Errorf("no snapshot after SIGCONT")
	}
	t.Logf("SIGSTOP → warning %v (%q; %q 1.5 s later); SIGCONT → cleared %v",
		warnAfter.Round(time.Millisecond), first, later, clearAfter.Round(time.Millisecond))
}
