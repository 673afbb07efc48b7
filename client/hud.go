//go:build !headless

package client

import (
	"image/color"
	"math"
	"strconv"
	"time"

	"tickshot/client/palette"
	"tickshot/shared"
)

// hud is the game's heads-up display: the damage flash, reload bar,
// crosshair with hit markers, health and ammo, ping and fps, prediction
// errors (cl_showerror) and the netcode switches changed from their
// defaults (drawStatus); "You died" and the match banner or team scores
// in the middle (drawCentre).
type hud struct {
	buf        []byte // text is built here, reused every frame
	fpsShown   int    // the fps shown, refreshed 4 times a second
	fpsShownAt time.Time
}

// drawStatus draws the HUD's corners. The crosshair is at cursorX,
// cursorY when human, else 120 pixels from the player along its aim.
func (h *hud) drawStatus(v *frameView, fx *effects, human bool, cursorX, cursorY float64) {
	g, c := v.g, v.c
	W, H := v.W, v.H
	st := c.View().Predicted
	b := &batch
	buf := h.buf[:0]
	defer func() { h.buf = buf }()

	// Shapes first: the damage flash, the reload bar, the crosshair.
	b.use(v.screen)
	if fx.damageFlash > 0 {
		b.rect(0, 0, float32(W), float32(H), nrgba(color.NRGBA{0xb0, 0, 0, uint8(90 * fx.damageFlash)}))
	}
	def := &shared.Weapons[st.Weapon]
	if st.ReloadTicks > 0 {
		total := float64(shared.Ticks(def.ReloadMs, c.View().TickRate))
		frac := 1 - float64(st.ReloadTicks)/total
		b.rect(float32(W-184), float32(H-18), 160, 6, color.RGBA{0, 0, 0, 0xb0})
		b.rect(float32(W-184), float32(H-18), float32(160*frac), 6, palette.TracerMe)
	}
	spec := c.View().Spectating // no crosshair, health or ammo: spectate.go's HUD
	drawCrosshair(v, fx, !spec, human, cursorX, cursorY)

	// Health and ammo.
	screen := v.screen
	hpCol := palette.HPGood
	if c.View().Health < 35 {
		hpCol = palette.HPBad
	}
	if !spec {
		buf = appendInt(append(buf[:0], "+ "...), c.View().Health)
		drawTextBytes(screen, buf, 34, true, 24, H-58, 0, hpCol)
		buf = appendInt(append(appendInt(buf[:0], int(st.Ammo[st.Weapon])), " / "...), int(def.MagSize))
		drawTextBytes(screen, buf, 34, true, W-24, H-58, 2, palette.Text)
		drawText(screen, def.Name, 14, false, W-24, H-76, 2, palette.Dim)
	}
	if st.ReloadTicks > 0 {
		drawText(screen, "RELOADING", 14, true, W-24, H-96, 2, palette.TracerMe)
	}
	drawDash(v, &st)

	// Ping and fps, top-left, and what differs from the defaults. The fps
	// shown changes four times a second, as a number one can read.
	if now := g.now(); now.Sub(h.fpsShownAt) > 250*time.Millisecond {
		h.fpsShown, h.fpsShownAt = int(math.Round(g.fps)), now
	}
	buf = appendInt(append(appendInt(append(buf[:0], "ping "...), c.View().Stats.PingMs), " ms   fps "...), h.fpsShown)
	drawTextBytes(screen, buf, 14, false, 12, 10, 0, palette.Dim)
	if g.cv.showError.Get() >= 1 {
		buf = appendInt(append(buf[:0], "prediction errors "...), c.View().Stats.Corrections)
		buf = append(strconv.AppendFloat(append(buf, " (last "...), c.View().Stats.LastErrorDist, 'f', 2, 64), " units)"...)
		buf = appendInt(append(buf, "   deaths/respawns "...), c.View().Stats.LifeResets)
		drawTextBytes(screen, buf, 14, false, 12, 30, 0, palette.TracerMe)
	}
	buf = drawSwitches(v, buf)
}

// drawSwitches lists, under the ping, the netcode switches that differ
// from their defaults, so that a screenshot says what was being shown. It
// returns buf, reused.
func drawSwitches(v *frameView, buf []byte) []byte {
	y := 50.0
	for _, cv := range v.g.cv.switches {
		if !cv.IsDefault() {
			buf = append(append(append(buf[:0], cv.Name...), ' '), cv.String()...)
			drawTextBytes(v.screen, buf, 14, false, 12, y, 0, ngWarn)
			y += 18
		}
	}
	return buf
}

// drawCrosshair draws the crosshair (when cross) at the cursor for a
// person, else 120 pixels from the player along its aim, and the hit and
// kill markers around it.
func drawCrosshair(v *frameView, fx *effects, cross, human bool, cursorX, cursorY float64) {
	b := &batch
	mx, my := int(cursorX), int(cursorY)
	if !human {
		px, py := v.px-v.camX, v.py-v.camY
		mx, my = int(px+math.Cos(v.aim)*120), int(py+math.Sin(v.aim)*120)
	}
	cx, cy := float32(mx), float32(my)
	ch := nrgba(color.NRGBA{0xf0, 0xf0, 0xf0, 0xe0})
	if cross {
		b.rect(cx-12, cy-1, 8, 2, ch)
		b.rect(cx+4, cy-1, 8, 2, ch)
		b.rect(cx-1, cy-12, 2, 8, ch)
		b.rect(cx-1, cy+4, 2, 8, ch)
	}
	if fx.hitMarker > 0 || fx.killMarker > 0 {
		hm := color.RGBA{0xff, 0xff, 0xff, 0xff}
		if fx.killMarker > 0 {
			hm = palette.HPBad
		}
		for _, s := range [4][2]float32{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			b.line(cx+s[0]*6, cy+s[1]*6, cx+s[0]*14, cy+s[1]*14, 3, hm)
		}
	}
}

// drawCentre draws "You died" (and by whom) while dead, or what a
// spectator watches (spectate.go), and the match banner at the top, or the
// team scores there in team deathmatch.
func (h *hud) drawCentre(v *frameView, p *playScene, fx *effects) {
	screen, W, H := v.screen, v.W, v.H
	buf := h.buf[:0]
	defer func() { h.buf = buf }()
	if v.c.View().Spectating {
		p.drawSpectating(screen) // spectate.go
	} else if p.card.shown {
		p.card.draw(v, H/2+50, v.c.View().Predicted.Dead) // deathcard.go, under the body
	} else if v.c.View().Predicted.Dead {
		buf = append(buf[:0], "You died"...)
		if fx.killedBy != "" {
			buf = append(append(buf[:0], "Killed by "...), fx.killedBy...)
		}
		drawTextBytes(screen, buf, 32, true, W/2, H/2-90, 1, palette.HPBad)
		drawText(screen, "respawning...", 18, false, W/2, H/2-48, 1, palette.Text)
	}
	if bannerShown(fx, p.end.shown(v.c)) {
		drawText(screen, fx.banner, 40, true, W/2, 24, 1, palette.TracerMe)
	} else {
		buf = drawTeamScore(v, buf) // tdm: the team scores at the top (teams.go)
	}
}

// bannerShown reports whether the match banner is drawn: while it lasts,
// unless the end-of-match screen (endShown) is up, whose title says who won.
func bannerShown(fx *effects, endShown bool) bool { return fx.bannerLeft > 0 && !endShown }

// appendInt appends v in decimal to buf.
func appendInt(buf []byte, v int) []byte { return strconv.AppendInt(buf, int64(v), 10) }

// controlsHint is the line of controls shown at the bottom of the screen
// until the player has moved and fired, and again while F1 is held.
const controlsHint = "WASD move   mouse aim   left click fire   R reload   Shift dash   1/2/3 weapon   Tab scores   F3 or N net_graph   Esc menu   F1 help"

// hintLine is the controls hint at the bottom of the screen.
type hintLine struct{}

// draw draws the hint while shown (windowStats.hintShown) for a living
// player at the keys.
func (hintLine) draw(v *frameView, human, help bool) {
	if human && !v.c.View().Predicted.Dead && v.g.stats.hintShown(help) {
		drawText(v.screen, controlsHint, 15, false, v.W/2, v.H-34, 1, palette.Dim)
	}
}

// hintShown reports whether the controls hint is on screen: until the
// player has both moved and fired in the window (a newcomer needs it
// longer than a few seconds), and while F1 is held.
func (s *windowStats) hintShown(help bool) bool {
	return s.moved < 64 || s.shotsFired == 0 || help
}

// pauseScreen is the Esc screen over the game (which goes on): resume or
// leave.
type pauseScreen struct {
	open bool
}

// draw draws it when open; addr names the server.
func (ps *pauseScreen) draw(v *frameView, addr string) {
	if !ps.open {
		return
	}
	screen, W, H := v.screen, v.W, v.H
	batch.use(screen)
	batch.rect(0, 0, float32(W), float32(H), color.RGBA{0, 0, 0, 0x90})
	drawText(screen, "PAUSED (the game goes on)", 30, true, W/2, H/2-80, 1, palette.Text)
	drawText(screen, "Esc: resume", 20, false, W/2, H/2-20, 1, palette.Text)
	drawText(screen, "Q: quit", 20, false, W/2, H/2+14, 1, palette.Text)
	drawText(screen, "Connected to "+addr, 14, false, W/2, H/2+60, 1, palette.Dim)
}
