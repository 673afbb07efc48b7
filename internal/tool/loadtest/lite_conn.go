package loadtest

import (
	"context"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/rtc"
)

// liteConn is one connected --lite client's link to the server.
type liteConn interface {
	// step takes what arrived (decoding snapshots and acking them; onSize
	// gets each snapshot's bytes on the wire) and sends the usercmds due
	// at now, each with in; it returns why the connection ended, if it has.
	step(now time.Time, in netclient.Input, onSize func(int)) error
	haveSnapshot() bool
	counters() counters // totals since the join
	close(reason string)
}

// joinLite dials addr's websocket and joins as name.
func joinLite(ctx context.Context, addr, name string, opt Options) (liteConn, error) {
	cfg := netclient.DefaultConfig(name)
	cfg.UpdateRate, cfg.NoDelta, cfg.Transport = opt.UpdateRate, opt.NoDelta, rtc.ModeWebSocket
	cfg.Predict, cfg.Interpolate, cfg.Smooth = false, false, false
	jctx, cancel := context.WithTimeout(ctx, liteJoinTimeout)
	defer cancel()
	joinMu.Lock() // netclient loads the map on joining (see play)
	c, err := netclient.Connect(jctx, netclient.Websocket, addr, cfg)
	joinMu.Unlock()
	if err != nil {
		return nil, err
	}
	return &netclientLite{c: c, graphHead: c.Net().GraphHead}, nil
}

// netclientLite is a liteConn over netclient with prediction,
// interpolation and smoothing off.
type netclientLite struct {
	c         *netclient.Client
	graphHead int
	sizeSum   uint64
	sizeN     int
}

func (l *netclientLite) step(now time.Time, in netclient.Input, onSize func(int)) error {
	if err := l.c.Poll(); err != nil {
		return err
	}
	for n := (l.c.Net().GraphHead - l.graphHead + netclient.GraphLen) % netclient.GraphLen; n > 0; n-- {
		size := l.c.Net().GraphAt(n - 1).Size
		l.sizeSum += uint64(size)
		l.sizeN++
		onSize(size)
	}
	l.graphHead = l.c.Net().GraphHead
	l.c.Match().TakeEvents()
	l.c.Shots().TakeEffects()
	l.c.Frame(now, in)
	return nil
}

func (l *netclientLite) haveSnapshot() bool { return l.c.View().HaveSnapshot }

func (l *netclientLite) counters() counters {
	st, v := l.c.ConnStats(), l.c.View()
	return counters{snaps: v.Stats.SnapshotsReceived, lost: v.Stats.SnapshotsLost, corr: v.Stats.Corrections,
		choked: l.c.Net().ChokeTotal, bytesIn: st.BytesIn, bytesOut: st.BytesOut, tick: v.SnapshotTick,
		sizeSum: l.sizeSum, sizeN: l.sizeN}
}

func (l *netclientLite) close(reason string) { l.c.Close(reason) }
