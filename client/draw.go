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
	"strconv"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/shared"
)

// Palette: chosen to read at a glance (you: cyan, enemies: orange/red).
// Colours are color.RGBA, alpha-premultiplied as Go defines that type.
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
	colTracerMe  = color.RGBA{0xff, 0xf3, 0xa0, 0xff}
	colTracerOth = color.RGBA{0xff, 0xb0, 0x70, 0xff}
	colPanel     = color.RGBA{0x0c, 0x0e, 0x12, 0xd0}
	colGun       = color.RGBA{0xd0, 0xd6, 0xe0, 0xff}
	colOutline   = color.RGBA{0x10, 0x10, 0x10, 0xff}
)

// drawState is what the draw path keeps from frame to frame.
type drawState struct {
	textBuf    []byte // HUD text is built here, reused every frame
	fpsShown   int    // the fps the HUD shows, refreshed 4 times a second
	fpsShownAt time.Time
	limiter    frameLimiter // fps_max
	ngCorner   int          // where the net_graph panel is (netGraphPlace)
}

// fade returns c with its opacity scaled by a (0..1).
func fade(c color.RGBA, a float64) color.RGBA {
	a = math.Max(0, math.Min(1, a))
	m := func(v uint8) uint8 { return uint8(float64(v)*a + 0.5) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), m(c.A)}
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

// Draw implements ebiten.Game: the current scene, then the console over it.
func (g *Game) Draw(screen *ebiten.Image) {
	g.limitFrameRate()
	now := time.Now()
	if !g.lastFrame.IsZero() {
		if d := now.Sub(g.lastFrame).Seconds(); d > 0 {
			g.fps += (1/d - g.fps) * 0.05
		}
	}
	g.lastFrame = now
	g.stats.frames++
	defer g.bridgeDrawn()
	defer txt.endFrame()
	batch.use(screen)
	batch.flush()
	g.scenes.Draw(screen)
	g.drawConsole(screen)
	batch.flush()
	g.maybeScreenshot(screen)
}

// Draw implements Scene: the world, the HUD, chat, net_graph and warnings.
func (p *playScene) Draw(screen *ebiten.Image) {
	g := p.g
	g.stats.playFrames++
	p.drawWorld(screen)
	p.c.MarkDrawn() // the next frame's commands claim this render time
	p.drawHUD(screen)
	g.drawChat(screen) // chat.go
	g.drawNetGraph(screen)
	g.drawTrouble(screen) // trouble.go
}

// onScreen tells whether a point at screen position x, y (pixels) with
// things drawn up to margin pixels around it can be seen.
func (g *Game) onScreen(x, y, margin float64) bool {
	return x > -margin && y > -margin && x < float64(g.w)+margin && y < float64(g.h)+margin
}

// drawWorld draws the arena, the effects and the players into the
// frame's batch: shapes, the bodies' sprites, name plates from the text
// cache.
func (p *playScene) drawWorld(screen *ebiten.Image) {
	g, c := p.g, p.c
	m := c.Map
	cx, cy := g.camera()
	W, H := float64(g.w), float64(g.h)
	f32 := func(v float64) float32 { return float32(v) }
	b := &batch
	b.use(screen)

	// The floor, and the background around it where the view goes past
	// the map's edges: together they cover the screen once (Ebiten does
	// not clear it: SetScreenClearedEveryFrame(false)).
	fx0, fy0 := math.Max(-cx, 0), math.Max(-cy, 0)
	fx1, fy1 := math.Max(math.Min(m.Width-cx, W), fx0), math.Max(math.Min(m.Height-cy, H), fy0)
	b.rect(0, 0, f32(W), f32(fy0), colBG)
	b.rect(0, f32(fy1), f32(W), f32(H-fy1), colBG)
	b.rect(0, f32(fy0), f32(fx0), f32(fy1-fy0), colBG)
	b.rect(f32(fx1), f32(fy0), f32(W-fx1), f32(fy1-fy0), colBG)
	b.rect(f32(fx0), f32(fy0), f32(fx1-fx0), f32(fy1-fy0), colFloor)
	for x := math.Max(64, math.Ceil(cx/64)*64); x < m.Width && x-cx <= W; x += 64 {
		b.rect(f32(x-cx-0.5), f32(fy0), 1, f32(fy1-fy0), colGrid)
	}
	for y := math.Max(64, math.Ceil(cy/64)*64); y < m.Height && y-cy <= H; y += 64 {
		b.rect(f32(fx0), f32(y-cy-0.5), f32(fx1-fx0), 1, colGrid)
	}
	for _, w := range m.Walls {
		x, y := w.MinX-cx, w.MinY-cy
		ww, wh := w.MaxX-w.MinX, w.MaxY-w.MinY
		if x > W+2 || y > H+2 || x+ww < -2 || y+wh < -2 {
			continue
		}
		b.rect(f32(x), f32(y), f32(ww), f32(wh), colWall)
		b.strokeRect(f32(x), f32(y), f32(ww), f32(wh), 2, colWallEdge)
	}

	for _, im := range g.fx.impacts {
		a := float64(im.left) / float64(impactTime)
		b.disc(f32(im.x-cx), f32(im.y-cy), f32(4+6*(1-a)), nrgba(color.NRGBA{0xff, 0x60, 0x40, uint8(200 * a)}))
	}
	for _, t := range g.fx.tracers {
		col := colTracerOth
		if t.own {
			col = colTracerMe
		}
		b.line(f32(t.x0-cx), f32(t.y0-cy), f32(t.x1-cx), f32(t.y1-cy), 2, fade(col, float64(t.left)/float64(tracerTime)))
	}

	// sv_showimpacts: red where this client drew the target when firing,
	// blue where the server traced it after its rewind.
	for _, bx := range g.fx.boxes {
		a := uint8(255 * math.Min(1, float64(bx.left)/float64(time.Second)))
		r := float32(shared.PlayerRadius)
		// Red a little outside the hitbox, blue a little inside: when the
		// server agrees with the client they show as two concentric rings.
		if bx.haveClient {
			b.ring(f32(bx.clientX-cx), f32(bx.clientY-cy), r+2, 2, nrgba(color.NRGBA{0xff, 0x30, 0x30, a}))
		}
		b.ring(f32(bx.serverX-cx), f32(bx.serverY-cy), r-2, 2, nrgba(color.NRGBA{0x40, 0x80, 0xff, a}))
	}

	for _, pr := range c.Projectiles() {
		x, y := pr.X-cx, pr.Y-cy
		if !g.onScreen(x, y, 24) {
			continue
		}
		dx, dy := math.Cos(pr.Angle), math.Sin(pr.Angle)
		b.line(f32(x-dx*18), f32(y-dy*18), f32(x), f32(y), 4, nrgba(color.NRGBA{0xff, 0x90, 0x30, 0x90}))
		b.disc(f32(x), f32(y), 5, color.RGBA{0xff, 0xe0, 0x90, 0xff})
	}
	for _, e := range g.fx.explosions {
		a := float64(e.left) / float64(explosionTime)
		r := e.r * (0.4 + 0.6*(1-a))
		b.disc(f32(e.x-cx), f32(e.y-cy), f32(r), nrgba(color.NRGBA{0xff, 0x80, 0x20, uint8(160 * a)}))
		b.ring(f32(e.x-cx), f32(e.y-cy), f32(r), 3, nrgba(color.NRGBA{0xff, 0xe0, 0x80, uint8(220 * a)}))
	}

	// Other players, interpolated: bodies and health bars in the batch,
	// then the names over them.
	ents := c.Rendered()
	for _, e := range ents {
		x, y := e.X-cx, e.Y-cy
		if !g.onScreen(x, y, 60) {
			continue
		}
		if !e.Alive {
			b.line(f32(x-8), f32(y-8), f32(x+8), f32(y+8), 3, colDim)
			b.line(f32(x-8), f32(y+8), f32(x+8), f32(y-8), 3, colDim)
			continue
		}
		g.drawPlayer(x, y, e.Angle, g.otherColour(e.ID, e.Bot)) // team colour in tdm (teams.go)
		if e.Protected {
			b.ring(f32(x), f32(y), float32(shared.PlayerRadius)+6, 2, colShield)
		}
		g.drawHealthBar(x, y, e.Health)
	}
	for _, e := range ents {
		if x, y := e.X-cx, e.Y-cy; e.Alive && g.onScreen(x, y, 60) {
			drawText(screen, c.Name(e.ID), 13, false, x, y-42, 1, colText)
		}
	}

	if g.cv.showHitboxes.Get() {
		// The newest server position of every other player, beside the
		// interpolated one: the distance between them is the interpolation delay.
		for _, e := range c.Entities {
			if s, ok := e.Hist.Newest(); ok && s.Alive {
				b.ring(f32(s.X-cx), f32(s.Y-cy), float32(shared.PlayerRadius), 1.5, nrgba(color.NRGBA{0xff, 0xff, 0xff, 0x90}))
			}
		}
	}

	// The local player, predicted.
	st := c.Predicted()
	px, py := g.drawPos()
	if g.cv.showError.Get() >= 2 {
		// Where the server last had you (after the acked command).
		sv := c.Server.State()
		b.ring(f32(sv.X-cx), f32(sv.Y-cy), float32(shared.PlayerRadius), 1.5, nrgba(color.NRGBA{0xff, 0x40, 0x40, 0xc0}))
	}
	if !st.Dead {
		g.drawPlayer(px-cx, py-cy, p.aim, g.selfColour())
		if c.Server.Protected && p.fireCmd <= c.AckCmd() {
			// Spawn protection: until it runs out or this player fires
			// (the server's word arrives a round trip later).
			b.ring(f32(px-cx), f32(py-cy), float32(shared.PlayerRadius)+6, 2, colShield)
		}
		if g.fx.muzzle > 0 {
			dx, dy := math.Cos(p.aim), math.Sin(p.aim)
			b.disc(f32(px-cx+dx*26), f32(py-cy+dy*26), 7, color.RGBA{0xff, 0xf0, 0xa0, 0xff})
		}
	}
}

// drawPlayer adds a player at screen position x, y to the shape batch:
// the gun towards angle (radians), the body, its outline.
func (g *Game) drawPlayer(x, y, angle float64, col color.RGBA) {
	b := &batch
	dx, dy := math.Cos(angle), math.Sin(angle)
	b.line(float32(x), float32(y), float32(x+dx*26), float32(y+dy*26), 5, colGun)
	b.body(float32(x), float32(y), col)
}

// drawHealthBar adds the health bar under a player's name.
func (g *Game) drawHealthBar(x, y float64, health int) {
	b := &batch
	const w = 36
	b.rect(float32(x-w/2), float32(y-24), w, 4, color.RGBA{0, 0, 0, 0xb0})
	frac := math.Max(0, math.Min(1, float64(health)/100))
	col := colHPGood
	if frac < 0.35 {
		col = colHPBad
	}
	b.rect(float32(x-w/2), float32(y-24), float32(w*frac), 4, col)
}

// appendInt appends v in decimal to buf.
func appendInt(buf []byte, v int) []byte { return strconv.AppendInt(buf, int64(v), 10) }

func (p *playScene) drawHUD(screen *ebiten.Image) {
	g, c := p.g, p.c
	W, H := float64(g.w), float64(g.h)
	st := c.Predicted()
	b := &batch
	buf := g.draw.textBuf[:0]
	defer func() { g.draw.textBuf = buf }()

	// Shapes first: the damage flash, the reload bar, the crosshair.
	b.use(screen)
	if g.fx.damageFlash > 0 {
		b.rect(0, 0, float32(W), float32(H), nrgba(color.NRGBA{0xb0, 0, 0, uint8(90 * g.fx.damageFlash)}))
	}
	def := &shared.Weapons[st.Weapon]
	if st.ReloadTicks > 0 {
		total := float64(shared.Ticks(def.ReloadMs, c.TickRate))
		frac := 1 - float64(st.ReloadTicks)/total
		b.rect(float32(W-184), float32(H-18), 160, 6, color.RGBA{0, 0, 0, 0xb0})
		b.rect(float32(W-184), float32(H-18), float32(160*frac), 6, colTracerMe)
	}
	spec := c.Spectating() // no crosshair, health or ammo: spectate.go's HUD
	// Crosshair at the mouse, and hit markers.
	mx, my := int(p.cursorX), int(p.cursorY)
	if !p.human {
		px, py := g.worldToScreen(g.drawPos())
		mx, my = int(px+math.Cos(p.aim)*120), int(py+math.Sin(p.aim)*120)
	}
	fx, fy := float32(mx), float32(my)
	ch := nrgba(color.NRGBA{0xf0, 0xf0, 0xf0, 0xe0})
	if !spec {
		b.rect(fx-12, fy-1, 8, 2, ch)
		b.rect(fx+4, fy-1, 8, 2, ch)
		b.rect(fx-1, fy-12, 2, 8, ch)
		b.rect(fx-1, fy+4, 2, 8, ch)
	}
	if g.fx.hitMarker > 0 || g.fx.killMarker > 0 {
		hm := color.RGBA{0xff, 0xff, 0xff, 0xff}
		if g.fx.killMarker > 0 {
			hm = colHPBad
		}
		for _, s := range [4][2]float32{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}} {
			b.line(fx+s[0]*6, fy+s[1]*6, fx+s[0]*14, fy+s[1]*14, 3, hm)
		}
	}

	// Health and ammo.
	hpCol := colHPGood
	if c.Health < 35 {
		hpCol = colHPBad
	}
	if !spec {
		buf = appendInt(append(buf[:0], "+ "...), c.Health)
		drawTextBytes(screen, buf, 34, true, 24, H-58, 0, hpCol)
		buf = appendInt(append(appendInt(buf[:0], int(st.Ammo[st.Weapon])), " / "...), int(def.MagSize))
		drawTextBytes(screen, buf, 34, true, W-24, H-58, 2, colText)
		drawText(screen, def.Name, 14, false, W-24, H-76, 2, colDim)
	}
	if st.ReloadTicks > 0 {
		drawText(screen, "RELOADING", 14, true, W-24, H-96, 2, colTracerMe)
	}

	// Ping and fps, top-left, and what differs from the defaults. The fps
	// shown changes four times a second, as a number one can read.
	if now := time.Now(); now.Sub(g.draw.fpsShownAt) > 250*time.Millisecond {
		g.draw.fpsShown, g.draw.fpsShownAt = int(math.Round(g.fps)), now
	}
	buf = appendInt(append(appendInt(append(buf[:0], "ping "...), c.Stats.PingMs), " ms   fps "...), g.draw.fpsShown)
	drawTextBytes(screen, buf, 14, false, 12, 10, 0, colDim)
	if g.cv.showError.Get() >= 1 {
		buf = appendInt(append(buf[:0], "prediction errors "...), c.Stats.Corrections)
		buf = append(strconv.AppendFloat(append(buf, " (last "...), c.Stats.LastErrorDist, 'f', 2, 64), " units)"...)
		buf = appendInt(append(buf, "   deaths/respawns "...), c.Stats.LifeResets)
		drawTextBytes(screen, buf, 14, false, 12, 30, 0, colTracerMe)
	}
	buf = g.drawChangedCvars(screen, buf)

	// Kill feed, top-right.
	y := 10.0
	for _, e := range g.fx.feed {
		col := colText
		if e.notice != "" {
			buf, col = append(buf[:0], e.notice...), colDim
		} else {
			buf = append(append(append(buf[:0], e.killer...), "  >  "...), e.victim...)
			if e.mine {
				col = colMe
			} else if e.me {
				col = colHPBad
			}
		}
		drawTextBytes(screen, buf, 15, e.notice == "", W-12, y, 2, col)
		y += 22
	}

	if spec {
		p.drawSpectating(screen) // spectate.go
	} else if st.Dead {
		buf = append(buf[:0], "You died"...)
		if g.fx.killedBy != "" {
			buf = append(append(buf[:0], "Killed by "...), g.fx.killedBy...)
		}
		drawTextBytes(screen, buf, 32, true, W/2, H/2-90, 1, colHPBad)
		drawText(screen, "respawning...", 18, false, W/2, H/2-48, 1, colText)
	}

	if g.fx.bannerLeft > 0 {
		drawText(screen, g.fx.banner, 40, true, W/2, 24, 1, colTracerMe)
	} else {
		buf = g.drawTeamScore(screen, buf) // tdm: the team scores at the top (teams.go)
	}
	if p.held&KeyScores != 0 || (g.fx.bannerLeft > 0 && g.fx.banner != "New match") {
		g.drawScoreboard(screen)
	}
	if p.menu {
		p.drawMenu(screen)
	}
	if !st.Dead && p.human && g.hintShown(p.held&KeyHelp != 0) {
		drawText(screen, controlsHint, 15, false, W/2, H-34, 1, colDim)
	}
}

func (g *Game) drawScoreboard(screen *ebiten.Image) {
	if g.drawTeamScoreboard(screen) { // teams.go
		return
	}
	c := g.c
	rows := append([]scoreRow(nil), toRows(c)...)
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].kills != rows[j].kills {
			return rows[i].kills > rows[j].kills
		}
		return rows[i].deaths < rows[j].deaths
	})
	W := float64(g.w)
	pw, ph := 560.0, 90+28*float64(len(rows))+spectatorRowsHeight(c)
	x0, y0 := W/2-pw/2, 80.0
	batch.use(screen)
	batch.rect(float32(x0), float32(y0), float32(pw), float32(ph), colPanel)
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
	g.drawSpectatorRows(screen, x0, hy+26+28*float64(len(rows))+8, pw) // spectate.go
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
		if !isSpectatorRow(&s) { // listed under their own heading
			rows = append(rows, scoreRow{s.ID, s.Name, int(s.Kills), int(s.Deaths), int(s.PingMs), s.Bot})
		}
	}
	return rows
}

func (p *playScene) drawMenu(screen *ebiten.Image) {
	g := p.g
	W, H := float64(g.w), float64(g.h)
	batch.use(screen)
	batch.rect(0, 0, float32(W), float32(H), color.RGBA{0, 0, 0, 0x90})
	drawText(screen, "PAUSED (the game goes on)", 30, true, W/2, H/2-80, 1, colText)
	drawText(screen, "Esc: resume", 20, false, W/2, H/2-20, 1, colText)
	drawText(screen, "Q: quit", 20, false, W/2, H/2+14, 1, colText)
	drawText(screen, "Connected to "+p.addr, 14, false, W/2, H/2+60, 1, colDim)
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
	connecting := false
	switch s := g.scenes.Current().(type) {
	case *connectScene:
		connecting = s.err == nil
	case *playScene:
		connecting = g.stats.playFrames < screenshotMinFrames
	}
	if connecting &&
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
// from their defaults, so a screenshot says what was being shown. It
// returns buf, reused.
func (g *Game) drawChangedCvars(screen *ebiten.Image, buf []byte) []byte {
	y := 50.0
	for _, v := range g.cv.switches {
		if !v.IsDefault() {
			buf = append(append(append(buf[:0], v.Name...), ' '), v.String()...)
			drawTextBytes(screen, buf, 14, false, 12, y, 0, ngWarn)
			y += 18
		}
	}
	return buf
}

// controlsHint is the line of controls shown at the bottom of the screen
// until the player has moved and fired, and again while F1 is held.
const controlsHint = "WASD move   mouse aim   left click fire   R reload   1/2 weapon   Tab scores   F3 or N net_graph   Esc menu   F1 help"

// colShield is the ring around a player under spawn protection.
var colShield = color.RGBA{0x90, 0xe0, 0xff, 0xc0}

// hintShown reports whether the controls hint is on screen: until the
// player has both moved and fired (a newcomer needs it longer than a few
// seconds), and while F1 is held.
func (g *Game) hintShown(help bool) bool {
	return g.stats.moved < 64 || g.stats.shotsFired == 0 || help
}
