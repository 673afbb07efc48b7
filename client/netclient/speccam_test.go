package netclient

import (
	"testing"
	"time"
)

// The spectator camera alone, over Views built by hand.

func TestSpecCamFollowsAndCycles(t *testing.T) {
	m, _ := arenaWorld(t)
	v := View{Map: m, Rendered: []RenderedEntity{
		{ID: 2, X: 100, Y: 100, Alive: true}, {ID: 5, X: 200, Y: 50, Alive: false}, {ID: 7, X: 300, Y: 70, Alive: true}}}
	var s SpecCam
	x, y, following := s.Centre(v)
	if !following || s.Target() != 2 || x != 100 || y != 100 {
		t.Errorf("first Centre: (%v, %v) following %v target %d; want player 2 at (100, 100)", x, y, following, s.Target())
	}
	s.Next(v)
	if s.Target() != 7 {
		t.Errorf("Next from 2: %d, want 7 (5 is dead)", s.Target())
	}
	s.Next(v)
	if s.Target() != 2 {
		t.Errorf("Next from 7: %d, want 2 (wrapping)", s.Target())
	}
	s.Prev(v)
	if s.Target() != 7 {
		t.Errorf("Prev from 2: %d, want 7 (wrapping)", s.Target())
	}
	// The followed player leaves: the next living one is followed.
	gone := View{Map: m, Rendered: v.Rendered[:2]}
	if x, _, ok := s.Centre(gone); !ok || s.Target() != 2 || x != 100 {
		t.Errorf("after 7 left: target %d at x %v (%v), want 2 at 100", s.Target(), x, ok)
	}
	// Nobody alive: the camera stays where it was.
	none := View{Map: m, Rendered: []RenderedEntity{{ID: 5, X: 1, Y: 1}}}
	if x, y, ok := s.Centre(none); ok || x != 100 || y != 100 {
		t.Errorf("nobody alive: (%v, %v) following %v; want (100, 100) not following", x, y, ok)
	}
}

func TestSpecCamFliesWithinTheMap(t *testing.T) {
	m, _ := arenaWorld(t)
	v := View{Map: m}
	var s SpecCam
	if x, y, ok := s.Centre(v); ok || x != m.Width/2 || y != m.Height/2 {
		t.Errorf("nobody to follow: (%v, %v) %v, want the map's centre", x, y, ok)
	}
	s.Fly(v, 1, 0, time.Second)
	if x, _, _ := s.Centre(v); x != m.Width/2 {
		t.Error("Fly moved a camera that is not free")
	}
	s.ToggleFree(v)
	if !s.Free() || s.Target() != 0 {
		t.Fatalf("ToggleFree: free %v target %d", s.Free(), s.Target())
	}
	s.Fly(v, 3, 4, 100*time.Millisecond) // normalised to (0.6, 0.8)
	x, y, _ := s.Centre(v)
	if d := SpecFlySpeed * 0.1; x != m.Width/2+0.6*d || y != m.Height/2+0.8*d {
		t.Errorf("flew to (%v, %v), want %v units along (0.6, 0.8) from the centre", x, y, d)
	}
	s.Fly(v, -1, -1, time.Hour)
	if x, y, _ := s.Centre(v); x != 0 || y != 0 {
		t.Errorf("flew out of the map to (%v, %v), want held at (0, 0)", x, y)
	}
}
