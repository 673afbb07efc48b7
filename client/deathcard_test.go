//go:build !headless

package client

import (
	"reflect"
	"testing"

	"tickshot/client/netclient"
	"tickshot/net/proto"
)

// hitEv is an EvHit of attacker a on victim b for dmg.
func hitEv(a, b uint16, dmg int16) proto.Event {
	return proto.Event{Kind: proto.EvHit, A: a, B: b, Value: dmg}
}

// killEv is an EvKill of b by a with weapon w at tick, a at (ax, ay) and b
// at (bx, by).
func killEv(a, b uint16, w int16, tick uint32, ax, ay, bx, by float64) proto.Event {
	return proto.Event{Kind: proto.EvKill, Tick: tick, A: a, B: b, Value: w,
		X: proto.ToFixed(ax), Y: proto.ToFixed(ay), X2: proto.ToFixed(bx), Y2: proto.ToFixed(by)}
}

// The death card says who killed the local player, with what, from how
// far, and the damage each side dealt the other during the life that
// ended (and the others' share); the next life counts from nothing.
func TestDeathCardSaysWhoWithWhatFromHowFar(t *testing.T) {
	vw := netclient.View{ID: 1}
	var d deathCard
	for _, e := range []proto.Event{
		hitEv(1, 2, 25), hitEv(1, 2, 25), // you hit the killer twice
		hitEv(1, 3, 25),                                   // and someone else
		hitEv(2, 1, 25), hitEv(3, 1, 30), hitEv(2, 1, 25), // the killer and another hurt you
		hitEv(2, 3, 99), // not about you
		killEv(2, 1, 0, 500, 100, 100, 400, 500),
	} {
		d.onEvent(&e, &vw)
	}
	if !d.shown {
		t.Fatal("no card after the local player's EvKill")
	}
	want := []string{"Killed by player 2", "with the rifle from 500 units away", "You dealt player 2 50 damage",
		"player 2 dealt you 50 damage", "Others dealt you 30 damage"}
	if !reflect.DeepEqual(d.text, want) {
		t.Errorf("card %q, want %q", d.text, want)
	}

	// The next life starts from nothing; a rocket from 90 units.
	for _, e := range []proto.Event{hitEv(4, 1, 90), killEv(4, 1, 1, 900, 0, 0, 90, 0)} {
		d.onEvent(&e, &vw)
	}
	want = []string{"Killed by player 4", "with the rocket launcher from 90 units away", "You dealt player 4 0 damage", "player 4 dealt you 90 damage"}
	if !reflect.DeepEqual(d.text, want) {
		t.Errorf("second card %q, want %q", d.text, want)
	}

	// A weapon the client does not know (hostile or newer): no weapon named.
	for _, w := range []int16{-1, 99} {
		e := killEv(2, 1, w, 950, 0, 0, 30, 40)
		d.onEvent(&e, &vw)
		if d.text[1] != "50 units away" {
			t.Errorf("weapon %d: %q, want the distance alone", w, d.text[1])
		}
	}

	// Your own rocket.
	for _, e := range []proto.Event{hitEv(1, 1, 45), killEv(1, 1, 1, 990, 10, 10, 10, 10)} {
		d.onEvent(&e, &vw)
	}
	want = []string{"You killed yourself", "with your rocket launcher", "You dealt yourself 45 damage"}
	if !reflect.DeepEqual(d.text, want) {
		t.Errorf("suicide card %q, want %q", d.text, want)
	}

	// Another's death shows nothing new.
	d.shown = false
	e := killEv(1, 2, 0, 1000, 0, 0, 10, 0)
	d.onEvent(&e, &vw)
	if d.shown {
		t.Error("a card for another player's death")
	}
}

// The card stays up while the local player is dead and while the kill cam
// shows it, and comes down once the server has it alive after the death.
func TestDeathCardComesDownAtRespawn(t *testing.T) {
	vw := netclient.View{ID: 1, SnapshotTick: 500}
	vw.ServerState.Dead = true
	var d deathCard
	e := killEv(2, 1, 0, 500, 0, 0, 100, 0)
	d.onEvent(&e, &vw)
	d.update(&vw, false)
	if !d.shown {
		t.Fatal("the card came down while dead")
	}
	vw.ServerState.Dead, vw.SnapshotTick = false, 630
	d.update(&vw, true)
	if !d.shown {
		t.Fatal("the card came down under the kill cam")
	}
	d.update(&vw, false)
	if d.shown {
		t.Fatal("the card stays up after the respawn")
	}
	// A new match takes it down and forgets the life's damage.
	h := hitEv(1, 2, 25)
	d.onEvent(&h, &vw)
	ms := proto.Event{Kind: proto.EvMatchStart}
	d.onEvent(&ms, &vw)
	if len(d.dealt) != 0 || d.shown {
		t.Fatalf("after a new match: dealt %v, shown %v", d.dealt, d.shown)
	}
}
