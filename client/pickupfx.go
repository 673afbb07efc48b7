//go:build !headless

package client

import (
	"math"
	"strconv"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
)

// pickupFlashTime is how long the flash of a pickup taken lasts.
const pickupFlashTime = 900 * time.Millisecond

// pickupFlash is the local player's feedback on a pickup it takes (issue
// 21): a short chime (sndPickup) and, for pickupFlashTime, a ring of the
// pickup's colour opening around the player and a line saying what it
// gave rising over it ("+25 health"). It fires when netclient's
// View.Takes grows, so once per take, at the moment the take is predicted
// (the pickup vanishes in the same frame); a take the server then refuses
// brings the pickup back, the flash having been shown (Quake 3's cgame
// plays its pickup sound on the predicted touch the same way). It only
// reads the view: nothing of it feeds the simulation or the prediction.
type pickupFlash struct {
	seen uint32          // View.Takes.N at the last update
	kind game.PickupKind // what the newest take was
	left time.Duration   // of the flash shown
}

// update counts dt off the flash and reads the take counter t: when it
// grew since the last update, the flash starts again for t.Kind and
// update reports true (the caller plays the chime).
func (pf *pickupFlash) update(t netclient.TakeCount, dt time.Duration) bool {
	pf.left = max(pf.left-dt, 0)
	if t.N == pf.seen {
		return false
	}
	pf.seen, pf.kind, pf.left = t.N, t.Kind, pickupFlashTime
	return true
}

// pickupText is what a take of kind k says it gave.
func pickupText(k game.PickupKind) string {
	switch k {
	case game.PickupHealth:
		return "+" + strconv.Itoa(game.HealthAmount) + " health"
	case game.PickupArmour:
		return "+" + strconv.Itoa(game.ArmourAmount) + " armour"
	case game.PickupRockets:
		return "+rockets"
	}
	return "DOUBLE DAMAGE"
}

// draw draws the flash around the local player while it lasts.
func (pf *pickupFlash) draw(v *worldView) {
	if pf.left <= 0 {
		return
	}
	t := 1 - float64(pf.left)/float64(pickupFlashTime) // 0..1
	col := pickupColour(pf.kind)
	px, py := v.px-v.camX, v.py-v.camY
	alpha := math.Min(1, (1-t)*2)
	batch.use(v.screen)
	batch.ring(f32(px), f32(py), f32(20+40*easeOut(t)), f32(4*(1-t)+1), fade(col, 0.8*alpha))
	drawTextFaded(v.screen, pickupText(pf.kind), 18, true, px, py-40-30*easeOut(t), 1, col, float32(alpha))
}
