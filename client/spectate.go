//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/net/proto"
	"tickshot/shared"
)

// Spectating in the window (issue 10 item 5). With no body the camera
// follows a player, drawn where every other entity is (netclient's
// Rendered: interpolated, never extrapolated apart), or flies freely. The
// controls are Source's spectator mode: attack (left click) the next living
// player, attack2 (right click) the previous one, jump (Space) switches to
// and from the free camera, whose WASD pan it at netclient.SpecFlySpeed.
// `spectate` and `join` on the console leave and re-enter play. The
// netcode is netclient's (spectate.go there); this file maps input and
// draws the HUD and the scoreboard's spectator section.

// spectatorInput applies one frame of input to the spectator camera: taps
// of attack and attack2 cycle the player followed, KeyJump toggles
// free-fly, the movement axes pan the free camera for dt.
func (p *playScene) spectatorInput(f InputFrame, dt time.Duration) {
	c := p.c
	in := f.Input
	if in.Pressed&shared.ButtonAttack != 0 {
		c.Spec().Next(c.View())
	}
	if in.Pressed&shared.ButtonAttack2 != 0 {
		c.Spec().Prev(c.View())
	}
	if f.Keys&KeyJump != 0 {
		c.Spec().ToggleFree(c.View())
	}
	c.Spec().Fly(c.View(), float64(in.MoveX), float64(in.MoveY), dt)
}

// spectatorHelp is the line of spectator controls under "Spectating NAME".
const spectatorHelp = "left/right click: next/previous player   Space: free camera (WASD)   console (`): join to play"

// drawSpectating draws the spectator's HUD: whom it follows (a ring around
// that player and "Spectating NAME"), or "Free camera", and the controls.
func (p *playScene) drawSpectating(screen *ebiten.Image) {
	g, c := p.g, p.c
	W, H := float64(g.w), float64(g.h)
	x, y, following := c.Spec().Centre(c.View())
	title := "Free camera"
	if following {
		id := c.Spec().Target()
		title = "Spectating " + c.View().Name(id)
		sx, sy := g.worldToScreen(x, y)
		batch.use(screen)
		batch.ring(float32(sx), float32(sy), float32(shared.PlayerRadius)+9, 2, colSpectating)
	} else if !c.Spec().Free() {
		title = "Spectating: nobody alive to follow"
	}
	batch.use(screen)
	batch.rect(float32(W/2-330), float32(H-92), 660, 66, palette.Panel)
	drawText(screen, title, 22, true, W/2, H-86, 1, palette.Text)
	drawText(screen, spectatorHelp, 14, false, W/2, H-52, 1, palette.Dim)
}

// colSpectating marks the player the spectator follows.
var colSpectating = color.RGBA{0xf0, 0xe0, 0x60, 0xd0}

// isSpectatorRow reports whether a scoreboard row is a spectator's.
func isSpectatorRow(r *proto.ScoreEntry) bool { return r.Team == proto.TeamSpectator }

// spectatorRowsHeight is the height, in pixels, of the scoreboard's
// spectator section: 0 when nobody spectates.
func spectatorRowsHeight(c *netclient.Client) float64 {
	n := 0
	for i := range c.View().Scores {
		if isSpectatorRow(&c.View().Scores[i]) {
			n++
		}
	}
	if n == 0 {
		return 0
	}
	if n > fitSpectators { // the first ones, then a line counting the rest
		n = fitSpectators + 1
	}
	return 34 + 28*float64(n)
}

// drawSpectatorRows draws the scoreboard's spectator section of c's game
// from y (the panel at x0, pw wide): a heading, then each spectator with
// kills, deaths and ping, as Source lists them under their own heading.
func drawSpectatorRows(screen *ebiten.Image, c *netclient.Client, x0, y, pw float64) {
	if spectatorRowsHeight(c) == 0 {
		return
	}
	batch.use(screen)
	batch.rect(float32(x0+10), float32(y-2), float32(pw-20), 28, fade(palette.Dim, 0.25))
	drawText(screen, "SPECTATORS", 16, true, x0+20, y+2, 0, palette.Text)
	y += 34
	shown, more := 0, 0
	for i := range c.View().Scores {
		r := &c.View().Scores[i]
		if !isSpectatorRow(r) {
			continue
		}
		if shown == fitSpectators {
			more++
			continue
		}
		shown++
		col := palette.Dim
		if r.ID == c.View().ID {
			col = palette.Text
		}
		drawText(screen, r.Name, 16, r.ID == c.View().ID, x0+20, y, 0, col)
		drawText(screen, fmt.Sprint(r.Kills), 16, false, x0+340, y, 2, col)
		drawText(screen, fmt.Sprint(r.Deaths), 16, false, x0+430, y, 2, col)
		drawText(screen, fmt.Sprint(r.PingMs), 16, false, x0+pw-20, y, 2, col)
		y += 28
	}
	if more > 0 {
		drawText(screen, fmt.Sprintf("and %d more", more), 16, false, x0+20, y, 0, palette.Dim)
	}
}
