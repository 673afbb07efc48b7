package netclient_test

import (
	"errors"
	"regexp"
	"strconv"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
)

// pump polls and ticks c at 64 Hz for d, or until stop returns true; it
// returns the Poll error, if any.
func pump(c *netclient.Client, d time.Duration, stop func() bool) error {
	const dt = time.Second / 64
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		if err := c.Poll(); err != nil {
			return err
		}
		c.Tick(dt, netclient.Input{})
		if stop != nil && stop() {
			return nil
		}
		time.Sleep(dt)
	}
	return nil
}

var warningRE = regexp.MustCompile(`^Connection problem, auto-disconnect in (\d+) s$`)

// TestConnectionProblemAndTimeout silences the snapshot stream of a client
// of a real server (net_fakeloss 100 on what the client receives): the
// warning comes after ProblemAfter, counts down to cl_timeout, goes when
// snapshots flow again, and at cl_timeout the client disconnects itself
// with a reason Describe words.
func TestConnectionProblemAndTimeout(t *testing.T) {
	srv := startServer(t, server.Config{TickRate: 64})
	cfg := netclient.DefaultConfig("quiet")
	cfg.Timeout = 2 * time.Second
	c := connect(t, srv.Addr(), cfg)
	if err := pump(c, 5*time.Second, func() bool { return c.Stats.SnapshotsReceived >= 10 }); err != nil {
		t.Fatal(err)
	}
	if _, bad := c.ConnectionProblem(time.Now()); bad {
		t.Fatal("connection problem reported while snapshots flow")
	}
	if got := c.ProblemAfter(); got != netclient.MinProblemAfter {
		t.Errorf("ProblemAfter at cl_updaterate %d = %v, want %v", c.Cfg.UpdateRate, got, netclient.MinProblemAfter)
	}

	// Silence: the warning within ProblemAfter plus a tick or two.
	c.SetFakeConditions(proto.FakeConditions{LossPct: 100})
	cut := time.Now()
	var tr netclient.Trouble
	_ = pump(c, 2*time.Second, func() bool {
		var bad bool
		tr, bad = c.ConnectionProblem(time.Now())
		return bad
	})
	after := time.Since(cut)
	if tr.Silence == 0 {
		t.Fatalf("no connection problem %v after the snapshots stopped", after)
	}
	if after > c.ProblemAfter()+250*time.Millisecond {
		t.Errorf("warning %v after the snapshots stopped, want at most %v", after, c.ProblemAfter()+250*time.Millisecond)
	}
	m := warningRE.FindStringSubmatch(tr.String())
	if m == nil {
		t.Fatalf("warning %q, want %q", tr.String(), warningRE)
	}
	if n, _ := strconv.Atoi(m[1]); n != 2 {
		t.Errorf("warning %q with cl_timeout 2 s and %v of silence: want 2 s left", tr.String(), tr.Silence)
	}
	t.Logf("warning %v after the cut (silence %v): %q", after.Round(time.Millisecond), tr.Silence.Round(time.Millisecond), tr)

	// Snapshots again: the warning goes.
	c.SetFakeConditions(proto.FakeConditions{})
	if err := pump(c, time.Second, func() bool { _, bad := c.ConnectionProblem(time.Now()); return !bad }); err != nil {
		t.Fatal(err)
	}
	if tr, bad := c.ConnectionProblem(time.Now()); bad {
		t.Fatalf("still %q a second after snapshots resumed", tr)
	}

	// A pause of the owner (a hidden tab) is not the server's silence: the
	// count starts afresh when polling resumes.
	c.SetFakeConditions(proto.FakeConditions{LossPct: 100})
	time.Sleep(1500 * time.Millisecond)
	if err := c.Poll(); err != nil {
		t.Fatalf("after a 1.5 s pause of the owner: %v", err)
	}
	if tr, bad := c.ConnectionProblem(time.Now()); bad {
		t.Errorf("after a 1.5 s pause of the owner: %q at once", tr)
	}

	// Silence up to cl_timeout: the client gives up by itself.
	start := time.Now()
	err := pump(c, 5*time.Second, nil)
	var closed *netclient.ClosedError
	if !errors.As(err, &closed) || !closed.TimedOut {
		t.Fatalf("after %v of silence with cl_timeout 2 s: Poll = %v, want a timeout", time.Since(start), err)
	}
	if el := time.Since(start); el < 1900*time.Millisecond || el > 2300*time.Millisecond {
		t.Errorf("timed out %v after the silence began, want 2 s", el)
	}
	if got, want := netclient.Describe(err, srv.Addr()), "The server did not answer in time: nothing arrived from it for 2 s."; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if _, bad := c.ConnectionProblem(time.Now()); bad {
		t.Error("a connection problem is still reported after the disconnection")
	}
}
