//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"math"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/net/proto"
	"tickshot/shared"
)

// deathCard tells the local player why it died (issue 21: the first
// minute teaches): who killed it, with what, from how far, and how much
// damage each side dealt the other during the life that ended, as the
// death recaps of Valorant and Apex Legends do. It is built from the
// server's events alone (EvHit's damage, EvKill's weapon and where killer
// and victim stood: docs/PROTOCOL.md §5.8) and only drawn: nothing flows
// back into the simulation or the prediction.
type deathCard struct {
	// dealt and taken are this life's damage, by player ID: dealt by the
	// local player to each other player, taken by it from each (itself
	// included: its own rocket's splash).
	dealt, taken map[uint16]int
	// shown: the card of the newest death is up (set by the local
	// player's EvKill, taken down by hide once it lives again).
	shown bool
	tick  uint32 // the killing tick
	facts deathFacts
	text  []string // facts.lines(), made once a death
}

// deathFacts are what one death's card says.
type deathFacts struct {
	Killer  string // the killer's name
	Suicide bool   // the local player killed itself (its rocket, `kill`)
	// Weapon is the weapon's name (shared.Weapons); "" when the server
	// named no weapon this client knows.
	Weapon string
	// Distance is how far apart killer and victim stood when it killed,
	// world units (the HUD's unit: cl_showerror's "units").
	Distance float64
	// Dealt is the damage the local player dealt the killer this life,
	// Taken the damage the killer dealt it: each hit's damage as the server
	// reported it (EvHit: a killing hit's whole damage, past the health
	// it took).
	Dealt, Taken int
	// Others is the damage the others dealt the local player this life
	// (the killer finished what they started).
	Others int
}

// onEvent counts a hit of this life or, at the local player's death (vw.ID
// the victim of an EvKill), puts up the card of that death and starts the
// next life's count. A new match starts it too, with no card up.
func (d *deathCard) onEvent(e *proto.Event, vw *netclient.View) {
	me := vw.ID
	switch e.Kind {
	case proto.EvHit:
		if d.dealt == nil {
			d.dealt, d.taken = map[uint16]int{}, map[uint16]int{}
		}
		if e.A == me && e.B != me {
			d.dealt[e.B] += max(int(e.Value), 0)
		}
		if e.B == me {
			d.taken[e.A] += max(int(e.Value), 0)
		}
	case proto.EvKill:
		if e.B != me {
			return
		}
		d.facts = deathFacts{Killer: vw.Name(e.A), Suicide: e.A == me, Weapon: weaponName(e.Value),
			Distance: math.Hypot(proto.FromFixed(e.X2)-proto.FromFixed(e.X), proto.FromFixed(e.Y2)-proto.FromFixed(e.Y)),
			Dealt:    d.dealt[e.A], Taken: d.taken[e.A]}
		if d.facts.Suicide {
			d.facts.Dealt = 0
		}
		for id, n := range d.taken {
			if id != e.A {
				d.facts.Others += n
			}
		}
		d.shown, d.tick, d.text = true, e.Tick, d.facts.lines()
		clear(d.dealt)
		clear(d.taken)
	case proto.EvMatchStart:
		d.shown = false
		clear(d.dealt)
		clear(d.taken)
	}
}

// update takes the card down once the server has the local player alive
// again after the death (and no kill cam shows the card).
func (d *deathCard) update(vw *netclient.View, killCam bool) {
	if d.shown && !killCam && !vw.ServerState.Dead && vw.SnapshotTick > d.tick {
		d.shown = false
	}
}

// weaponName is the name of weapon index v from the wire, "" for a value
// that names no weapon (an EvKill is network input: any int16 may come).
func weaponName(v int16) string {
	if v < 0 || int(v) >= shared.NumWeapons {
		return ""
	}
	return shared.Weapons[v].Name
}

// lines are the card's text, top to bottom: the title, then what killed
// and from how far, then the damage each way (and the others' share).
func (f deathFacts) lines() []string {
	var out []string
	if f.Suicide {
		out = append(out, "You killed yourself")
		if f.Weapon != "" {
			out = append(out, "with your "+f.Weapon)
		}
		out = append(out, fmt.Sprintf("You dealt yourself %d damage", f.Taken))
	} else {
		how := fmt.Sprintf("%d units away", int(math.Round(f.Distance)))
		if f.Weapon != "" {
			how = fmt.Sprintf("with the %s from %d units away", f.Weapon, int(math.Round(f.Distance)))
		}
		out = append(out, "Killed by "+f.Killer, how,
			fmt.Sprintf("You dealt %s %d damage", f.Killer, f.Dealt),
			fmt.Sprintf("%s dealt you %d damage", f.Killer, f.Taken))
	}
	if f.Others > 0 {
		out = append(out, fmt.Sprintf("Others dealt you %d damage", f.Others))
	}
	return out
}

// Card layout, pixels.
const (
	cardW     = 560
	cardTitle = 30 // the title's size
	cardLine  = 19 // the other lines' size
)

// colCard is the card's panel: opaque enough that the arena under it
// never competes with its text.
var colCard = color.RGBA{0x0c, 0x0e, 0x12, 0xf0}

// height is the card's height in pixels.
func (d *deathCard) height() float64 {
	return 28 + cardTitle + float64(max(len(d.text)-1, 0))*(cardLine+10) + 16
}

// draw draws the card centred across the screen, its top at top pixels;
// dead adds "respawning..." under it.
func (d *deathCard) draw(v *frameView, top float64, dead bool) {
	if !d.shown || len(d.text) == 0 {
		return
	}
	lines := d.text
	h := d.height()
	x := v.W/2 - cardW/2
	b := &batch
	b.use(v.screen)
	b.rect(f32(x), f32(top), cardW, f32(h), colCard)
	b.rect(f32(x), f32(top), cardW, 4, palette.HPBad)
	y := top + 18
	drawText(v.screen, lines[0], cardTitle, true, v.W/2, y, 1, palette.HPBad)
	y += cardTitle + 14
	for i, l := range lines[1:] {
		col := palette.Text
		if i > 0 {
			col = palette.Dim
		}
		drawText(v.screen, l, cardLine, i == 0, v.W/2, y, 1, col)
		y += cardLine + 10
	}
	if dead {
		drawText(v.screen, "respawning...", 16, false, v.W/2, top+h+12, 1, palette.Text)
	}
}
