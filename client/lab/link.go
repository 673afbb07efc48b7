package lab

import (
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"tickshot/net/proto"
	"tickshot/net/transport"
)

// wire carries every frame in flight between the lab's clients and its
// server on the virtual clock: each frame is due at its send time plus the
// sending direction's latency and jitter, or lost. Reliable frames (the
// handshake, chat, settings) keep their order and are never lost, as on a
// WebSocket; snapshots and usercmds are datagrams (transport.Datagrammer),
// lost and reordered as on WebRTC's unordered channel. Frames due at the
// same millisecond arrive in the order they were sent.
type wire struct {
	now    *time.Duration
	epoch  time.Time
	flight []flight
	seq    uint64
}

type flight struct {
	at  time.Duration
	seq uint64
	to  *linkEnd
	f   transport.Frame
	end bool // the sender closed: the peer ends when this arrives
}

// deliver hands over every frame due by now, in (due time, send order).
func (w *wire) deliver() {
	now := *w.now
	var due []flight
	keep := w.flight[:0]
	for _, f := range w.flight {
		if f.at <= now {
			due = append(due, f)
		} else {
			keep = append(keep, f)
		}
	}
	w.flight = keep
	sort.Slice(due, func(i, j int) bool {
		if due[i].at != due[j].at {
			return due[i].at < due[j].at
		}
		return due[i].seq < due[j].seq
	})
	for _, f := range due {
		f.f.At = w.epoch.Add(f.at)
		f.to.arrive(f)
	}
}

// linkEnd is one end of a lab link: a transport.Transport whose frames go
// through the wire with the latency, jitter and loss of its direction
// (out, read live from the lab's knobs).
type linkEnd struct {
	w    *wire
	peer *linkEnd
	out  *Link // this end's sending direction
	rng  *rand.Rand
	opt  transport.Options
	name string

	deliver func(transport.Frame)
	ended   func()

	once         sync.Once
	done, closed chan struct{}
	reason       string
	remote       bool
	lastReliable time.Duration // due time of the newest reliable frame sent
	// firstReliable is the due time of the first reliable frame sent (the
	// Hello, the Accept): no datagram arrives before it, as a WebRTC data
	// channel opens after the handshake. sentReliable: it was sent.
	firstReliable time.Duration
	sentReliable  bool
	stats         transport.Stats
	lost          uint64 // datagrams this end sent that the wire dropped
}

// newLink returns the client's and the server's end of a link whose
// directions are up (client→server) and down.
func newLink(w *wire, up, down *Link, seed uint64) (client, server *linkEnd) {
	mk := func(name string, out *Link, opt transport.Options, s uint64) *linkEnd {
		return &linkEnd{w: w, out: out, opt: opt, name: name, rng: rand.New(rand.NewPCG(seed, s)),
			done: make(chan struct{}), closed: make(chan struct{})}
	}
	client = mk("lab:client", up, proto.ClientOptions(), 1)
	server = mk("lab:server", down, proto.ServerOptions(), 2)
	client.peer, server.peer = server, client
	return client, server
}

// Push implements transport.Pusher. On an end that has already ended,
// ended is called at once: the reader's channel closes all the same.
func (e *linkEnd) Push(deliver func(transport.Frame), ended func()) {
	e.deliver, e.ended = deliver, ended
	select {
	case <-e.done:
		ended()
	default:
	}
}

// delay is one frame's trip: latency plus uniform jitter, ms resolution.
func (e *linkEnd) delay() time.Duration {
	d := time.Duration(e.out.LagMs) * time.Millisecond
	if e.out.JitterMs > 0 {
		d += time.Duration(e.rng.IntN(e.out.JitterMs+1)) * time.Millisecond
	}
	return d
}

func (e *linkEnd) send(b []byte, datagram bool) bool {
	select {
	case <-e.done:
		return false
	default:
	}
	e.stats.PacketsOut++
	e.stats.BytesOut += uint64(len(b))
	at := *e.w.now + e.delay()
	if datagram {
		if e.out.LossPct > 0 && e.rng.Float64()*100 < e.out.LossPct {
			e.lost++
			return true
		}
		at = max(at, e.firstReliable)
	} else {
		at = max(at, e.lastReliable)
		if !e.sentReliable {
			// Not lastReliable == 0: with no latency the first is due at 0,
			// and the next would move the data channel's opening.
			e.firstReliable, e.sentReliable = at, true
		}
		e.lastReliable = at
	}
	e.w.seq++
	e.w.flight = append(e.w.flight, flight{at: at, seq: e.w.seq, to: e.peer, f: transport.Frame{Data: b, Datagram: datagram}})
	return true
}

// Send implements transport.Transport: the reliable path.
func (e *linkEnd) Send(b []byte) bool { return e.send(b, false) }

// SendDatagram implements transport.Datagrammer.
func (e *linkEnd) SendDatagram(b []byte) bool { return e.send(b, true) }

// arrive is a frame reaching this end.
func (e *linkEnd) arrive(f flight) {
	select {
	case <-e.done:
		return
	default:
	}
	if f.end {
		e.finish(f.f.Data, true)
		return
	}
	e.stats.PacketsIn++
	e.stats.BytesIn += uint64(len(f.f.Data))
	if len(f.f.Data) > e.opt.Limit() {
		e.Close("frame too large")
		return
	}
	if e.deliver != nil {
		e.deliver(f.f)
	}
}

// finish ends this end; farewell (remote) is the peer's closing reason.
func (e *linkEnd) finish(reason []byte, remote bool) {
	e.once.Do(func() {
		e.reason, e.remote = string(reason), remote
		close(e.done)
		close(e.closed)
		if e.ended != nil {
			e.ended()
		}
	})
}

// Close implements transport.Transport: the farewell travels like any
// reliable frame, and the peer ends when it arrives.
func (e *linkEnd) Close(reason string) {
	select {
	case <-e.done:
		return
	default:
	}
	if e.opt.Farewell != nil {
		if b := e.opt.Farewell(reason); b != nil {
			e.Send(b)
		}
	}
	at := max(*e.w.now+e.delay(), e.lastReliable)
	e.w.seq++
	e.w.flight = append(e.w.flight, flight{at: at, seq: e.w.seq, to: e.peer, f: transport.Frame{Data: []byte(reason)}, end: true})
	e.finish([]byte(reason), false)
}

// Abort implements transport.Transport.
func (e *linkEnd) Abort(reason string, remote bool) { e.finish([]byte(reason), remote) }

// Recv implements transport.Transport; a Pusher's reader never uses it.
func (e *linkEnd) Recv() <-chan transport.Frame { return nil }

// Done implements transport.Transport.
func (e *linkEnd) Done() <-chan struct{} { return e.done }

// Closed implements transport.Transport.
func (e *linkEnd) Closed() <-chan struct{} { return e.closed }

// Reason implements transport.Transport.
func (e *linkEnd) Reason() (string, bool) {
	select {
	case <-e.done:
		return e.reason, e.remote
	default:
		return "", false
	}
}

// Stats implements transport.Transport.
func (e *linkEnd) Stats() transport.Stats { return e.stats }

// RemoteAddr implements transport.Transport.
func (e *linkEnd) RemoteAddr() string { return e.peer.name }

// Kind implements transport.Kinder.
func (e *linkEnd) Kind() string { return transport.KindLab }
