package transport_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/net/transport"
	"tickshot/net/transport/transporttest"
)

func TestPipeConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T, a, b transport.Options) (transport.Transport, transport.Transport) {
		return transport.Pipe(a, b)
	})
}

func TestFakeLagConformance(t *testing.T) {
	transporttest.Run(t, func(t *testing.T, a, b transport.Options) (transport.Transport, transport.Transport) {
		ta, tb := transport.Pipe(a, b)
		fa, fb := transport.NewFakeLag(ta), transport.NewFakeLag(tb)
		fa.Set(transport.FakeConditions{LagMs: 3, JitterMs: 4})
		fb.Set(transport.FakeConditions{LagMs: 10})
		return fa, fb
	})
}

// Frames held back by fake lag keep their order and arrive no earlier than
// the lag; switched off live, frames pass at once again: well within the
// half second the lag would have held them (a bound a busy machine keeps).
func TestFakeLagOverPipe(t *testing.T) {
	a, b := transport.Pipe(transport.Options{}, transport.Options{})
	fb := transport.NewFakeLag(b)
	fb.Set(transport.FakeConditions{LagMs: 500, JitterMs: 30})
	start := time.Now()
	for i := 0; i < 50; i++ {
		a.Send([]byte{byte(i)})
	}
	for i := 0; i < 50; i++ {
		f := <-fb.Recv()
		if f.Data[0] != byte(i) {
			t.Fatalf("frame %d arrived as %d", i, f.Data[0])
		}
		if d := f.At.Sub(start); d < 500*time.Millisecond {
			t.Fatalf("frame %d arrived after %v, under the 500 ms lag", i, d)
		}
	}
	fb.Set(transport.FakeConditions{})
	t0 := time.Now()
	a.Send([]byte{99})
	if f := <-fb.Recv(); f.Data[0] != 99 || time.Since(t0) > 250*time.Millisecond {
		t.Fatalf("after lag off: %v after %v", f.Data, time.Since(t0))
	}
	fb.Set(transport.FakeConditions{LossPct: 100})
	a.Send([]byte{1})
	a.Send([]byte{2})
	// Wait for both to be dropped (the receiving goroutine counts them).
	for deadline := time.Now().Add(5 * time.Second); fb.Dropped() < 2 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	select {
	case f := <-fb.Recv():
		t.Fatalf("100%% loss delivered %v", f.Data)
	case <-time.After(50 * time.Millisecond):
	}
	if fb.Dropped() != 2 {
		t.Errorf("Dropped() = %d, want 2", fb.Dropped())
	}
}

// Burst loss: LossPct of the frames lost in the long run, in runs of about
// LossBurst frames (independent loss at 5 % makes runs of about 1.05).
func TestFakeLagBurstLoss(t *testing.T) {
	runs := func(c transport.FakeConditions) (lossPct, meanRun float64) {
		a, b := transport.Pipe(transport.Options{}, transport.Options{})
		fb := transport.NewFakeLag(b)
		fb.Set(c)
		const n = 20000
		got := make([]bool, n)
		var received atomic.Int64
		done := make(chan struct{})
		go func() {
			defer close(done)
			for f := range fb.Recv() {
				i := int(f.Data[0]) | int(f.Data[1])<<8
				got[i] = true
				received.Add(1)
				if i == n-1 {
					return
				}
			}
		}()
		for i := range n - 1 {
			for !a.Send([]byte{byte(i), byte(i >> 8)}) {
				time.Sleep(time.Millisecond) // the pipe's queue is full: wait, never drop
			}
			// Every 64 frames, wait for the receiver to have them (or the
			// fake loss to have dropped them): on a busy machine a starved
			// receiver would otherwise overflow the queue and lose frames
			// that are not the fake loss's.
			if i%64 == 63 {
				for deadline := time.Now().Add(10 * time.Second); received.Load()+int64(fb.Dropped()) < int64(i+1); {
					if time.Now().After(deadline) {
						t.Fatalf("frame %d: %d received, %d dropped after 10 s", i, received.Load(), fb.Dropped())
					}
					time.Sleep(100 * time.Microsecond)
				}
			}
		}
		fb.Set(transport.FakeConditions{}) // the last frame always arrives
		last := n - 1
		a.Send([]byte{byte(last), byte(last >> 8)})
		<-done
		if d := fb.Stats().DroppedIn; d != 0 {
			t.Fatalf("%d frames dropped by a full receive queue, not by the fake loss", d)
		}
		lost, nruns := 0, 0
		for i := range n {
			if !got[i] {
				lost++
				if i == 0 || got[i-1] {
					nruns++
				}
			}
		}
		return 100 * float64(lost) / n, float64(lost) / float64(max(nruns, 1))
	}
	pct, run := runs(transport.FakeConditions{LossPct: 5, LossBurst: 4})
	if pct < 3.5 || pct > 6.5 || run < 3 || run > 5 {
		t.Errorf("5 %% in bursts of 4: lost %.1f %% in runs of %.2f", pct, run)
	}
	pct, run = runs(transport.FakeConditions{LossPct: 5})
	if pct < 4 || pct > 6 || run > 1.2 {
		t.Errorf("5 %% independent: lost %.1f %% in runs of %.2f", pct, run)
	}
}

// Serve runs the simulated network on its caller's goroutine: held frames
// keep their order and arrive no earlier than the lag; deliver returning
// false ends it (true); the inner link ending hands over what arrived
// (true); stop ends it without that (false).
func TestFakeLagServeInline(t *testing.T) {
	a, b := transport.Pipe(transport.Options{}, transport.Options{})
	fb := transport.NewFakeLagInline(b)
	if fb.Recv() != nil {
		t.Fatal("an inline FakeLag has a Recv channel")
	}
	fb.Set(transport.FakeConditions{LagMs: 200, JitterMs: 20})
	start := time.Now()
	for i := 0; i < 20; i++ {
		a.Send([]byte{byte(i)})
	}
	n := 0
	ended := fb.Serve(func(f transport.Frame) bool {
		if f.Data[0] != byte(n) {
			t.Fatalf("frame %d arrived as %d", n, f.Data[0])
		}
		if d := f.At.Sub(start); d < 200*time.Millisecond {
			t.Fatalf("frame %d arrived after %v, under the 200 ms lag", n, d)
		}
		n++
		return n < 20
	}, nil, nil)
	if !ended || n != 20 {
		t.Fatalf("Serve returned %v after %d frames, want true after 20", ended, n)
	}

	// No conditions: frames pass at once; a closed stop ends Serve.
	fb.Set(transport.FakeConditions{})
	stop := make(chan struct{})
	a.Send([]byte{7})
	got := 0
	if fb.Serve(func(f transport.Frame) bool { got++; close(stop); return true }, stop, nil) || got != 1 {
		t.Fatalf("with stop closed Serve returned true (or delivered %d frames, want 1)", got)
	}

	// The link ends: what arrived is handed over, then Serve returns true.
	in := b.Stats().PacketsIn
	a.Send([]byte{8})
	for deadline := time.Now().Add(5 * time.Second); b.Stats().PacketsIn == in && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond) // until it reached b: Close drops a frame still being written
	}
	a.Close("bye")
	var last byte
	if !fb.Serve(func(f transport.Frame) bool { last = f.Data[0]; return true }, nil, b.Done()) || last != 8 {
		t.Fatalf("after the link ended the last frame was %d, want 8", last)
	}
}

// tapEnd is an Endpoint-based transport whose frames come through Deliver
// and that a reader taps (as net/rtc's).
type tapEnd struct{ *transport.Endpoint }

func (e tapEnd) Tap(deliver func(transport.Frame), ended func()) { e.TapRecv(deliver, ended) }
func (tapEnd) Send([]byte) bool                                  { return true }
func (tapEnd) Close(string)                                      {}
func (tapEnd) Abort(string, bool)                                {}
func (tapEnd) RemoteAddr() string                                { return "tap" }

// StartTapped hands frames over on the delivering goroutine with no
// conditions, and by a timer with them: in each deliverer's order, no
// earlier than the lag, never two at once though two goroutines deliver.
// Frames queued before the tap come first; deliver saying false ends it
// (over closes, no frame after); the owner's stop drops what is held; the
// reader's end closes over.
func TestFakeLagStartTapped(t *testing.T) {
	e := tapEnd{transport.NewEndpoint()}
	e.Deliver(transport.Frame{Data: []byte{0}, At: time.Now()}) // queued before the tap
	fl := transport.NewFakeLagInline(e)
	got := make(chan transport.Frame, 100)
	var inside atomic.Int32
	var stopAfter atomic.Int32 // deliver says false on this frame's first byte (0: never)
	deliver := func(f transport.Frame) bool {
		if inside.Add(1) != 1 {
			t.Error("two frames handed over at once")
		}
		defer inside.Add(-1)
		got <- f
		return stopAfter.Load() == 0 || int32(f.Data[0]) != stopAfter.Load()
	}
	over, stop := fl.StartTapped(e, deliver)
	next := func(within time.Duration) (transport.Frame, bool) {
		select {
		case f := <-got:
			return f, true
		default:
		}
		select {
		case f := <-got:
			return f, true
		case <-time.After(within):
			return transport.Frame{}, false
		}
	}
	if f, ok := next(0); !ok || f.Data[0] != 0 {
		t.Fatal("the frame queued before the tap was not handed over by StartTapped")
	}
	e.Deliver(transport.Frame{Data: []byte{1}, At: time.Now()})
	select {
	case f := <-got:
		if f.Data[0] != 1 {
			t.Fatalf("got frame %d, want 1", f.Data[0])
		}
	default:
		t.Fatal("with no conditions frame 1 was not handed over by Deliver itself")
	}

	// Lagged: 20 frames from each of two goroutines.
	fl.Set(transport.FakeConditions{LagMs: 100, JitterMs: 20})
	start := time.Now()
	var wg sync.WaitGroup
	for g := range 2 {
		wg.Go(func() {
			for i := range 20 {
				e.Deliver(transport.Frame{Data: []byte{byte(10 + 20*g + i)}, At: time.Now()})
			}
		})
	}
	wg.Wait()
	last := [2]int{-1, -1}
	for range 40 {
		f, ok := next(10 * time.Second)
		if !ok {
			t.Fatal("lagged frames did not all arrive within 10 s")
		}
		if d := time.Since(start); d < 100*time.Millisecond {
			t.Fatalf("frame %d handed over after %v, under the 100 ms lag", f.Data[0], d)
		}
		g, i := int(f.Data[0]-10)/20, int(f.Data[0]-10)%20
		if i <= last[g] {
			t.Fatalf("goroutine %d's frame %d came after its frame %d", g, i, last[g])
		}
		last[g] = i
	}

	// deliver says false on frame 50: over closes; frame 51, held behind
	// it, never comes.
	stopAfter.Store(50)
	fl.Set(transport.FakeConditions{LagMs: 20})
	e.Deliver(transport.Frame{Data: []byte{50}, At: time.Now()})
	e.Deliver(transport.Frame{Data: []byte{51}, At: time.Now()})
	select {
	case <-over:
	case <-time.After(10 * time.Second):
		t.Fatal("over did not close after deliver said false")
	}
	if f, ok := next(0); !ok || f.Data[0] != 50 {
		t.Fatalf("frame 50 not handed over before the end (ok %v)", ok)
	}
	fl.Set(transport.FakeConditions{}) // 52 would pass at once
	e.Deliver(transport.Frame{Data: []byte{52}, At: time.Now()})
	if f, ok := next(100 * time.Millisecond); ok {
		t.Fatalf("frame %d handed over after deliver said false", f.Data[0])
	}
	stop()

	// A second tap: stop drops the held frames; the reader's end closes over.
	e2 := tapEnd{transport.NewEndpoint()}
	fl2 := transport.NewFakeLagInline(e2)
	fl2.Set(transport.FakeConditions{LagMs: 50})
	over2, stop2 := fl2.StartTapped(e2, deliver)
	e2.Deliver(transport.Frame{Data: []byte{60}, At: time.Now()})
	stop2()
	if f, ok := next(200 * time.Millisecond); ok {
		t.Fatalf("frame %d held at stop was handed over", f.Data[0])
	}
	e3 := tapEnd{transport.NewEndpoint()}
	over3, _ := transport.NewFakeLagInline(e3).StartTapped(e3, deliver)
	e3.CloseRecv()
	select {
	case <-over3:
	default:
		t.Fatal("the reader's end did not close over")
	}
	select {
	case <-over2:
		t.Fatal("stop closed over: the owner's end is its own")
	default:
	}
}
