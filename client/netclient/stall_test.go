package netclient_test

import (
	"errors"
	"math"
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
// with a reason Describe words. Each moment is judged against the client's
// own record of the silence (Trouble.Silence, the Polls before and after),
// not against a wall-clock margin: on a busy machine a Poll may come late,
// but the warning and the timeout must come at the first look past their
// thresholds, never before.
func TestConnectionProblemAndTimeout(t *testing.T) {
	srv := startServer(t, server.Config{TickRate: 64})
	cfg := netclient.DefaultConfig("quiet")
	cfg.Timeout = 2 * time.Second
	c := connect(t, srv.Addr(), cfg)
	if err := pump(c, 5*time.Second, func() bool { return c.View().Stats.SnapshotsReceived >= 10 }); err != nil {
		t.Fatal(err)
	}
	if _, bad := c.ConnectionProblem(time.Now()); bad {
		t.Fatal("connection problem reported while snapshots flow")
	}
	if got := c.View().Config.ProblemAfter(); got != netclient.MinProblemAfter {
		t.Errorf("ProblemAfter at cl_updaterate %d = %v, want %v", c.View().Config.UpdateRate, got, netclient.MinProblemAfter)
	}

	// Silence: the warning at the first look past ProblemAfter.
	c.SetFakeConditions(proto.FakeConditions{LossPct: 100})
	cut := time.Now()
	var tr netclient.Trouble
	var prevLook, look time.Time
	_ = pump(c, 10*time.Second, func() bool {
		prevLook, look = look, time.Now()
		var bad bool
		tr, bad = c.ConnectionProblem(look)
		return bad
	})
	after := time.Since(cut)
	if tr.Silence == 0 {
		t.Fatalf("no connection problem %v after the snapshots stopped", after)
	}
	if tr.Silence <= c.View().Config.ProblemAfter() {
		t.Errorf("warning after %v of silence, want more than %v", tr.Silence, c.View().Config.ProblemAfter())
	}
	// The look before saw no problem: it came no later than ProblemAfter
	// past the last snapshot (look - Silence), or the warning was late.
	if heard := look.Add(-tr.Silence); !prevLook.IsZero() && prevLook.Sub(heard) > c.View().Config.ProblemAfter() {
		t.Errorf("no warning at %v of silence, over ProblemAfter %v", prevLook.Sub(heard), c.View().Config.ProblemAfter())
	}
	m := warningRE.FindStringSubmatch(tr.String())
	if m == nil {
		t.Fatalf("warning %q, want %q", tr.String(), warningRE)
	}
	if left := c.View().Config.GiveUpAfter() - tr.Silence; tr.Left != left {
		t.Errorf("Left %v with cl_timeout 2 s and %v of silence, want %v", tr.Left, tr.Silence, left)
	}
	// Rounded up to whole seconds: 2 s left until a second of silence.
	if n, _ := strconv.Atoi(m[1]); n != int(math.Ceil(tr.Left.Seconds())) || (tr.Silence < time.Second && n != 2) {
		t.Errorf("warning %q with cl_timeout 2 s and %v of silence", tr.String(), tr.Silence)
	}
	t.Logf("warning %v after the cut (silence %v): %q", after.Round(time.Millisecond), tr.Silence.Round(time.Millisecond), tr)

	// Snapshots again: the warning goes.
	c.SetFakeConditions(proto.FakeConditions{})
	if err := pump(c, 10*time.Second, func() bool { _, bad := c.ConnectionProblem(time.Now()); return !bad }); err != nil {
		t.Fatal(err)
	}
	if tr, bad := c.ConnectionProblem(time.Now()); bad {
		t.Fatalf("still %q after snapshots resumed", tr)
	}

	// A pause of the owner (a hidden tab) is not the server's silence: the
	// count starts afresh when polling resumes.
	c.SetFakeConditions(proto.FakeConditions{LossPct: 100})
	time.Sleep(1500 * time.Millisecond)
	pausedAt := time.Now() // the Poll after the pause counts the silence from here on
	if err := c.Poll(); err != nil {
		t.Fatalf("after a 1.5 s pause of the owner: %v", err)
	}
	if tr, bad := c.ConnectionProblem(time.Now()); bad {
		t.Errorf("after a 1.5 s pause of the owner: %q at once", tr)
	}

	// Silence up to cl_timeout: the client gives up by itself, at the
	// first Poll at least cl_timeout after the pause ended, and not
	// before. The silence began between pausedAt and start.
	start := time.Now()
	var lastOK time.Time // when the last Poll that found no timeout began
	var err error
	for deadline := start.Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Second / 64) {
		at := time.Now()
		if err = c.Poll(); err != nil {
			break
		}
		lastOK = at
		c.Tick(time.Second/64, netclient.Input{})
	}
	failed := time.Now()
	var closed *netclient.ClosedError
	if !errors.As(err, &closed) || !closed.TimedOut {
		t.Fatalf("after %v of silence with cl_timeout 2 s: Poll = %v, want a timeout", failed.Sub(start), err)
	}
	if el := failed.Sub(pausedAt); el < c.View().Config.GiveUpAfter() {
		t.Errorf("timed out %v after the silence began, before cl_timeout %v", el, c.View().Config.GiveUpAfter())
	}
	if el := lastOK.Sub(start); el >= c.View().Config.GiveUpAfter() {
		t.Errorf("a Poll %v after the silence began found no timeout, past cl_timeout %v", el, c.View().Config.GiveUpAfter())
	}
	t.Logf("timed out %v after the silence began (the Poll before at %v)", failed.Sub(start).Round(time.Millisecond), lastOK.Sub(start).Round(time.Millisecond))
	if got, want := netclient.Describe(err, srv.Addr()), "The server did not answer in time: nothing arrived from it for 2 s."; got != want {
		t.Errorf("Describe = %q, want %q", got, want)
	}
	if _, bad := c.ConnectionProblem(time.Now()); bad {
		t.Error("a connection problem is still reported after the disconnection")
	}
}
