//go:build !headless

package client

import (
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/shared"
)

// The pieces a game frame is drawn with (playScene.Draw), back to front:
// the arena, the effects under the players, the projectiles, the
// explosions, the players (world.go); the HUD, kill feed, scoreboard,
// pause screen and controls hint (hud.go, killfeed.go, scoreboard.go);
// the chat (chat.go), the net_graph (netgraph.go) and the connection
// warning (trouble.go). Each is a small type that keeps its own state and
// draws from the frame's frameView into the frame's one batch.

// worldView is what the world's layers (arenaLayer, playersLayer and the
// effects' drawWorld and drawExplosions) draw from: one client's View as a
// value, the image drawn on and its size, the camera, the local player as
// drawn and the cvar switches they show. The play screen fills one from
// its live client every frame (frameView.set); the lag lab (lab_scene.go)
// fills one per pane from a recorded lab.Frame, so that the same code draws
// both.
type worldView struct {
	screen     *ebiten.Image
	view       netclient.View
	W, H       float64 // the size of screen drawn on, pixels (1 pixel = 1 world unit)
	camX, camY float64 // world position at the screen's top-left corner
	px, py     float64 // the local player's drawn position, world units
	aim        float64 // its aim, radians
	// noSelf: there is no local player to draw (the lab's server pane);
	// noNames: no name plates (the lab's panes label the players).
	noSelf, noNames bool
	// showHitboxes is cl_showhitboxes, showError cl_showerror.
	showHitboxes bool
	showError    int
	// corpses: the effects draw the dead (a body fading where it fell,
	// juice.go), so the players layer marks them with nothing; without
	// it (the lab's panes) a dead player is marked with an X.
	corpses bool
}

// frameView is what the pieces of a game frame draw from, worked out once
// a frame: the world's view (worldView) and, for the HUD's pieces, the
// window and the live client.
type frameView struct {
	worldView
	g *Game
	c *netclient.Client
}

// set works out the frame's view of the game on c.
func (v *frameView) set(screen *ebiten.Image, g *Game, c *netclient.Client, aim float64) {
	*v = frameView{g: g, c: c}
	v.worldView = worldView{screen: screen, view: c.View(), W: float64(g.w), H: float64(g.h), aim: aim,
		showHitboxes: g.cv.showHitboxes.Get(), showError: g.cv.showError.Get(), corpses: true}
	v.px, v.py = g.drawPos()
	v.camX, v.camY = g.camera()
}

// onScreen tells whether a point at screen position x, y (pixels) with
// things drawn up to margin pixels around it can be seen.
func (v *worldView) onScreen(x, y, margin float64) bool {
	return x > -margin && y > -margin && x < v.W+margin && y < v.H+margin
}

func f32(v float64) float32 { return float32(v) }

// arenaLayer draws the map: the background beyond the map's edges, the
// floor, its decals and the walls (drawArena, art.go).
type arenaLayer struct{}

// draw covers the screen once: Ebiten does not clear it
// (SetScreenClearedEveryFrame(false)).
func (arenaLayer) draw(v *worldView) { drawArena(v) }

// playersLayer draws the projectiles, the other players (interpolated,
// with health bars and name plates), the cl_showhitboxes and cl_showerror
// ghosts, and the local player (predicted).
type playersLayer struct{}

// drawProjectiles draws the rockets in flight.
func (playersLayer) drawProjectiles(v *worldView) {
	b := &batch
	for _, pr := range v.view.Projectiles {
		x, y := pr.X-v.camX, pr.Y-v.camY
		if !v.onScreen(x, y, 24) {
			continue
		}
		dx, dy := math.Cos(pr.Angle), math.Sin(pr.Angle)
		b.line(f32(x-dx*18), f32(y-dy*18), f32(x), f32(y), 4, nrgba(color.NRGBA{0xff, 0x90, 0x30, 0x90}))
		b.disc(f32(x), f32(y), 5, color.RGBA{0xff, 0xe0, 0x90, 0xff})
	}
}

// draw draws the players. protected tells whether the local player's
// spawn protection is to be shown (the server's flag, until it has run
// the player's first shot), muzzle whether its muzzle flash is.
func (playersLayer) draw(v *worldView, protected, muzzle bool) {
	vw := &v.view
	cx, cy := v.camX, v.camY
	b := &batch
	// Other players, interpolated: bodies and health bars in the batch,
	// then the names over them.
	ents := vw.Rendered
	for _, e := range ents {
		x, y := e.X-cx, e.Y-cy
		if !v.onScreen(x, y, 60) {
			continue
		}
		if !e.Alive && v.corpses {
			continue
		}
		if !e.Alive {
			b.line(f32(x-8), f32(y-8), f32(x+8), f32(y+8), 3, palette.Dim)
			b.line(f32(x-8), f32(y+8), f32(x+8), f32(y-8), 3, palette.Dim)
			continue
		}
		if e.Powered {
			drawPoweredGlow(x, y, vw.ServerTick) // under the body
		}
		drawCharacter(x, y, e.Angle, otherColour(vw, e.ID, e.Bot), e.Weapon) // team colour in tdm (teams.go); character.go
		if e.Powered {
			drawPoweredRing(x, y, vw.ServerTick)
		}
		if e.Protected {
			b.ring(f32(x), f32(y), float32(shared.PlayerRadius)+6, 2, colShield)
		}
		drawHealthBar(x, y, e.Health)
	}
	for _, e := range ents {
		if x, y := e.X-cx, e.Y-cy; e.Alive && !v.noNames && v.onScreen(x, y, 60) {
			drawText(v.screen, vw.Name(e.ID), 13, false, x, y-42, 1, palette.Text)
		}
	}

	if v.showHitboxes {
		// The newest server position of every other player, beside the
		// interpolated one: the distance between them is the interpolation delay.
		for _, e := range vw.Held {
			if s := e.Newest; s.Alive {
				b.ring(f32(s.X-cx), f32(s.Y-cy), float32(shared.PlayerRadius), 1.5, nrgba(color.NRGBA{0xff, 0xff, 0xff, 0x90}))
			}
		}
	}

	// The local player, predicted.
	if v.noSelf {
		return
	}
	st := vw.Predicted
	px, py := v.px, v.py
	if v.showError >= 2 {
		// Where the server last had you (after the acked command).
		sv := vw.ServerState
		b.ring(f32(sv.X-cx), f32(sv.Y-cy), float32(shared.PlayerRadius), 1.5, nrgba(color.NRGBA{0xff, 0x40, 0x40, 0xc0}))
	}
	if st.Dead {
		return
	}
	drawCharacter(px-cx, py-cy, v.aim, selfColour(vw), int(st.Weapon))
	if protected {
		b.ring(f32(px-cx), f32(py-cy), float32(shared.PlayerRadius)+6, 2, colShield)
	}
	if muzzle {
		dx, dy := math.Cos(v.aim), math.Sin(v.aim)
		drawMuzzle(px-cx+dx*gunLength, py-cy+dy*gunLength, v.aim, 1)
	}
}

// gunLength is how far a player's gun (the rifle) reaches from its
// centre, pixels: where its muzzle flash goes.
const gunLength = 46

// heldWeapon is the weapon another player is drawn with: its entity's
// (proto.EntityState.Weapon, from the newest snapshot); for a player not
// in v.Rendered (the local player in a kill cam), the rocket launcher
// while one of its rockets flies, else -1 (the rifle's look).
func heldWeapon(v *netclient.View, id uint16) int {
	if e, ok := rendered(v, id); ok {
		return e.Weapon
	}
	for _, pr := range v.Projectiles {
		if pr.Owner == id {
			return int(pr.Weapon)
		}
	}
	return -1
}

// drawHealthBar adds the health bar under a player's name.
func drawHealthBar(x, y float64, health int) {
	b := &batch
	const w = 36
	b.rect(float32(x-w/2), float32(y-24), w, 4, color.RGBA{0, 0, 0, 0xb0})
	frac := math.Max(0, math.Min(1, float64(health)/100))
	col := palette.HPGood
	if frac < 0.35 {
		col = palette.HPBad
	}
	b.rect(float32(x-w/2), float32(y-24), float32(w*frac), 4, col)
}

// drawPoweredGlow draws, under another player's body at x, y (pixels),
// the glow of its double damage in the power-up's colour, pulsing with
// the server tick (as the pickup does).
func drawPoweredGlow(x, y, tick float64) {
	pulse := 0.5 + 0.5*math.Sin(tick*0.15)
	batch.disc(f32(x), f32(y), float32(shared.PlayerRadius)+8+f32(3*pulse), fade(colDamage, 0.22+0.12*pulse))
}

// drawPoweredRing draws the double damage's ring over the body.
func drawPoweredRing(x, y, tick float64) {
	pulse := 0.5 + 0.5*math.Sin(tick*0.15)
	batch.ring(f32(x), f32(y), float32(shared.PlayerRadius)+10, 2.5, fade(colDamage, 0.6+0.3*pulse))
}

// colShield is the ring around a player under spawn protection.
var colShield = color.RGBA{0x90, 0xe0, 0xff, 0xc0}
