package transport_test

import (
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
