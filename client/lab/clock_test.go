package lab

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// Advance keeps the window's time: a second of updates at 1/60 s each,
// at full speed and in slow motion, runs the lab for a second × speed
// (the clock's 1 ms steps carry what each call leaves over).
func TestAdvanceKeepsTheWindowsTime(t *testing.T) {
	for _, speed := range []float64{1, 0.5, 0.1} {
		l, err := New(Config{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		for range 60 {
			l.Advance(time.Duration(float64(time.Second) / 60 * speed))
		}
		want := time.Duration(float64(time.Second) * speed)
		if d := l.Now() - want; d < -step || d > step {
			t.Errorf("speed %g: 60 updates of 1/60 s ran the lab %v, want %v", speed, l.Now(), want)
		}
	}
}

// A lab given no seed runs seeded all the same (the server would take
// seed 0 from the wall clock): its saved file names the seed it ran with.
func TestSeedZeroIsSeeded(t *testing.T) {
	l, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.Save(&buf); err != nil {
		t.Fatal(err)
	}
	var f struct{ Seed uint64 }
	if err := json.Unmarshal(buf.Bytes(), &f); err != nil {
		t.Fatal(err)
	}
	if f.Seed == 0 {
		t.Errorf("a lab with seed 0 saved seed %d: the server took its seed from the wall clock", f.Seed)
	}
}
