package server

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// Large downloads (the browser client's wasm, a few MB) are capped: at most
// MaxDownloads are sent at once, later ones wait their turn, for at most
// DownloadWait, then get 503 Service Unavailable with Retry-After. Five
// hundred clients downloading at once on 2 cores had kept /status
// unanswered for more than 3 s: what the container's health check and a
// master server's reachability check read. /status and /metrics never wait
// here (downloads_http.go gates only the wasm's route), so with the
// downloads capped they are answered at once. nginx's limit_conn and
// HAProxy's maxconn per backend with a queue timeout work the same way.
const (
	// DefaultMaxDownloads is the most downloads of the browser client sent
	// at once (Config.MaxDownloads, --max-downloads). 32 at a few MB each
	// keep any uplink busy, so a cap costs no throughput: the rest wait in
	// line instead of sharing the link 500 ways.
	DefaultMaxDownloads = 32
	// DefaultDownloadWait is how long a download waits for its turn before
	// it is answered 503 (Config.DownloadWait).
	DefaultDownloadWait = time.Minute
	// DownloadRetryAfter is the Retry-After of that 503, seconds.
	DownloadRetryAfter = 10
)

// errDownloadsBusy is a download that waited DownloadWait for its turn.
var errDownloadsBusy = errors.New("too many downloads of the game at once")

// downloadSlots is the cap on concurrent downloads: a semaphore of max
// slots (a buffered channel) with a bounded wait, and its counts for
// /metrics.
type downloadSlots struct {
	slots   chan struct{}
	wait    time.Duration
	waiting atomic.Int64  // downloads waiting for a slot now
	refused atomic.Uint64 // downloads answered 503 after waiting
}

func newDownloadSlots(max int, wait time.Duration) *downloadSlots {
	return &downloadSlots{slots: make(chan struct{}, max), wait: wait}
}

// acquire takes a slot, waiting at most d.wait: errDownloadsBusy after
// that, ctx's error if the client left first. A nil error must be followed
// by one release.
func (d *downloadSlots) acquire(ctx context.Context) error {
	select {
	case d.slots <- struct{}{}:
		return nil
	default:
	}
	d.waiting.Add(1)
	defer d.waiting.Add(-1)
	t := time.NewTimer(d.wait)
	defer t.Stop()
	select {
	case d.slots <- struct{}{}:
		return nil
	case <-t.C:
		d.refused.Add(1)
		return errDownloadsBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

// release gives a slot back.
func (d *downloadSlots) release() { <-d.slots }

// active is how many downloads are being sent now.
func (d *downloadSlots) active() int { return len(d.slots) }
