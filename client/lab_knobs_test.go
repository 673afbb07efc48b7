//go:build !headless

package client

import (
	"testing"

	"tickshot/client/lab"
)

// TestLabKnobsStep: every knob of the lab's panel steps up and back down
// to where it was (a switch flips and flips back), changes only its own
// seat, and the RTT knob splits the round trip between the two links.
func TestLabKnobsStep(t *testing.T) {
	def := lab.DefaultKnobs()
	for _, kn := range labKnobs {
		seat := lab.P2
		if kn.server {
			seat = -1
		}
		k := def
		before := kn.value(&k, max(seat, 0))
		kn.step(&k, max(seat, 0), 1)
		up := kn.value(&k, max(seat, 0))
		if up == before {
			t.Errorf("%s: a step up left it at %s", kn.name, up)
		}
		if !kn.server && k.Seats[lab.P1] != def.Seats[lab.P1] {
			t.Errorf("%s: stepping player 2's changed player 1's", kn.name)
		}
		kn.step(&k, max(seat, 0), -1)
		if back := kn.value(&k, max(seat, 0)); back != before {
			t.Errorf("%s: up then down gives %s, want %s", kn.name, back, before)
		}
	}
	k := def
	for range 3 {
		labKnobs[0].step(&k, lab.P1, 1) // RTT 60 → 80 → 100 → 120
	}
	if c := k.Seats[lab.P1]; c.Up.LagMs != 60 || c.Down.LagMs != 60 {
		t.Errorf("RTT 120: links %d ms up, %d ms down; want 60 each", c.Up.LagMs, c.Down.LagMs)
	}
	if got := stepIn(0.5, labSpeeds, 1); got != 1 {
		t.Errorf("faster than x0.5 is x%v, want x1", got)
	}
	if got := stepIn(0.1, labSpeeds, -1); got != 0.1 {
		t.Errorf("slower than x0.1 is x%v, want x0.1 (the slowest)", got)
	}
}

// TestLabKnobsShowEachWay: a link knob set apart on the two ways (a
// preset's loss on the uplink only) shows both; a step sets both alike.
func TestLabKnobsShowEachWay(t *testing.T) {
	k := lab.DefaultKnobs()
	k.Seats[lab.P1].Up.LossPct = 10
	loss := labKnobs[2]
	if got := loss.value(&k, lab.P1); got != "10↑ 0↓ %" {
		t.Errorf("loss 10 %% up, 0 down shows %q", got)
	}
	loss.step(&k, lab.P1, 1)
	if got := loss.value(&k, lab.P1); got != "20 %" {
		t.Errorf("a step up shows %q, want 20 %% both ways", got)
	}
}
