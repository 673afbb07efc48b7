//go:build !headless

package client

import (
	"image/color"
	"math"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/game"
	"tickshot/shared"
)

// Pickups as the window draws them (issue 21): each kind its own shape and
// colour, drawn in code into the frame's one batch, so that they read at
// a glance: health a white box with a red cross, armour a blue shield
// ring with a chevron, rockets three orange rockets, double damage a
// pulsing magenta star. A pickup that is away leaves a faint ring on the
// floor with an arc that fills up as it comes back (the respawn hint);
// the local player's predicted take vanishes at once (netclient's
// pickupPredictor) and shows only that ring. The HUD shows the armour
// beside the health and the double damage's seconds left with a bar.

// Pickup colours.
var (
	colHealthBox  = color.RGBA{0xf2, 0xf2, 0xf2, 0xff}
	colHealth     = color.RGBA{0xe0, 0x30, 0x30, 0xff}
	colArmour     = color.RGBA{0x50, 0x9c, 0xff, 0xff}
	colRockets    = color.RGBA{0xff, 0x98, 0x30, 0xff}
	colDamage     = color.RGBA{0xe8, 0x40, 0xf0, 0xff}
	colPickupBase = color.RGBA{0x0c, 0x0e, 0x12, 0x90}
)

// pickupColour is kind k's main colour.
func pickupColour(k game.PickupKind) color.RGBA {
	switch k {
	case game.PickupHealth:
		return colHealth
	case game.PickupArmour:
		return colArmour
	case game.PickupRockets:
		return colRockets
	}
	return colDamage
}

// drawPickups draws the pickups in view, under the projectiles and players.
func drawPickups(v *worldView) {
	b := &batch
	tick := v.view.ServerTick
	for _, pk := range v.view.Pickups {
		x, y := pk.X-v.camX, pk.Y-v.camY
		if !v.onScreen(x, y, 32) {
			continue
		}
		fx, fy := f32(x), f32(y)
		if !pk.Present {
			drawPickupAway(fx, fy, pk, tick, v.view.TickRate)
			continue
		}
		bob := f32(2 * math.Sin(tick*0.08+float64(pk.ID)))
		col := pickupColour(pk.Kind)
		b.disc(fx, fy, 22, fade(col, 0.16)) // a glow of its colour on the floor
		b.disc(fx, fy+3, 17, colPickupBase) // its pad and shadow
		b.ring(fx, fy, 18, 2, fade(col, 0.8))
		drawPickupIcon(fx, fy-bob, pk.Kind, tick, 1)
	}
}

// drawPickupAway draws where a taken pickup comes back: a faint ring of
// its colour and an arc filling clockwise from the top as its respawn
// nears (none for a take only predicted: its tick is not known yet).
func drawPickupAway(x, y float32, pk netclient.PickupView, tick float64, tickRate int) {
	b := &batch
	col := pickupColour(pk.Kind)
	b.ring(x, y, 16, 2, fade(col, 0.3))
	if pk.RespawnTick == 0 || tickRate <= 0 {
		return
	}
	total := float64(pk.Kind.RespawnTicks(tickRate))
	left := math.Max(float64(pk.RespawnTick)-tick, 0)
	frac := f32(math.Min(1-left/total, 1))
	b.arc(x, y, 16, 3, -math.Pi/2, -math.Pi/2+2*math.Pi*frac, fade(col, 0.75))
}

// drawPickupIcon draws kind k's shape centred at x, y with opacity a,
// about 26 pixels across.
func drawPickupIcon(x, y float32, k game.PickupKind, tick float64, a float64) {
	b := &batch
	switch k {
	case game.PickupHealth:
		b.rect(x-12, y-12, 24, 24, fade(colHealthBox, a))
		b.strokeRect(x-12, y-12, 24, 24, 1.5, fade(palette.Outline, a))
		b.rect(x-8, y-3, 16, 6, fade(colHealth, a))
		b.rect(x-3, y-8, 6, 16, fade(colHealth, a))
	case game.PickupArmour:
		b.disc(x, y, 13, fade(color.RGBA{0x14, 0x2c, 0x50, 0xff}, a))
		b.ring(x, y, 12, 3.5, fade(colArmour, a))
		b.line(x-7, y-4, x, y+5, 3.5, fade(colArmour, a))
		b.line(x, y+5, x+7, y-4, 3.5, fade(colArmour, a))
	case game.PickupRockets:
		for i := float32(-1); i <= 1; i++ {
			rx := x + 8*i
			b.rect(rx-3, y-7, 6, 15, fade(colRockets, a))
			b.disc(rx, y-7, 3, fade(colRockets, a))
			b.rect(rx-4, y+6, 8, 3, fade(palette.Gun, a))
		}
	default: // double damage: a pulsing glow and a star
		pulse := f32(0.5 + 0.5*math.Sin(tick*0.15))
		b.disc(x, y, 15+4*pulse, fade(colDamage, a*0.3))
		for i := range 4 {
			s, c := math.Sincos(float64(i) * math.Pi / 4)
			dx, dy := f32(c*13), f32(s*13)
			b.line(x-dx, y-dy, x+dx, y+dy, 3.5, fade(colDamage, a))
		}
		b.disc(x, y, 5.5, fade(color.RGBA{0xff, 0xd0, 0xff, 0xff}, a))
	}
}

// drawPickupHUD draws, in the HUD's bottom bar (hudBottom), the local
// player's armour right of its health, and the double damage's time left
// (Server.PowerTicks less the ticks since that snapshot) over a bar at the
// bar's centre, above the controls hint.
func drawPickupHUD(v *frameView) {
	vw := v.c.View()
	if vw.Spectating || vw.Server.Dead {
		return
	}
	screen, W, H := v.screen, v.W, v.H
	if a := int(vw.Server.Armour); a > 0 {
		drawPickupIcon(142, f32(H-40), game.PickupArmour, 0, 1)
		hudPickupBuf = appendInt(hudPickupBuf[:0], a)
		drawTextBytes(screen, hudPickupBuf, 26, true, 160, H-55, 0, colArmour)
	}
	if vw.Server.PowerTicks == 0 || vw.TickRate <= 0 {
		return
	}
	left := float64(vw.Server.PowerTicks) - math.Max(vw.ServerTick-float64(vw.SnapshotTick), 0)
	if left <= 0 {
		return
	}
	total := float64(shared.Ticks(game.DoubleDamageMs, vw.TickRate)) // as game.Stock grants it
	secs := int(math.Ceil(left / float64(vw.TickRate)))
	b := &batch
	top := H - hudBottom
	b.rect(f32(W/2-100), f32(top+30), 200, 6, color.RGBA{0, 0, 0, 0xb0})
	b.rect(f32(W/2-100), f32(top+30), f32(200*math.Min(left/total, 1)), 6, colDamage)
	hudPickupBuf = append(appendInt(append(hudPickupBuf[:0], "DOUBLE DAMAGE "...), secs), 's')
	drawTextBytes(screen, hudPickupBuf, 16, true, W/2, top+8, 1, colDamage)
}

// hudPickupBuf is drawPickupHUD's text, reused every frame.
var hudPickupBuf []byte
