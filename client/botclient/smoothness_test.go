package botclient

import (
	"testing"
	"time"
)

// A scripted run: snapshots every 50 ms, then a 400 ms stall whose three
// held snapshots arrive in one frame, then every 50 ms again; frames every
// 10 ms, drawn past the newest snapshot during the stall only.
func TestSmoothnessScripted(t *testing.T) {
	var s Smoothness
	t0 := time.Unix(100, 0)
	ms := func(v int) time.Time { return t0.Add(time.Duration(v) * time.Millisecond) }
	s.Frame(ms(0), 0, 0, 0) // before the first snapshot: not counted
	received, tick := 0, uint32(0)
	for at := 10; at <= 1500; at += 10 {
		switch {
		case at <= 500 && at%50 == 0, at > 900 && at%50 == 0:
			received++
			tick++
		case at == 900: // the stall ends: three snapshots at once
			received += 3
			tick += 3
		}
		render := float64(tick) - 0.5
		if at > 600 && at < 900 {
			render = float64(tick) + 0.5
		}
		s.Frame(ms(at), received, render, tick)
	}
	g := s.Gaps()
	// Gaps: 9 of 50 (50..500), 400 (500..900), 0, 0, 12 of 50 (900..1500).
	if g.P50 != 50 || g.P99 != 400 || g.Max != 400 {
		t.Errorf("gaps %+v, want p50 50, p99 400, max 400", g)
	}
	if n := s.Freezes(); n != 1 {
		t.Errorf("%d freezes over %d ms, want 1", n, FreezeMs)
	}
	// Frames from 50 ms (the first snapshot) to 1500 ms: 146; past the
	// newest snapshot from 610 to 890 ms: 29.
	if p := s.ExtrapolatingPct(); p != 19.9 {
		t.Errorf("extrapolating %.1f %% of frames, want 29/146 = 19.9 %%", p)
	}
}

func TestSmoothnessEmpty(t *testing.T) {
	var s Smoothness
	if s.Gaps() != (GapStats{}) || s.Freezes() != 0 || s.ExtrapolatingPct() != 0 {
		t.Error("an empty recorder reports something")
	}
}

// Freezes on the datagram path: a stall on the WebSocket, then the switch
// (OnDatagrams) during a second stall, whose gap spans it and is not
// counted, then a third stall on datagrams, which is.
func TestSmoothnessFreezesOnDatagrams(t *testing.T) {
	var s Smoothness
	t0 := time.Unix(100, 0)
	received := 0
	arrive := func(at int) {
		received++
		s.Frame(t0.Add(time.Duration(at)*time.Millisecond), received, 0, uint32(received))
	}
	arrive(0)
	arrive(50)
	arrive(400) // a 350 ms stall on the WebSocket
	arrive(450)
	s.OnDatagrams() // mid-stall: the channel opened
	arrive(800)     // spans the switch: not counted
	arrive(850)
	s.OnDatagrams() // again: changes nothing
	arrive(1200)    // a 350 ms stall on datagrams
	arrive(1250)
	if n := s.Freezes(); n != 3 {
		t.Errorf("%d freezes in all, want 3", n)
	}
	if n := s.FreezesOnDatagrams(); n != 1 {
		t.Errorf("%d freezes on the datagram path, want 1", n)
	}
	var ws Smoothness // never on datagrams
	ws.Frame(t0, 1, 0, 1)
	ws.Frame(t0.Add(time.Second), 2, 0, 2)
	if n := ws.FreezesOnDatagrams(); n != 0 {
		t.Errorf("a WebSocket-only run: %d freezes on the datagram path, want 0", n)
	}
}
