//go:build !headless

package client

import (
	"image/color"

	"tickshot/client/palette"
	"tickshot/shared"
)

// drawDash draws the dash's cooldown (shared.PlayerState.DashTicks, as
// predicted) beside the health, bottom-left: a bar that fills as the
// cooldown runs out, labelled "DASH" while it runs and "DASH READY" (in
// the health's colour) when a dash would start. Nothing for a spectator.
func drawDash(v *frameView, st *shared.PlayerState) {
	if v.c.View().Spectating || st.Dead {
		return
	}
	total := float64(shared.DashCooldownTicks(v.c.View().TickRate))
	frac := 1 - float64(st.DashTicks)/total
	// Right of the health ("+ 100" from x 24, 34 px) and of the armour
	// (drawPickupHUD: its icon at 142, "100" at 160 in 26 px, to about 215).
	const x, w = 240, 100
	y := v.H - 34
	b := &batch
	b.use(v.screen)
	b.rect(x, float32(y), w, 6, color.RGBA{0, 0, 0, 0xb0})
	label, col := "DASH", palette.Dim
	if st.DashTicks == 0 {
		label, col = "DASH READY", palette.HPGood
	}
	b.rect(x, float32(y), float32(w*frac), 6, col)
	drawText(v.screen, label, 12, true, x, y-18, 0, col)
}
