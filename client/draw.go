//go:build !headless

package client

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"sort"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/shared"
)

// Palette: chosen to read at a glance (you: cyan, enemies: orange/red).
var (
	colBG        = color.RGBA{0x14, 0x16, 0x1b, 0xff}
	colFloor     = color.RGBA{0x22, 0x26, 0x2d, 0xff}
	colGrid      = color.RGBA{0x2a, 0x2f, 0x37, 0xff}
	colWall      = color.RGBA{0x5b, 0x64, 0x73, 0xff}
	colWallEdge  = color.RGBA{0x8a, 0x95, 0xa8, 0xff}
	colMe        = color.RGBA{0x3c, 0xd6, 0xf0, 0xff}
	colEnemy     = color.RGBA{0xf0, 0x7a, 0x3c, 0xff}
	colEnemyBot  = color.RGBA{0xe0, 0x5a, 0x5a, 0xff}
	colText      = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	colDim       = color.RGBA{0x9a, 0xa3, 0xb2, 0xff}
	colHPGood    = color.RGBA{0x5c, 0xd6, 0x5c, 0xff}
	colHPBad     = color.RGBA{0xe0, 0x4a, 0x4a, 0xff}
	colTracerMe  = color.NRGBA{0xff, 0xf3, 0xa0, 0xff}
	colTracerOth = color.NRGBA{0xff, 0xb0, 0x70, 0xff}
	colPanel     = color.RGBA{0x0c, 0x0e, 0x12, 0xd0}
)

func face(size float64, bold bool) *text.GoTextFace {
	if bold {
		return &text.GoTextFace{Source: boldSrc, Size: size}
	}
	return &text.GoTextFace{Source: fontSrc, Size: size}
}

// drawText draws s with its top-left (align 0), centre (1) or right (2) at x, y.
func drawText(dst *ebiten.Image, s string, size float64, bold bool, x, y float64, align int, clr color.Color) {
	f := face(size, bold)
	op := &text.DrawOptions{}
	w, _ := text.Measure(s, f, 0)
	switch align {
	case 1:
		x -= w / 2
	case 2:
		x -= w
	}
	// A shadow keeps text readable over any background.
	op.GeoM.Translate(x+1, y+1)
	op.ColorScale.ScaleWithColor(color.RGBA{0, 0, 0, 0xc0})
	text.Draw(dst, s, f, op)
	op = &text.DrawOptions{}
	op.GeoM.Translate(x, y)
	op.ColorScale.ScaleWithColor(clr)
	text.Draw(dst, s, f, op)
}

// camera returns the world position at the screen's top-left corner
// (game.Camera: the same view the server selects snapshots for).
func (g *Game) camera() (float64, float64) {
	if g.c == nil {
		return 0, 0
	}
	px, py := g.drawPos()
	return game.Camera(g.c.Map.Width, g.c.Map.Height, px, py, float64(g.w), float64(g.h))
}

func (g *Game) worldToScreen(x, y float64) (float64, float64) {
	cx, cy := g.camera()
	return x - cx, y - cy
}

// Draw implements ebiten.Game.
func (g *Game) Draw(screen *ebiten.Image) {
	now := time.Now()
	if !g.lastFrame.IsZero() {
		if d := now.Sub(g.lastFrame).Seconds(); d > 0 {
			g.fps += (1/d - g.fps) * 0.05
		}
	}
	g.lastFrame = now
	g.frames++
	defer g.bridgeDrawn()
	screen.Fill(colBG)
	switch g.phase {
	case phaseConnecting:
		drawText(screen, "TICKSHOT", 48, true, float64(g.w)/2, float64(g.h)/2-80, 1, colMe)
		drawText(screen, fmt.Sprintf("Connecting to %s ...", g.opt.Addr), 20, false, float64(g.w)/2, float64(g.h)/2, 1, colText)
		drawText(screen, "Esc: quit", 16, false, float64(g.w)/2, float64(g.h)/2+40, 1, colDim)
	case phaseError:
		g.drawError(screen) // trouble.go
	case phasePlaying:
		g.playFrames++
		g.drawWorld(screen)
		g.c.MarkDrawn() // the next frame's commands claim this render time
		g.drawHUD(screen)
		g.drawNetGraph(screen)
		g.drawTrouble(screen) // trouble.go
	}
	g.drawConsole(screen)
	g.maybeScreenshot(screen)
}

func (g *Game) drawWorld(screen *ebiten.Image) {
	c := g.c
	m := c.Map
	cx, cy := g.camera()
	f32 := func(v float64) float32 { return float32(v) }

	vector.DrawFilledRect(screen, f32(-cx), f32(-cy), f32(m.Width), f32(m.Height), colFloor, false)
	for x := 64.0; x < m.Width; x += 64 {
		vector.StrokeLine(screen, f32(x-cx), f32(-cy), f32(x-cx), f32(m.Height-cy), 1, colGrid, false)
	}
	for y := 64.0; y < m.Height; y += 64 {
		vector.StrokeLine(screen, f32(-cx), f32(y-cy), f32(m.Width-cx), f32(y-cy), 1, colGrid, false)
	}
	for _, w := range m.Walls {
		x, y := w.MinX-cx, w.MinY-cy
		vector.DrawFilledRect(screen, f32(x), f32(y), f32(w.MaxX-w.MinX), f32(w.MaxY-w.MinY), colWall, false)
		vector.StrokeRect(screen, f32(x), f32(y), f32(w.MaxX-w.MinX), f32(w.MaxY-w.MinY), 2, colWallEdge, false)
	}

	for _, im := range g.fx.impacts {
		a := float32(im.left) / float32(impactTime)
		vector.DrawFilledCircle(screen, f32(im.x-cx), f32(im.y-cy), 4+6*(1-a), color.NRGBA{0xff, 0x60, 0x40, uint8(200 * a)}, true)
	}
	for _, t := range g.fx.tracers {
		a := float64(t.left) / float64(tracerTime)
		col := colTracerOth
		if t.own {
			col = colTracerMe
		}
		col.A = uint8(255 * a)
		vector.StrokeLine(screen, f32(t.x0-cx), f32(t.y0-cy), f32(t.x1-cx), f32(t.y1-cy), 2, col, true)
	}

	// sv_showimpacts: red where this client drew the target when firing,
	// blue where the server traced it after its rewind.
	for _, b := range g.fx.boxes {
		a := uint8(255 * math.Min(1, float64(b.left)/float64(time.Second)))
		r := float32(shared.PlayerRadius)
		// Red a little outside the hitbox, blue a little inside: when the
		// server agrees with the client they show as two concentric rings.
		if b.haveClient {
			vector.StrokeCircle(screen, f32(b.clientX-cx), f32(b.clientY-cy), r+2, 2, color.NRGBA{0xff, 0x30, 0x30, a}, true)
		}
		vector.StrokeCircle(screen, f32(b.serverX-cx), f32(b.serverY-cy), r-2, 2, color.NRGBA{0x40, 0x80, 0xff, a}, true)
	}

	for _, pr := range c.Projectiles() {
		x, y := pr.X-cx, pr.Y-cy
		dx, dy := math.Cos(pr.Angle), math.Sin(pr.Angle)
		vector.StrokeLine(screen, f32(x-dx*18), f32(y-dy*18), f32(x), f32(y), 4, color.NRGBA{0xff, 0x90, 0x30, 0x90}, true)
		vector.DrawFilledCircle(screen, f32(x), f32(y), 5, color.RGBA{0xff, 0xe0, 0x90, 0xff}, true)
	}
	for _, e := range g.fx.explosions {
		a := float64(e.left) / float64(explosionTime)
		r := e.r * (0.4 + 0.6*(1-a))
		vector.DrawFilledCircle(screen, f32(e.x-cx), f32(e.y-cy), f32(r), color.NRGBA{0xff, 0x80, 0x20, uint8(160 * a)}, true)
		vector.StrokeCircle(screen, f32(e.x-cx), f32(e.y-cy), f32(r), 3, color.NRGBA{0xff, 0xe0, 0x80, uint8(220 * a)}, true)
	}

	// Other players, interpolated.
	for _, e := range c.Rendered() {
		x, y := e.X-cx, e.Y-cy
		if !e.Alive {
			vector.StrokeLine(screen, f32(x-8), f32(y-8), f32(x+8), f32(y+8), 3, colDim, true)
			vector.StrokeLine(screen, f32(x-8), f32(y+8), f32(x+8), f32(y-8), 3, colDim, true)
			continue
		}
		col := colEnemy
		if e.Bot {
			col = colEnemyBot
		}
		g.drawPlayer(screen, x, y, e.Angle, col)
		g.drawNameplate(screen, x, y, c.Name(e.ID), e.Health)
	}

	if g.cvars["cl_showhitboxes"].b() {
		// The newest server position of every other player, beside the
		// interpolated one: the distance between them is the interpolation delay.
		for _, e := range c.Entities {
			if s, ok := e.Hist.Newest(); ok && s.Alive {
				vector.StrokeCircle(screen, f32(s.X-cx), f32(s.Y-cy), float32(shared.PlayerRadius), 1.5, color.NRGBA{0xff, 0xff, 0xff, 0x90}, true)
			}
		}
	}

	// The local player, predicted.
	st := c.Predicted()
	px, py := g.drawPos()
	if g.cvars["cl_showerror"].f() >= 2 {
		// Where the server last had you (after the acked command).
		sv := c.Server.State()
		vector.StrokeCircle(screen, f32(sv.X-cx), f32(sv.Y-cy), float32(shared.PlayerRadius), 1.5, color.NRGBA{0xff, 0x40, 0x40, 0xc0}, true)
	}
	if !st.Dead {
		g.drawPlayer(screen, px-cx, py-cy, g.aim, colMe)
		if g.fx.muzzle > 0 {
			dx, dy := math.Cos(g.aim), math.Sin(g.aim)
			vector.DrawFilledCircle(screen, f32(px-cx+dx*26), f32(py-cy+dy*26), 7, color.RGBA{0xff, 0xf0, 0xa0, 0xff}, true)
		}
	}
}

func (g *Game) drawPlayer(screen *ebiten.Image, x, y, angle float64, col color.RGBA) {
	r := float32(shared.PlayerRadius)
	dx, dy := math.Cos(angle), math.Sin(angle)
	vector.StrokeLine(screen, float32(x), float32(y), float32(x+dx*26), float32(y+dy*26), 5, color.RGBA{0xd0, 0xd6, 0xe0, 0xff}, true)
	vector.DrawFilledCircle(screen, float32(x), float32(y), r, col, true)
	vector.StrokeCircle(screen, float32(x), float32(y), r, 2, color.RGBA{0x10, 0x10, 0x10, 0xff}, true)
}

func (g *Game) drawNameplate(screen *ebiten.Image, x, y float64, name string, health int) {
	drawText(screen, name, 13, false, x, y-42, 1, colText)
	const w = 36
	vector.DrawFilledRect(screen, float32(x-w/2), float32(y-24), w, 4, color.RGBA{0, 0, 0, 0xb0}, false)
	frac := math.Max(0, math.Min(1, float64(health)/100))
	col := colHPGood
	if frac < 0.35 {
		col = colHPBad
	}
	vector.DrawFilledRect(screen, float32(x-w/2), float32(y-24), float32(w*frac), 4, col, false)
}

func (g *Game) drawHUD(screen *ebiten.Image) {
	c := g.c
	W, H := float64(g.w), float64(g.h)
	st := c.Predicted()

	if g.fx.damageFlash > 0 {
		vector.DrawFilledRect(screen, 0, 0, float32(W), float32(H), color.NRGBA{0xb0, 0, 0, uint8(90 * g.fx.damageFlash)}, false)
	}

	// Health and ammo.
	hpCol := colHPGood
	if c.Health < 35 {
		hpCol = colHPBad
	}
	drawText(screen, fmt.Sprintf("+ %d", c.Health), 34, true, 24, H-58, 0, hpCol)
	def := &shared.Weapons[st.Weapon]
	ammo := fmt.Sprintf("%d / %d", st.Ammo[st.Weapon], def.MagSize)
	drawText(screen, ammo, 34, true, W-24, H-58, 2, colText)
	drawText(screen, def.Name, 14, false, W-24, H-76, 2, colDim)
	if st.ReloadTicks > 0 {
		total := float64(shared.Ticks(def.ReloadMs, c.TickRate))
		frac := 1 - float64(st.ReloadTicks)/total
		vector.DrawFilledRect(screen, float32(W-184), float32(H-18), 160, 6, color.RGBA{0, 0, 0, 0xb0}, false)
		vector.DrawFilledRect(screen, float32(W-184), float32(H-18), float32(160*frac), 6, colTracerMe, false)
		drawText(screen, "RELOADING", 14, true, W-24, H-96, 2, colTracerMe)
	}

	// Ping and fps, top-left, and what differs from the defaults.
	drawText(screen, fmt.Sprintf("ping %d ms   fps %.0f", c.Stats.PingMs, g.fps), 14, false, 12, 10, 0, colDim)
	if g.cvars["cl_showerror"].f() >= 1 {
		drawText(screen, fmt.Sprintf("prediction errors %d (last %.2f units)", c.Stats.Corrections, c.Stats.LastErrorDist), 14, false, 12, 30, 0, colTracerMe)
	}
	g.drawChangedCvars(screen)

	// Kill feed, top-right.
	y := 10.0
	for _, e := range g.fx.feed {
		var s string
		col := colText
		if e.notice != "" {
			s, col = e.notice, colDim
		} else {
			s = fmt.Sprintf("%s  >  %s", e.killer, e.victim)
			if e.mine {
				col = colMe
			} else if e.me {
				col = colHPBad
			}
		}
		drawText(screen, s, 15, e.notice == "", W-12, y, 2, col)
		y += 22
	}

	// Crosshair at the mouse, and hit markers.
	mx, my := ebiten.CursorPosition()
	if g.opt.Script != nil || g.opt.AutoPlay {
		px, py := g.worldToScreen(g.drawPos())
		mx, my = int(px+math.Cos(g.aim)*120), int(py+math.Sin(g.aim)*120)
	}
	fx, fy := float32(mx), float32(my)
	ch := color.NRGBA{0xf0, 0xf0, 0xf0, 0xe0}
	vector.StrokeLine(screen, fx-12, fy, fx-4, fy, 2, ch, false)
	vector.StrokeLine(screen, fx+4, fy, fx+12, fy, 2, ch, false)
	vector.StrokeLine(screen, fx, fy-12, fx, fy-4, 2, ch, false)
	vector.StrokeLine(screen, fx, fy+4, fx, fy+12, 2, ch, false)
	if g.fx.hitMarker > 0 || g.fx.killMarker > 0 {
		hm := color.RGBA{0xff, 0xff, 0xff, 0xff}
		if g.fx.killMarker > 0 {
			hm = colHPBad
		}
		for _, s := range [][2]float32{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			vector.StrokeLine(screen, fx+s[0]*6, fy+s[1]*6, fx+s[0]*14, fy+s[1]*14, 3, hm, true)
		}
	}

	if st.Dead {
		msg := "You died"
		if g.fx.killedBy != "" {
			msg = "Killed by " + g.fx.killedBy
		}
		drawText(screen, msg, 32, true, W/2, H/2-90, 1, colHPBad)
		drawText(screen, "respawning...", 18, false, W/2, H/2-48, 1, colText)
	}

	if g.fx.bannerLeft > 0 {
		drawText(screen, g.fx.banner, 40, true, W/2, 24, 1, colTracerMe)
	}
	if ebiten.IsKeyPressed(ebiten.KeyTab) || (g.fx.bannerLeft > 0 && g.fx.banner != "New match") {
		g.drawScoreboard(screen)
	}
	if g.menu {
		g.drawMenu(screen)
	}
	if !st.Dead && g.opt.Script == nil && !g.opt.AutoPlay && time.Since(g.started) < 8*time.Second {
		drawText(screen, "WASD move   mouse aim   left click fire   R reload   1/2 weapon   Tab scores   F3 or N net_graph   Esc menu", 15, false, W/2, H-34, 1, colDim)
	}
}

func (g *Game) drawScoreboard(screen *ebiten.Image) {
	c := g.c
	rows := append([]scoreRow(nil), toRows(c)...)
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].kills != rows[j].kills {
			return rows[i].kills > rows[j].kills
		}
		return rows[i].deaths < rows[j].deaths
	})
	W := float64(g.w)
	pw, ph := 560.0, 90+28*float64(len(rows))
	x0, y0 := W/2-pw/2, 80.0
	vector.DrawFilledRect(screen, float32(x0), float32(y0), float32(pw), float32(ph), colPanel, false)
	title := fmt.Sprintf("Deathmatch  -  %s", c.Map.Title)
	for _, cv := range c.Accept.Cvars {
		if cv.Name == "mp_fraglimit" && cv.Value != "0" {
			title += "  -  first to " + cv.Value
		}
	}
	drawText(screen, title, 20, true, W/2, y0+12, 1, colText)
	hy := y0 + 50
	drawText(screen, "Player", 14, true, x0+20, hy, 0, colDim)
	drawText(screen, "Kills", 14, true, x0+340, hy, 2, colDim)
	drawText(screen, "Deaths", 14, true, x0+430, hy, 2, colDim)
	drawText(screen, "Ping", 14, true, x0+pw-20, hy, 2, colDim)
	for i, r := range rows {
		y := hy + 26 + 28*float64(i)
		col := colText
		if r.id == c.ID {
			col = colMe
		}
		drawText(screen, r.name, 16, r.id == c.ID, x0+20, y, 0, col)
		drawText(screen, fmt.Sprint(r.kills), 16, false, x0+340, y, 2, col)
		drawText(screen, fmt.Sprint(r.deaths), 16, false, x0+430, y, 2, col)
		ping := fmt.Sprint(r.ping)
		if r.bot {
			ping = "BOT"
		}
		drawText(screen, ping, 16, false, x0+pw-20, y, 2, col)
	}
}

type scoreRow struct {
	id            uint16
	name          string
	kills, deaths int
	ping          int
	bot           bool
}

func toRows(c *netclient.Client) []scoreRow {
	rows := make([]scoreRow, 0, len(c.Scores))
	for _, s := range c.Scores {
		rows = append(rows, scoreRow{s.ID, s.Name, int(s.Kills), int(s.Deaths), int(s.PingMs), s.Bot})
	}
	return rows
}

func (g *Game) drawMenu(screen *ebiten.Image) {
	W, H := float64(g.w), float64(g.h)
	vector.DrawFilledRect(screen, 0, 0, float32(W), float32(H), color.RGBA{0, 0, 0, 0x90}, false)
	drawText(screen, "PAUSED (the game goes on)", 30, true, W/2, H/2-80, 1, colText)
	drawText(screen, "Esc: resume", 20, false, W/2, H/2-20, 1, colText)
	drawText(screen, "Q: quit", 20, false, W/2, H/2+14, 1, colText)
	drawText(screen, "Connected to "+g.opt.Addr, 14, false, W/2, H/2+60, 1, colDim)
}

// maybeScreenshot saves the screen once, after ScreenshotAfter (tests).
// screenshotMinFrames is how many frames of play --screenshot waits for.
const screenshotMinFrames = 30

func (g *Game) maybeScreenshot(screen *ebiten.Image) {
	if g.opt.ScreenshotPath == "" || g.shotSaved || time.Since(g.started) < g.opt.ScreenshotAfter {
		return
	}
	// Wait for the game to be on screen for some frames, not only for the
	// time: on a starved machine the first frames come slowly, and a test
	// reading the screenshot wants the game as it is drawn in play.
	if (g.phase == phaseConnecting || (g.phase == phasePlaying && g.playFrames < screenshotMinFrames)) &&
		time.Since(g.started) < g.opt.ScreenshotAfter+20*time.Second {
		return
	}
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	f, err := os.Create(g.opt.ScreenshotPath)
	if err == nil {
		_ = png.Encode(f, img)
		_ = f.Close()
	}
	g.shotSaved = true
}

// drawChangedCvars lists, under the ping, the netcode switches that differ
// from their defaults, so a screenshot says what was being shown.
func (g *Game) drawChangedCvars(screen *ebiten.Image) {
	y := 50.0
	for _, n := range []string{"cl_predict", "cl_interpolate", "cl_interp", "cl_interp_ratio", "cl_updaterate", "cl_cmdrate", "rate", "cl_cmdbackup", "cl_smooth",
		"net_fakelag", "net_fakejitter", "net_fakeloss"} {
		v := g.cvars[n]
		if v.value != v.def {
			drawText(screen, fmt.Sprintf("%s %s", n, v.value), 14, false, 12, y, 0, ngWarn)
			y += 18
		}
	}
}
