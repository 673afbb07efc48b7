package transport_test

import (
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
