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

// stallWatch measures the snapshot stream's silence: the time since its
// last sign of life (a snapshot's arrival, the connection, or the end of a
// pause in polling). It says when the silence is a problem (ProblemAfter)
// and when the client gives up (GiveUpAfter); it reads no clock itself, so
// it is tested with made-up times (stall_test.go).
type stallWatch struct {
	heard    time.Time // the last sign of life
	lastPoll time.Time // the last Poll (zero before the first)
}

// noteSnapshot records the arrival of a snapshot at at (used or not: the
// stream lives).
func (w *stallWatch) noteSnapshot(at time.Time) {
	if at.After(w.heard) {
		w.heard = at
	}
}

// notePoll restarts the silence count at now after a pause of the owner
// longer than pollPause: what arrived meanwhile may have been dropped from
// the full receive queue.
func (w *stallWatch) notePoll(now time.Time) {
	if !w.lastPoll.IsZero() && now.Sub(w.lastPoll) > pollPause && now.After(w.heard) {
		w.heard = now
	}
	w.lastPoll = now
}

// silence returns the time since the last sign of life at now.
func (w *stallWatch) silence(now time.Time) time.Duration { return now.Sub(w.heard) }

// trouble reports whether, at now, the silence is longer than
// cfg.ProblemAfter, with the silence and the time left before
// cfg.GiveUpAfter.
func (w *stallWatch) trouble(now time.Time, cfg Config) (Trouble, bool) {
	silence := w.silence(now)
	if silence <= cfg.ProblemAfter() {
		return Trouble{}, false
	}
	return Trouble{Silence: silence, Left: max(cfg.GiveUpAfter()-silence, 0)}, true
}

// expired returns the *ClosedError (TimedOut) of a silence of
// cfg.GiveUpAfter or more at now, nil before.
func (w *stallWatch) expired(now time.Time, cfg Config) error {
	if w.silence(now) < cfg.GiveUpAfter() {
		return nil
	}
	return &ClosedError{Reason: fmt.Sprintf("timed out: no snapshot from the server for %v", cfg.GiveUpAfter()), TimedOut: true}
}

// ConnectionProblem reports whether, at now, snapshots have stopped for
// longer than ProblemAfter, with the silence and the time left before the
// client gives up. It is false again as soon as a snapshot arrives (Poll),
// and once the connection has ended.
func (c *Client) ConnectionProblem(now time.Time) (Trouble, bool) {
	if c.err != nil {
		return Trouble{}, false
	}
	return c.stall.trouble(now, c.cfg)
}
