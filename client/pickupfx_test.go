//go:build !headless

package client

import (
	"bytes"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
)

// TestPickupFlashOncePerTake: the pickup feedback fires once each time the
// predicted take counter grows, not on the frames after, with the newest
// take's kind and text; the flash ends after pickupFlashTime; the chime
// is a sound of its own, not silent.
func TestPickupFlashOncePerTake(t *testing.T) {
	var pf pickupFlash
	frame := 16 * time.Millisecond
	if pf.update(netclient.TakeCount{}, frame) {
		t.Fatal("fired with no take")
	}
	fired := 0
	takes := netclient.TakeCount{}
	for i := range 120 {
		if i == 10 || i == 40 {
			takes = netclient.TakeCount{N: takes.N + 1, Kind: game.PickupKind(1 + i/40*3)}
		}
		if pf.update(takes, frame) {
			fired++
			if pf.left != pickupFlashTime || pf.kind != takes.Kind {
				t.Errorf("frame %d: flash %v of %v, want %v of %v", i, pf.left, pf.kind, pickupFlashTime, takes.Kind)
			}
		}
		if i == 39 && pf.left != pickupFlashTime-29*frame {
			t.Errorf("the first flash has %v left after 29 frames", pf.left)
		}
	}
	if fired != 2 {
		t.Errorf("fired %d times for 2 takes over 120 frames", fired)
	}
	if pf.left != 0 || pf.kind != game.PickupDamage {
		t.Errorf("after 80 frames: %v left of %v, want the double damage's flash over", pf.left, pf.kind)
	}
	if pickupText(game.PickupHealth) != "+25 health" || pickupText(game.PickupDamage) != "DOUBLE DAMAGE" {
		t.Errorf("texts %q, %q", pickupText(game.PickupHealth), pickupText(game.PickupDamage))
	}
	pcm := synthSounds()
	if len(pcm[sndPickup]) == 0 || bytes.Count(pcm[sndPickup], []byte{0}) == len(pcm[sndPickup]) || bytes.Equal(pcm[sndPickup], pcm[sndKill]) {
		t.Error("the pickup chime is missing, silent or the kill's")
	}
}
