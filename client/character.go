//go:build !headless

package client

import (
	"image/color"
	"math"
	"strings"

	"tickshot/client/palette"
	"tickshot/shared"
)

// The players as drawn from above: a body (a disc in the player's colour
// with a drop shadow, a highlight and an outline: one sprite of the atlas
// per colour, atlas.go), the weapon in hand pointing along the aim, its
// shape after the weapon (weaponArt), and two hands holding it. All of it
// is in the frame's one batch: the body and each hand a quad of its
// sprite, the weapon some 80 vertices of feathered bars.

// weaponPart is one piece of a weapon: a bar from Front0 to Front1 units
// along the aim (from the body's centre), Width units across, its centre
// Side units to the right of the aim line.
type weaponPart struct {
	front0, front1, width, side float32
	col                         color.RGBA
}

// weaponShape is how a weapon is drawn: its pieces, back to front, where
// the two hands hold it (units along the aim and to its right), and its
// muzzle (units along the aim).
type weaponShape struct {
	parts  []weaponPart
	hands  [2][2]float32
	muzzle float32
}

// handShade: a hand is the body's colour this much darker.
const handShade = 0.78

// The weapons' shapes: a rifle (long and thin, a magazine), a rocket
// launcher (a thick tube on the right shoulder, the warhead showing), a
// shotgun (short, wide, wooden stock and pump).
var (
	rifleShape = weaponShape{
		parts: []weaponPart{
			{8, 20, 7, 0, palette.GunMetal},         // stock
			{18, 34, 8, 0, palette.GunMetal},        // receiver
			{23, 28, 5, 5.5, palette.GunMetal},      // magazine, sticking out to the right
			{33, gunLength, 4, 0, palette.GunLight}, // barrel
			{20, 30, 2, -1.5, palette.GunLight},     // the receiver's glint
		},
		hands:  [2][2]float32{{17, 5}, {31, -1}},
		muzzle: gunLength,
	}
	rocketShape = weaponShape{
		parts: []weaponPart{
			{-4, 38, 12, 7, palette.GunOlive},
			{36, 41, 14, 7, palette.GunMetal}, // the muzzle's rim
			{4, 10, 14, 7, palette.GunMetal},  // the back rim
			{40, 45, 6, 7, palette.GunWarn},   // the warhead
			{8, 34, 2, 3.5, palette.GunLight}, // the tube's glint
		},
		hands:  [2][2]float32{{17, 1}, {28, 3}},
		muzzle: 44,
	}
	shotgunShape = weaponShape{
		parts: []weaponPart{
			{8, 20, 8, 0, palette.GunWood},               // stock
			{18, 28, 9, 0, palette.GunMetal},             // receiver
			{27, gunLength - 4, 4, -2, palette.GunLight}, // two barrels
			{27, gunLength - 4, 4, 2, palette.GunLight},
			{26, 34, 9, 0, palette.GunWood}, // pump
		},
		hands:  [2][2]float32{{17, 5}, {31, 0}},
		muzzle: gunLength - 4,
	}
)

// weaponArt is the shape of weapon w (an index of shared.Weapons; out of
// range: the rifle), chosen by its name and kind.
func weaponArt(w int) *weaponShape {
	if w < 0 || w >= len(shared.Weapons) {
		return &rifleShape
	}
	switch def := &shared.Weapons[w]; {
	case strings.Contains(def.Name, "shotgun"):
		return &shotgunShape
	case def.Kind == shared.Projectile:
		return &rocketShape
	}
	return &rifleShape
}

// drawCharacter adds a player at screen position x, y to the batch: the
// body in col, then weapon w (shared.Weapons index; -1 unknown: a rifle)
// pointing towards angle (radians) and the hands holding it.
func drawCharacter(x, y, angle float64, col color.RGBA, w int) {
	b := &batch
	s := weaponArt(w)
	b.body(float32(x), float32(y), col)
	af := newAimFrame(x, y, angle)
	drawWeapon(af, s, 1)
	sx, sy, ok := handSprite(col)
	for _, h := range s.hands {
		hx, hy := af.at(h[0], h[1])
		if !ok || b.src != nil {
			drawHandSprite(b, hx, hy, col)
			continue
		}
		b.image(sx, sy, handSize, handSize, float64(hx)-handSize/2, float64(hy)-handSize/2)
	}
}

// aimFrame places points on the screen relative to a player at x, y
// (pixels) aiming along angle: f along the aim, side to its right.
type aimFrame struct{ x, y, c, s float64 }

func newAimFrame(x, y, angle float64) aimFrame {
	return aimFrame{x, y, math.Cos(angle), math.Sin(angle)}
}

func (a aimFrame) at(f, side float32) (float32, float32) {
	return float32(a.x + a.c*float64(f) - a.s*float64(side)), float32(a.y + a.s*float64(f) + a.c*float64(side))
}

// drawWeapon adds weapon shape s held in aim frame af with opacity a
// (0..1; a dead body's fades).
func drawWeapon(af aimFrame, s *weaponShape, a float64) {
	b := &batch
	for _, p := range s.parts { // outlines first, so that the pieces join
		x0, y0 := af.at(p.front0-1, p.side)
		x1, y1 := af.at(p.front1+1, p.side)
		b.line(x0, y0, x1, y1, p.width+2, fade(palette.Outline, a))
	}
	for _, p := range s.parts {
		x0, y0 := af.at(p.front0, p.side)
		x1, y1 := af.at(p.front1, p.side)
		b.line(x0, y0, x1, y1, p.width, fade(p.col, a))
	}
}

// drawHandSprite draws a hand of a body in col centred at x, y: a small
// disc a shade darker than the body, outlined (handSprite keeps one per
// colour in the atlas; drawn as shapes when there is none).
func drawHandSprite(b *shapeBatch, x, y float32, col color.RGBA) {
	b.disc(x, y, 4.5, shade(col, handShade))
	b.ring(x, y, 4.5, 1.5, palette.Outline)
}

// drawBodySprite draws a body in col centred at cx, cy into the atlas
// (bodySprite): a drop shadow down and to the right, the disc, a soft
// highlight up and to the left (off the centre, which keeps col), and the
// outline.
func drawBodySprite(b *shapeBatch, cx, cy float32, col color.RGBA) {
	r := float32(shared.PlayerRadius)
	b.disc(cx+2, cy+3, r+1, color.RGBA{0, 0, 0, 0x60})
	b.disc(cx, cy, r, col)
	b.disc(cx-6, cy-6, 5, fade(shade(col, 1.25), 0.55))
	b.arc(cx, cy, r-3, 3, 0.3, 2.0, fade(shade(col, 0.7), 0.7))
	b.ring(cx, cy, r, 2, palette.Outline)
}
