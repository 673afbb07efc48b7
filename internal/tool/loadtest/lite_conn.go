package loadtest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"tickshot/internal/tool/liteclient"
	"tickshot/net/proto"
	"tickshot/net/ws"
)

// liteJoinTries is how many times a --lite client tries to join before
// the run fails: a busy server's websocket upgrade or Hello may time out
// (its one core ticking for hundreds of players), a Reject does not retry.
const liteJoinTries = 3

// joinLite joins addr as name (joinLiteOnce), up to liteJoinTries times.
func joinLite(ctx context.Context, addr, name string, seed uint64, opt Options) (*liteclient.Client, error) {
	var err error
	for try := range liteJoinTries {
		var c *liteclient.Client
		if c, err = joinLiteOnce(ctx, addr, name, seed, opt); err == nil {
			return c, nil
		}
		var rej *liteclient.RejectedError
		if errors.As(err, &rej) || ctx.Err() != nil {
			return nil, err
		}
		if Sleep(ctx, time.Duration(try+1)*100*time.Millisecond) != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("%d tries: %w", liteJoinTries, err)
}

// joinLiteOnce dials addr's websocket and joins as name with a
// liteclient.Client (its script moves, aims and fires; seed picks how),
// polling it until the server's Accept: it returns the joined client.
func joinLiteOnce(ctx context.Context, addr, name string, seed uint64, opt Options) (*liteclient.Client, error) {
	jctx, cancel := context.WithTimeout(ctx, liteJoinTimeout)
	defer cancel()
	t, err := ws.Dial(jctx, addr, proto.ClientOptions())
	if err != nil {
		return nil, err
	}
	cfg := liteclient.DefaultConfig(name, seed)
	cfg.UpdateRate, cfg.NoDelta = opt.UpdateRate, opt.NoDelta
	c := liteclient.New(t, cfg)
	for !c.Joined() {
		if err := c.Poll(time.Now()); err != nil {
			return nil, err
		}
		if err := Sleep(jctx, 2*time.Millisecond); err != nil {
			c.Close("no answer to hello")
			return nil, errors.New("no answer to hello within " + liteJoinTimeout.String())
		}
	}
	return c, nil
}

// liteCounters reads a lite client's totals since its join (sizeMax:
// since its ResetPeak).
func liteCounters(c *liteclient.Client) counters {
	st := c.Stats()
	n := counters{snaps: st.Snapshots, lost: st.Lost, choked: st.Choked, bytesIn: st.Transport.BytesIn,
		bytesOut: st.Transport.BytesOut, tick: func() uint32 { t, _, _ := c.Frame(); return t }(),
		sizeSum: st.SnapshotBytes, sizeN: st.Snapshots, sizeMax: st.SnapshotPeak, decodeErrs: st.BaselineMissing}
	if isDecodeError(c.Err()) {
		n.decodeErrs++
	}
	return n
}

// isDecodeError reports whether err is a lite client's end on a snapshot
// that did not decode (liteclient ends with a protocol error then).
func isDecodeError(err error) bool {
	var ce *liteclient.ClosedError
	return errors.As(err, &ce) && !ce.Remote && strings.HasPrefix(ce.Reason, "protocol error")
}
