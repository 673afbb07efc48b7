package demo

import (
	"errors"
	"fmt"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/transport"
)

// Transport is a demo as a transport.Transport: the frames it delivers are
// the recorded ones, pushed by the Player at their recorded times; what the
// client sends goes nowhere (counted in Stats.PacketsOut).
type Transport struct {
	*transport.Endpoint
	name string
}

func newTransport(name string) *Transport {
	return &Transport{Endpoint: transport.NewEndpoint(), name: name}
}

// Send implements transport.Transport: the frame is dropped.
func (t *Transport) Send(b []byte) bool {
	select {
	case <-t.Done():
		return false
	default:
	}
	t.Sent(len(b))
	return true
}

// Close implements transport.Transport.
func (t *Transport) Close(reason string) { t.Abort(reason, false) }

// Abort implements transport.Transport.
func (t *Transport) Abort(reason string, remote bool) {
	t.End(reason, remote)
	t.CloseRecv()
	t.Release()
}

// RemoteAddr implements transport.Transport.
func (t *Transport) RemoteAddr() string { return "demo:" + t.name }

func (t *Transport) push(data []byte, at time.Time) {
	t.Read(len(data))
	t.Deliver(transport.Frame{Data: data, At: at})
}

// Speeds of playback (demo_timescale).
const (
	MinScale = 0.25
	MaxScale = 4
)

// deliverWait bounds the wait for a pushed frame to come out of the
// connection (it takes microseconds; only a wedged machine waits).
const deliverWait = 10 * time.Second

// Player plays a demo back into a netclient.Client. Its clock is the
// demo's: Advance moves it by real time times the speed (demo_timescale)
// unless paused, and runs every record due, in order, each at its
// recorded time, so the client computes what it computed when recording,
// at any speed.
type Player struct {
	Demo *Demo
	// C is the playback client (a new one after a seek backwards).
	C *netclient.Client
	// T is the demo clock: time since the demo's start.
	T      time.Duration
	Paused bool
	Scale  float64 // demo_timescale, MinScale..MaxScale
	// OnPacket and OnFrame, when set, are called after each record of
	// those kinds was applied (tests hash what playback did).
	OnPacket func(r *Record)
	OnFrame  func(r *Record)

	cfg  netclient.Config
	pb   *netclient.Playback // C's transport and command source
	t    *Transport
	next int           // index of the next record
	cur  time.Duration // the time of the record being applied (the client's clock)
	err  error
	done bool
}

// NewPlayer starts playing d with cfg's switches (the recorded Config
// replaces its rates and netcode settings).
func NewPlayer(d *Demo, cfg netclient.Config) (*Player, error) {
	if cfg.Name == "" {
		cfg.Name = d.Header.Name
	}
	p := &Player{Demo: d, Scale: 1, cfg: cfg}
	if err := p.restart(); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Player) restart() error {
	if p.C != nil {
		p.C.Close("demo restarted")
	}
	d := p.Demo
	p.t = newTransport(d.File)
	p.next, p.cur, p.T, p.err, p.done = 0, 0, 0, nil, false
	first, err := d.record(0)
	if err != nil {
		return err
	}
	pb, err := netclient.NewPlayback(p.t, first.Data, p.time(first.At), p.cfg, func() time.Time { return p.time(p.cur) })
	if err != nil {
		return &Error{d.File, first.Offset, err.Error()}
	}
	p.pb, p.C = pb, pb.Client()
	p.next = 1
	p.cur = first.At
	return nil
}

// time is the client's time of demo time t.
func (p *Player) time(t time.Duration) time.Time { return p.Demo.Header.Start.Add(t) }

// Now is the real time the window draws at: the demo clock.
func (p *Player) Now() time.Time { return p.time(p.T) }

// Err returns why playback stopped early (a record the client refused).
func (p *Player) Err() error { return p.err }

// Done reports whether every record has been played.
func (p *Player) Done() bool { return p.done || p.next >= p.Demo.Len() }

// Tick returns the tick of the newest snapshot played.
func (p *Player) Tick() uint32 { return p.C.View().SnapshotTick }

// SetScale sets demo_timescale, clamped to MinScale..MaxScale.
func (p *Player) SetScale(s float64) {
	if s != s {
		s = 1
	}
	p.Scale = min(max(s, MinScale), MaxScale)
}

// Advance moves the demo clock by real time dt (times Scale, unless
// paused) and plays every record due; the clock stops at the demo's end.
func (p *Player) Advance(dt time.Duration) error {
	if !p.Paused && dt > 0 {
		p.T += time.Duration(float64(dt) * p.Scale)
	}
	return p.runUntil(func(at time.Duration) bool { return at <= p.T })
}

// Step plays the next record whatever its time (the clock follows it).
func (p *Player) Step() error {
	if p.Done() {
		return nil
	}
	err := p.apply()
	p.T = max(p.T, p.cur)
	return err
}

// runUntil plays the records whose time (Demo.at) is due. At the end of
// the demo the clock stops at its length (Demo.Duration): nothing is
// left to play, and a clock running on would make the client see its
// server fall silent.
func (p *Player) runUntil(due func(at time.Duration) bool) error {
	for p.err == nil && !p.Done() {
		if !due(p.Demo.at(p.next)) {
			break
		}
		if err := p.apply(); err != nil {
			return err
		}
	}
	if p.Done() {
		p.T = min(p.T, p.Demo.Duration)
	}
	return p.err
}

// apply plays the next record.
func (p *Player) apply() error {
	if p.err != nil {
		return p.err
	}
	rec, err := p.Demo.record(p.next)
	if err != nil {
		p.err = err
		return err
	}
	r := &rec
	p.next++
	if r.Kind != KindConfig && r.Kind != KindState {
		p.cur = r.At
	}
	switch r.Kind {
	case KindPacket:
		p.t.push(r.Data, p.time(r.At))
		err = p.pb.Deliver(1, deliverWait)
		if err == nil && p.OnPacket != nil {
			p.OnPacket(r)
		}
	case KindFrame:
		f := *r.Frame
		f.Now = p.time(r.At)
		err = p.pb.Frame(&f)
		if err == nil && p.OnFrame != nil {
			p.OnFrame(r)
		}
	case KindConfig:
		p.pb.Config(*r.Config)
	case KindState:
		p.pb.Seed(r.State)
	case KindEnd:
		p.done = true
	}
	if err != nil {
		var ce *netclient.ClosedError
		if errors.As(err, &ce) {
			err = fmt.Errorf("the client refused the frame: %s", ce.Reason)
		}
		p.err = &Error{p.Demo.File, r.Offset, err.Error()}
	}
	return p.err
}

// GotoTick seeks to server tick n (Source's demo_gototick): forward, it
// plays records without drawing until a snapshot of tick n or later has
// been applied; backwards, it restarts from the beginning first. The
// demo clock then stands at that snapshot's arrival: the client's newest
// snapshot is the first recorded at tick n or later, within one snapshot
// interval of n unless the one before was lost.
func (p *Player) GotoTick(n uint32) error {
	if n < p.C.View().SnapshotTick || p.err != nil {
		if err := p.restart(); err != nil {
			return err
		}
	}
	for p.err == nil && !p.Done() && p.C.View().SnapshotTick < n {
		if err := p.Step(); err != nil {
			return err
		}
	}
	return p.err
}

// Seek moves the demo clock to t (←/→ by 5 s): forward it plays the
// records up to t without drawing, backwards it restarts first.
func (p *Player) Seek(t time.Duration) error {
	t = max(t, 0)
	if t < p.T || p.err != nil {
		if err := p.restart(); err != nil {
			return err
		}
	}
	p.T = t
	return p.runUntil(func(at time.Duration) bool { return at <= t })
}

// Close ends playback.
func (p *Player) Close() {
	if p.C != nil {
		p.C.Close("demo closed")
	}
}

// Describe is the demo in one line, for the console.
func (d *Demo) Describe() string {
	return fmt.Sprintf("%s: map %s, %d ticks/s, player %q, %.1f s, ticks %d..%d", d.File, d.Header.Map, d.Header.TickRate,
		d.Header.Name, d.Duration.Seconds(), d.FirstTick, d.LastTick)
}

var _ transport.Transport = (*Transport)(nil)
