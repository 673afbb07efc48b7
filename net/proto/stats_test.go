package proto

import (
	"math"
	"testing"
	"time"
)

var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func ms(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }

func TestMeterScripted(t *testing.T) {
	var m Meter // default window: 1 s
	if p, b := m.Rates(t0); p != 0 || b != 0 {
		t.Fatalf("empty meter: %v packets/s, %v bytes/s", p, b)
	}
	script := []struct {
		at, size int // ms, bytes
	}{{0, 100}, {100, 200}, {500, 300}, {900, 50}, {1000, 400}, {1050, 10}}
	for _, s := range script {
		m.Add(ms(s.at), s.size)
	}
	if m.Last() != 10 {
		t.Errorf("Last = %d, want 10", m.Last())
	}
	cases := []struct {
		now              int // ms
		packets, bytesPS float64
	}{
		// Window (now-1s, now]: the packet at 0 is out at 1050 already
		// (it was expired by the Add at 1050).
		{1050, 5, 200 + 300 + 50 + 400 + 10},
		{1099, 5, 960},
		{1100, 4, 760}, // the packet at 100 is exactly 1 s old: out
		{1499, 4, 760},
		{1500, 3, 460},
		{1900, 2, 410},
		{2000, 1, 10},
		{2050, 0, 0},
		{9000, 0, 0},
	}
	for _, c := range cases {
		p, b := m.Rates(ms(c.now))
		if p != c.packets || b != c.bytesPS {
			t.Errorf("at %d ms: %v packets/s, %v bytes/s; want %v, %v", c.now, p, b, c.packets, c.bytesPS)
		}
	}
	if m.Last() != 10 {
		t.Errorf("Last after expiry = %d, want 10 (the newest packet's size stays)", m.Last())
	}
	// Refill after everything expired.
	m.Add(ms(9100), 70)
	if p, b := m.Rates(ms(9100)); p != 1 || b != 70 {
		t.Errorf("after refill: %v, %v; want 1, 70", p, b)
	}
}

func TestMeterWindowScales(t *testing.T) {
	m := Meter{Window: 500 * time.Millisecond}
	for i := 0; i < 10; i++ { // one 100-byte packet every 100 ms
		m.Add(ms(100*i), 100)
	}
	// (400, 900]: packets at 500..900 = 5 in 0.5 s.
	if p, b := m.Rates(ms(900)); p != 10 || b != 1000 {
		t.Errorf("500 ms window: %v packets/s, %v bytes/s; want 10, 1000", p, b)
	}
}

// A steady stream of exactly 64 packets a second reads 64/s, not 65: the
// window is half-open, so the packet exactly one window old is out.
func TestMeterSteadyStream(t *testing.T) {
	var m Meter
	start := t0
	step := time.Second / 64
	var at time.Time
	for i := 0; i < 64*3; i++ {
		at = start.Add(time.Duration(i) * step)
		m.Add(at, 80)
	}
	p, b := m.Rates(at)
	if p != 64 || b != 64*80 {
		t.Errorf("64/s stream of 80 bytes: %v packets/s, %v bytes/s; want 64, %d", p, b, 64*80)
	}
}

func TestSeqTrackerScripted(t *testing.T) {
	var tr SeqTracker
	if tr.LossPct() != 0 {
		t.Fatalf("empty tracker: %v%%", tr.LossPct())
	}
	for _, s := range []uint32{1, 2, 4, 5, 8} {
		tr.Arrive(s)
	}
	if got := tr.LossPct(); got != 37.5 {
		t.Errorf("1,2,4,5,8: loss %v%%, want 37.5 (3 lost of 8)", got)
	}
	if tr.Total != 3 {
		t.Errorf("Total = %d, want 3", tr.Total)
	}
	// Duplicates and old (reordered) numbers change nothing.
	for _, s := range []uint32{8, 5, 2, 3, 1, 7} {
		tr.Arrive(s)
	}
	if got := tr.LossPct(); got != 37.5 || tr.Total != 3 {
		t.Errorf("after duplicates/old: loss %v%%, Total %d; want 37.5, 3", got, tr.Total)
	}
	tr.Arrive(9)
	if got, want := tr.LossPct(), 100*3.0/9; math.Abs(got-want) > 1e-9 {
		t.Errorf("after 9: loss %v%%, want %v", got, want)
	}
}

// The first number seen starts the count: packets before it are not lost.
func TestSeqTrackerStartsAtFirstSeen(t *testing.T) {
	var tr SeqTracker
	for s := uint32(500); s < 510; s++ {
		tr.Arrive(s)
	}
	if tr.LossPct() != 0 || tr.Total != 0 {
		t.Errorf("joining at 500: loss %v%%, Total %d; want 0, 0", tr.LossPct(), tr.Total)
	}
}

// The window is the last 256 expected packets: old losses roll out, new
// ones roll in.
func TestSeqTrackerWindowRollsOver(t *testing.T) {
	var tr SeqTracker
	// 1..400 with every 4th lost.
	for s := uint32(1); s <= 400; s++ {
		if s%4 != 0 {
			tr.Arrive(s)
		}
	}
	// The last expected is 399 (400 never arrived and nothing after it
	// has yet): window 144..399 = 256 numbers, of which 64 are multiples of 4.
	if got := tr.LossPct(); got != 25 {
		t.Errorf("every 4th lost: %v%%, want 25", got)
	}
	// 401..700 all arrive: the window (445..700) holds no loss any more.
	for s := uint32(401); s <= 700; s++ {
		tr.Arrive(s)
	}
	if got := tr.LossPct(); got != 0 {
		t.Errorf("after 300 clean packets: %v%%, want 0 (old losses must roll out)", got)
	}
	// Then 128 lost in a row and one arrival: window 574..829 holds 128
	// lost (701..828) of 256.
	tr.Arrive(829)
	if got := tr.LossPct(); got != 50 {
		t.Errorf("after a gap of 128: %v%%, want 50", got)
	}
	// Compare, packet by packet, with a naive count over the last 256
	// (the script starts with an arrival: i = 0 has (i*31)%5 == 0).
	var ref []bool
	var tr2 SeqTracker
	next := uint32(1)
	for i := 0; i < 3000; i++ {
		arrive := (i*7919)%13 != 0 && (i/300)%2 == 0 || (i*31)%5 == 0
		if arrive {
			tr2.Arrive(next)
		}
		ref = append(ref, arrive)
		next++
		if !arrive {
			continue
		}
		// ref up to the newest arrival, the last 256 of it.
		w := ref
		if len(w) > 256 {
			w = w[len(w)-256:]
		}
		lost := 0
		for _, a := range w {
			if !a {
				lost++
			}
		}
		want := 100 * float64(lost) / float64(len(w))
		if got := tr2.LossPct(); math.Abs(got-want) > 1e-9 {
			t.Fatalf("packet %d: loss %v%%, naive window says %v%%", i+1, got, want)
		}
	}
}

// A forged or wrapped sequence number far ahead must not make Arrive loop
// for billions of steps (the server feeds it the client's Cmds.Seq).
func TestSeqTrackerHugeGap(t *testing.T) {
	var tr SeqTracker
	tr.Arrive(1)
	done := make(chan struct{})
	go func() {
		tr.Arrive(math.MaxUint32)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Second):
		t.Fatal("Arrive(MaxUint32) after 1 took more than 2 s")
	}
	if tr.Total != math.MaxUint32-2 {
		t.Errorf("Total = %d, want %d", tr.Total, math.MaxUint32-2)
	}
	// Window: 255 lost and the arrival.
	if got, want := tr.LossPct(), 100*255.0/256; math.Abs(got-want) > 1e-9 {
		t.Errorf("loss %v%%, want %v", got, want)
	}
}

func TestJitterConstantSpacing(t *testing.T) {
	var j Jitter
	for tick := 0; tick < 500; tick++ {
		sent := float64(tick) / 64
		// Constant transit of 37 ms.
		j.Add(sent, t0.Add(time.Duration(tick)*time.Second/64+37*time.Millisecond))
	}
	if j.Ms() > 1e-6 {
		t.Errorf("constant spacing: jitter %v ms, want 0", j.Ms())
	}
}

// Transit alternating between base+10 ms and base-10 ms makes every D ±20 ms:
// RFC 3550's J += (|D| - J)/16 gives J_k = 20 (1 - (15/16)^k) ms after k
// differences, converging to 20 ms.
func TestJitterAlternating(t *testing.T) {
	var j Jitter
	var ref float64 // the RFC 3550 estimator, iterated here on its own
	var prevTransit float64
	const base = 0.050
	for i := 0; i < 300; i++ {
		sent := float64(i) * 0.020
		transit := base + 0.010
		if i%2 == 1 {
			transit = base - 0.010
		}
		arrival := t0.Add(time.Duration(math.Round((sent + transit) * 1e9)))
		j.Add(sent, arrival)
		if i > 0 {
			d := transit - prevTransit
			ref += (math.Abs(d) - ref) / 16
		}
		prevTransit = transit
		if math.Abs(j.J-ref) > 1e-9 {
			t.Fatalf("packet %d: J = %v s, RFC 3550 iteration gives %v", i, j.J, ref)
		}
		if i > 0 {
			analytic := 0.020 * (1 - math.Pow(15.0/16, float64(i)))
			if math.Abs(j.J-analytic) > 1e-9 {
				t.Fatalf("packet %d: J = %v s, analytic %v", i, j.J, analytic)
			}
		}
	}
	if got := j.Ms(); math.Abs(got-20) > 0.01 {
		t.Errorf("after 300 packets: %v ms, want 20", got)
	}
	// Back to steady: it decays towards 0 by 15/16 per packet.
	before := j.J
	for i := 300; i < 310; i++ {
		sent := float64(i) * 0.020
		j.Add(sent, t0.Add(time.Duration(math.Round((sent+base-0.010)*1e9))))
	}
	// The first of these has D = 0 only if the previous transit was base-10:
	// i = 299 is odd, so it was.
	if want := before * math.Pow(15.0/16, 10); math.Abs(j.J-want) > 1e-9 {
		t.Errorf("decay: J = %v, want %v", j.J, want)
	}
}
