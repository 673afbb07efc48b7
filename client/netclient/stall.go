package netclient

import (
	"fmt"
	"math"
	"time"

	"tickshot/net/ws"
)

// Stall detection: Source's "WARNING: Connection Problem / Auto-disconnect
// in N seconds". When snapshots stop arriving the world freezes; instead of
// leaving the player to wonder for the whole timeout, ConnectionProblem
// says so within ProblemAfter and counts down to the disconnection, which
// the client carries out itself (cl_timeout), so the count is honest even
// when the transport stays up (a server whose game loop hangs while its
// sockets still answer pings).

const (
	// DefaultTimeout is cl_timeout when Config.Timeout is 0: the
	// websocket's own read timeout, so both give up together.
	DefaultTimeout = ws.ReadTimeout
	// MinProblemAfter is the least silence reported as a connection problem.
	MinProblemAfter = 500 * time.Millisecond
	// problemIntervals is how many snapshot intervals (1/cl_updaterate)
	// may pass without a snapshot before it is a problem, when that is
	// longer than MinProblemAfter (cl_updaterate under 8).
	problemIntervals = 4
	// pollPause is the gap between two Polls after which the owner, not
	// the server, is taken to have stopped (a hidden browser tab, a
	// debugger, a suspended laptop): the silence is counted afresh from the
	// end of the pause, since what arrived meanwhile may have been dropped
	// from the full receive queue.
	pollPause = time.Second
)

// Trouble is the state of a snapshot stream that has stopped.
type Trouble struct {
	Silence time.Duration // since the last sign of life (snapshot, connection)
	Left    time.Duration // until the client disconnects (Config.Timeout)
}

// String is the warning shown to the player, as Source words it:
// "Connection problem, auto-disconnect in 14 s" (whole seconds, rounded up,
// so it never reads 0 while connected).
func (t Trouble) String() string {
	return fmt.Sprintf("Connection problem, auto-disconnect in %d s", int(math.Ceil(t.Left.Seconds())))
}

// GiveUpAfter returns cl_timeout: how long without a snapshot before the
// client disconnects (Timeout, or DefaultTimeout when 0).
func (cfg Config) GiveUpAfter() time.Duration {
	if cfg.Timeout > 0 {
		return cfg.Timeout
	}
	return DefaultTimeout
}

// ProblemAfter returns the silence after which Client.ConnectionProblem
// reports a problem: MinProblemAfter, or 4 snapshot intervals at a low
// cl_updaterate.
func (cfg Config) ProblemAfter() time.Duration {
	d := problemIntervals * time.Second / time.Duration(max(cfg.UpdateRate, 1))
	return max(d, MinProblemAfter)
}

// ConnectionProblem reports whether, at now, snapshots have stopped for
// longer than ProblemAfter, with the silence and the time left before the
// client gives up. It is false again as soon as a snapshot arrives (Poll).
func (c *Client) ConnectionProblem(now time.Time) (Trouble, bool) {
	if c.err != nil {
		return Trouble{}, false
	}
	silence := c.link.silence(now)
	if silence <= c.cfg.ProblemAfter() {
		return Trouble{}, false
	}
	return Trouble{Silence: silence, Left: max(c.cfg.GiveUpAfter()-silence, 0)}, true
}

// checkTimeout ends the connection when nothing arrived for Timeout.
func (c *Client) checkTimeout(now time.Time) error {
	if c.link.silence(now) < c.cfg.GiveUpAfter() {
		return nil
	}
	c.err = &ClosedError{Reason: fmt.Sprintf("timed out: no snapshot from the server for %v", c.cfg.GiveUpAfter()), TimedOut: true}
	c.link.conn.Close("timed out")
	return c.err
}
