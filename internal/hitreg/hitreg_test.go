package hitreg

import (
	"context"
	"testing"
	"time"
)

// TestHitregOverWebsockets runs the benchmark end to end: a real server and
// two real clients over websockets on loopback with 150 ms of round trip.
// With lag compensation every shot aimed at the target as drawn must
// register and the server must trace against exactly what was drawn; without
// it, a target strafing at full speed is mostly missed.
func TestHitregOverWebsockets(t *testing.T) {
	if testing.Short() {
		t.Skip("real-time benchmark over websockets (about 20 s)")
	}
	run := func(unlag bool) Result {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := Run(ctx, Options{RTTMs: 150, Shots: 40, Unlag: unlag, Seed: 1})
		if err != nil {
			t.Fatalf("sv_unlag %v: %v", unlag, err)
		}
		t.Logf("sv_unlag %v: %+v", unlag, res)
		if res.Shots < 40 || res.Answered < res.Shots*9/10 {
			t.Fatalf("sv_unlag %v: %d shots fired, %d answered", unlag, res.Shots, res.Answered)
		}
		return res
	}

	on := run(true)
	if on.ConfirmedPct < 95 {
		t.Errorf("sv_unlag 1 at 150 ms: %.1f%% confirmed, want >= 95%%", on.ConfirmedPct)
	}
	if on.ErrMedian != 0 {
		t.Errorf("sv_unlag 1: median rewind error %v units, want 0", on.ErrMedian)
	}
	// Every answered shot has a verdict; on an honest client most claims
	// are taken at their word (a refused one is the only kind allowed to
	// be off: the error p99 must then come from refusals).
	if on.RewindClaimed+on.RewindRefused != on.Answered || on.RewindClaimed < on.Answered*9/10 {
		t.Errorf("sv_unlag 1: %d claims taken, %d refused, of %d answered shots", on.RewindClaimed, on.RewindRefused, on.Answered)
	}
	if on.RewindRefused == 0 && on.ErrMax != 0 {
		t.Errorf("sv_unlag 1: no claim refused, yet a rewind was %v units off", on.ErrMax)
	}
	if on.MeasuredRTTMs < 140 || on.MeasuredRTTMs > 400 {
		t.Errorf("measured RTT %v ms for 150 ms of fake lag", on.MeasuredRTTMs)
	}

	off := run(false)
	if off.ConfirmedPct > 60 {
		t.Errorf("sv_unlag 0 at 150 ms: %.1f%% confirmed, want <= 60%% (lag compensation should matter)", off.ConfirmedPct)
	}
	if off.ConfirmedPct >= on.ConfirmedPct {
		t.Errorf("sv_unlag 0 confirmed %.1f%% >= sv_unlag 1's %.1f%%", off.ConfirmedPct, on.ConfirmedPct)
	}
}
