//go:build !headless

package client

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/lab"
	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/shared"
)

// The lag lab's layout at its 1280×720, pixels: three columns (player 1,
// server, player 2), each a title, a pane with the world, the readouts and
// the knobs; over them the status bar and the preset's explanation, under
// them the timeline, the buttons and the help.
const (
	labMargin  = 8
	labGap     = 8
	labTitleY  = 80
	labPaneY   = 108
	labPaneH   = 264 // 416 wide: the lab map's 16:10 and a border
	labReadY   = labPaneY + labPaneH + 6
	labReadH   = 15
	labKnobY   = labReadY + 4*labReadH + 8
	labKnobH   = 16
	labTitleSz = 22
)

// Colours of the lab's chrome.
var (
	colLabPane   = color.RGBA{0x3a, 0x3f, 0x4a, 0xff} // pane border, cell hover
	colLabPanel  = color.RGBA{0x1b, 0x1e, 0x24, 0xff} // column background
	colLabGhost  = color.RGBA{0xff, 0xff, 0xff, 0xb0} // where the server has a player now
	colLabAcked  = color.RGBA{0xff, 0x50, 0x50, 0xd0} // the own player's last acknowledged state
	colLabDrawn  = color.RGBA{0x90, 0xe0, 0xff, 0xd0} // server pane: where a client draws a player
	colLabButton = color.RGBA{0x26, 0x2b, 0x33, 0xff}
)

// labShotColours link one shot's drawings across the three panes, by
// Shot.N: none of them is a player's, a wall's or the floor's colour.
var labShotColours = []color.RGBA{
	{0xff, 0x3c, 0xc8, 0xff}, // magenta
	{0xff, 0xe0, 0x30, 0xff}, // yellow
	{0xa0, 0xff, 0x40, 0xff}, // lime
	{0xa8, 0x78, 0xff, 0xff}, // violet
	{0xff, 0x58, 0x70, 0xff}, // rose
	{0x40, 0xff, 0xc8, 0xff}, // aquamarine
}

// labShotsLabelled is how many of the newest shots carry their labels.
const labShotsLabelled = 2

// labShotColour is shot n's colour.
func labShotColour(n int) color.RGBA { return labShotColours[(max(n, 1)-1)%len(labShotColours)] }

// labHit is a clickable region of the last frame drawn and what a click
// does (dir 1 left button, -1 right).
type labHit struct {
	r    image.Rectangle
	what string // "knob NAME", "preset N", "button LABEL", "timeline"
	do   func(w *labWindow, dir int)
}

// labUI is the immediate-mode panel: every Draw lists the regions it drew
// anew, and a click acts on the region under it.
type labUI struct{ hits []labHit }

func (u *labUI) add(r image.Rectangle, what string, do func(w *labWindow, dir int)) {
	u.hits = append(u.hits, labHit{r, what, do})
}

// at returns the region under x, y.
func (u *labUI) at(x, y int) (labHit, bool) {
	for _, h := range u.hits {
		if image.Pt(x, y).In(h.r) {
			return h, true
		}
	}
	return labHit{}, false
}

// labPainter draws the lag lab: the three panes with the game's world
// layers (worldPane) and the lab's overlays, the readouts, the knob panel,
// the presets, the timeline and the help.
type labPainter struct {
	panes    [3]worldPane // player 1, server, player 2
	paneRect [3]image.Rectangle
	ui       labUI
	// lastShot is the newest Shot.N fed to the panes' effects, lastAt
	// the virtual time of the frame followed last.
	lastShot int
	lastAt   time.Duration
	// labels are where this frame's labels went (label keeps them apart).
	labels []image.Rectangle
	// wrapped keeps the lines of the texts drawn wrapped (the preset's
	// explanation, the legend, the help).
	wrapped map[wrapKey][]string
}

// reset forgets the effects and shots of a lab that was replaced.
func (p *labPainter) reset() {
	for i := range p.panes {
		p.panes[i].fx, p.panes[i].drawn = effects{}, -1
	}
	p.lastShot, p.lastAt = 0, 0
}

// paneOf returns the pane index of seat (player 1 left, player 2 right).
func paneOf(seat int) int {
	if seat == lab.P2 {
		return 2
	}
	return 0
}

// follow feeds the panes' effects from the live frame f: each new shot's
// muzzle flash on the shooter's pane and, when it hit, impacts where each
// pane has it; then counts the virtual time that passed off them.
func (p *labPainter) follow(f lab.Frame) {
	for _, s := range f.Shots {
		if s.N <= p.lastShot {
			continue
		}
		p.lastShot = s.N
		if s.Shooter == lab.P1 || s.Shooter == lab.P2 {
			p.panes[paneOf(s.Shooter)].fx.muzzle = muzzleTime
		}
		if !s.Hit {
			continue
		}
		p.panes[1].fx.addImpact(s.EndX, s.EndY)
		if s.Shooter == lab.P1 || s.Shooter == lab.P2 {
			p.panes[paneOf(s.Shooter)].fx.addImpact(s.ToX, s.ToY)
		}
		if s.Victim == lab.P1 || s.Victim == lab.P2 {
			p.panes[paneOf(s.Victim)].fx.addImpact(s.VictimX, s.VictimY)
		}
	}
	dt := max(f.At-p.lastAt, 0)
	p.lastAt = f.At
	for i := range p.panes {
		p.panes[i].fx.update(dt)
	}
}

// labShown is what one Draw of the lab shows: the frame and the state of
// the lab and of its window at that moment.
type labShown struct {
	W, H    int // the window's size, pixels
	f       lab.Frame
	knobs   lab.Knobs
	drivers [2]lab.Driver
	now     time.Duration // the lab's virtual time (f.At is earlier when scrubbed)
	started time.Duration // when the run began, both players joined (0: joining)
	preset  *lab.Preset   // nil: free play
	paused  bool
	speed   float64
	state   string  // the clock's state for the status bar: "running", "PAUSED"...
	fps     float64 // frames drawn per second (0: not shown)
	msg     string  // a message for the status bar ("" none)
}

// draw draws the whole lab window showing st.
func (p *labPainter) draw(screen *ebiten.Image, st *labShown) {
	W, H := st.W, st.H
	p.ui.hits, p.labels = p.ui.hits[:0], p.labels[:0]
	b := &batch
	b.use(screen)
	b.rect(0, 0, float32(W), float32(H), palette.BG)
	p.drawStatus(screen, st)
	colW := (W - 2*labMargin - 2*labGap) / 3
	titles := [3]string{"Player 1", "Server", "Player 2"}
	for i := range 3 {
		x := labMargin + i*(colW+labGap)
		b.rect(float32(x-4), labTitleY-4, float32(colW+8), float32(H-labTitleY-92), colLabPanel)
		drawText(screen, titles[i], labTitleSz, true, float64(x), labTitleY, 0, palette.Text)
		p.paneRect[i] = image.Rect(x, labPaneY, x+colW, labPaneY+labPaneH)
		r := p.paneRect[i]
		b.rect(float32(r.Min.X-1), float32(r.Min.Y-1), float32(r.Dx()+2), float32(r.Dy()+2), colLabPane)
		b.rect(float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), palette.BG)
	}
	for _, seat := range []int{lab.P1, lab.P2} {
		p.drawSeat(screen, st, seat)
	}
	p.drawServer(screen, st)
	p.drawWrapped(screen, "Rings: white, where the server has the other player now (the ghost); red, your own last acknowledged "+
		"position; light blue, where a client draws a player (its rewind claim). A shot, in its own colour in all three panes: "+
		"the shooter's tracer to where it saw the target, the server's trace through the hitbox it rewound (faint: the present one), "+
		"and where the victim stood on its own screen.", 13, false, labMargin, labKnobY+7*labKnobH+8, float64(W-2*labMargin), 3, palette.Dim)
	p.drawTimeline(screen, st)
	p.drawButtons(screen, st)
	p.drawWrapped(screen, "Player 1: WASD move, the mouse over its pane aims, left click fires.   Player 2 on the keyboard: IJKL move, "+
		"Enter fires at player 1 where player 2 sees him.   Knobs: left click up or on, right click down or off.   "+
		"1-7 presets, 0 free play, Esc quits.", 13, false, labMargin, float64(H-38), float64(W-2*labMargin), 2, palette.Dim)
	b.use(screen)
	b.flush()
	txt.endFrame()
}

// drawStatus draws the top bar: the clock, speed and pause state, the
// server tick, a message; under it the preset's title and explanation.
func (p *labPainter) drawStatus(screen *ebiten.Image, st *labShown) {
	W, f := float64(st.W), &st.f
	run := "players joining"
	if st.started > 0 && f.At >= st.started {
		run = fmt.Sprintf("run %.2f s", (f.At - st.started).Seconds())
	}
	drawText(screen, fmt.Sprintf("t %.2f s (%s)    speed ×%.2g    %s    server tick %d at %d/s", f.At.Seconds(), run, st.speed,
		st.state, f.Server.Tick, f.Server.TickRate), 16, true, labMargin, 6, 0, palette.Text)
	if st.msg != "" {
		drawText(screen, st.msg, 14, false, W-labMargin, 8, 2, palette.Warn)
	} else if st.fps > 0 {
		drawText(screen, fmt.Sprintf("%.0f fps", st.fps), 14, false, W-labMargin, 8, 2, palette.Dim)
	}
	title, explain := "Free play", "Default knobs, 60 ms RTT on both seats. Pick a preset (keys 1-7) to see one "+
		"phenomenon of lag within ten seconds, or turn the knobs and play."
	if st.preset != nil {
		title, explain = st.preset.Title, st.preset.Explain
	}
	drawText(screen, title, 15, true, labMargin, 30, 0, palette.Warn)
	tw := textWidth(title, 15, true) + 12
	p.drawWrapped(screen, explain, 13, false, labMargin+tw, 31, W-2*labMargin-tw, 3, palette.Text)
}

// drawWrapped draws s in lines of at most width pixels from x, y, at most
// lines lines (the last one cut with an ellipsis); the lines are worked
// out once per text and width (labPainter.wrapped).
func (p *labPainter) drawWrapped(screen *ebiten.Image, s string, size float64, bold bool, x, y, width float64, lines int, clr color.RGBA) {
	k := wrapKey{s, size, bold, width, lines}
	ls, ok := p.wrapped[k]
	if !ok {
		ls = wrapText(s, size, bold, width, lines)
		if p.wrapped == nil || len(p.wrapped) > 64 {
			p.wrapped = map[wrapKey][]string{}
		}
		p.wrapped[k] = ls
	}
	for i, l := range ls {
		drawText(screen, l, size, bold, x, y+float64(i)*(size+3), 0, clr)
	}
}

// wrapKey is a text wrapped in labPainter.wrapped.
type wrapKey struct {
	s     string
	size  float64
	bold  bool
	width float64
	lines int
}

// wrapText breaks s into lines of at most width pixels (wrapWords), at
// most n of them: the last one cut short with an ellipsis.
func wrapText(s string, size float64, bold bool, width float64, n int) []string {
	out := wrapWords(s, width, func(l string) float64 { return textWidth(l, size, bold) })
	if len(out) > n {
		out = out[:n]
		out[n-1] += " …"
	}
	return out
}

// seatName is a seat's short name.
func seatName(seat int) string {
	if seat == lab.P2 {
		return "P2"
	}
	return "P1"
}

// driverName says who drives a seat.
func driverName(d lab.Driver) string {
	switch d {
	case lab.DriveKeyboard:
		return "keyboard"
	case lab.DriveBot:
		return "bot"
	case lab.DriveScript:
		return "script"
	}
	return "idle"
}

// drawSeat draws a client's column: its world as its client draws it, the
// overlays, the shots, the readouts and the knobs.
func (p *labPainter) drawSeat(screen *ebiten.Image, st *labShown, seat int) {
	f := &st.f
	i := paneOf(seat)
	pane, r := &p.panes[i], p.paneRect[i]
	sf := &f.Seats[seat]
	drawText(screen, fmt.Sprintf("%s · RTT %d ms", driverName(st.drivers[seat]), sf.Knobs.Up.LagMs+sf.Knobs.Down.LagMs),
		13, false, float64(r.Max.X), labTitleY+7, 2, palette.Dim)
	aim := float64(sf.View.LastCommand.ViewAngle)
	pane.draw(screen, r, worldView{view: sf.View, px: sf.SelfX, py: sf.SelfY, aim: aim,
		noSelf: sf.View.Spectating, noNames: true}, pane.fx.muzzle > 0, f.At)
	if pane.scale == 0 {
		return
	}
	b := &batch
	other := seatName(1 - seat)
	// The own player: predicted (drawn) against the last acknowledged state.
	ax, ay := pane.toScreen(sf.AckedX, sf.AckedY)
	sx, sy := pane.toScreen(sf.SelfX, sf.SelfY)
	rad := labRadius(pane)
	b.line(f32(ax), f32(ay), f32(sx), f32(sy), 1.5, colLabAcked)
	b.ring(f32(ax), f32(ay), f32(rad), 1.5, colLabAcked)
	p.label(screen, r, seatName(seat), sx, sy-rad-15, palette.Me)
	// The other player: drawn here, and the ghost where the server has it.
	if sf.OtherSeen {
		ox, oy := pane.toScreen(sf.OtherDrawnX, sf.OtherDrawnY)
		gx, gy := pane.toScreen(sf.OtherServerX, sf.OtherServerY)
		b.line(f32(ox), f32(oy), f32(gx), f32(gy), 1.5, colLabGhost)
		b.ring(f32(gx), f32(gy), f32(rad), 1.5, colLabGhost)
		p.label(screen, r, other, ox, oy-rad-15, palette.Enemy)
		p.label(screen, r, fmt.Sprintf("server's %s: %.0f u, %.0f ms", other, sf.GapUnits, sf.GapMs), gx, gy+rad+2, colLabGhost)
	}
	p.drawShots(screen, f, i)
	// Readouts.
	x, y := float64(r.Min.X), float64(labReadY)
	drawText(screen, fmt.Sprintf("unacked %d / last acked #%d (made #%d)", sf.Unacked, sf.LastAcked, sf.View.CommandNumber),
		13, false, x, y, 0, palette.Text)
	gap := other + " not drawn"
	if sf.OtherSeen {
		gap = fmt.Sprintf("%s drawn %.1f units = %.0f ms behind the server (ghost)", other, sf.GapUnits, sf.GapMs)
	}
	drawText(screen, gap, 13, false, x, y+labReadH, 0, colLabGhost)
	drawText(screen, fmt.Sprintf("own: predicted %.1f units ahead of acked (red)   corrections %d",
		math.Hypot(sf.SelfX-sf.AckedX, sf.SelfY-sf.AckedY), sf.View.Stats.Corrections), 13, false, x, y+2*labReadH, 0, colLabAcked)
	drawText(screen, fmt.Sprintf("ping %d ms   interp %.0f ms   snapshots %d", sf.View.Stats.PingMs, sf.View.InterpMs,
		sf.View.Stats.SnapshotsReceived), 13, false, x, y+3*labReadH, 0, palette.Dim)
	p.drawKnobs(screen, &st.knobs, seat, r.Min.X, r.Dx())
}

// labRadius is a hitbox's radius on a pane, pixels (at least 5).
func labRadius(p *worldPane) float64 { return max(shared.PlayerRadius*p.scale, 5) }

// label draws small text centred at x, y (its top), kept inside pane r
// and clear of the labels drawn before it this frame: moved a line down or
// up (up to three) to the first place that overlaps none, else left at y.
func (p *labPainter) label(screen *ebiten.Image, r image.Rectangle, s string, x, y float64, clr color.RGBA) {
	w := textWidth(s, 12, true)
	x = max(float64(r.Min.X)+2+w/2, min(x, float64(r.Max.X)-2-w/2))
	inside := func(y float64) float64 { return max(float64(r.Min.Y)+2, min(y, float64(r.Max.Y)-16)) }
	box := func(y float64) image.Rectangle { return image.Rect(int(x-w/2)-1, int(y), int(x+w/2)+1, int(y)+14) }
	at := inside(y)
	for _, dy := range []float64{0, 14, -14, 28, -28, 42, -42} {
		b, free := box(inside(y+dy)), true
		for _, l := range p.labels {
			free = free && !b.Overlaps(l)
		}
		if free {
			at = inside(y + dy)
			break
		}
	}
	p.labels = append(p.labels, box(at))
	drawText(screen, s, 12, true, x, at, 1, clr)
}

// serverView is the server's world as a netclient.View the world layers
// draw: every player as another player (none is the local one).
func serverView(sf *lab.ServerFrame) netclient.View {
	v := netclient.View{TickRate: sf.TickRate, Map: sf.Map, HaveSnapshot: true, Spectating: true}
	for _, pl := range sf.Players {
		v.Rendered = append(v.Rendered, netclient.RenderedEntity{ID: pl.ID, X: pl.X, Y: pl.Y, Angle: pl.Angle,
			Alive: pl.Alive, Health: pl.Health, Bot: pl.Seat < 0})
	}
	for _, pr := range sf.Projectiles {
		v.Projectiles = append(v.Projectiles, netclient.RenderedProjectile{X: pr.X, Y: pr.Y})
	}
	return v
}

// drawServer draws the server's column: its authoritative world, each
// player's command state and where each client draws each other player,
// the shots' rewound and present hitboxes, the readouts and the server's
// knobs and the presets.
func (p *labPainter) drawServer(screen *ebiten.Image, st *labShown) {
	f, k := &st.f, &st.knobs
	pane, r := &p.panes[1], p.paneRect[1]
	sf := &f.Server
	drawText(screen, "sv_unlag "+onOff(k.Server.Unlag), 13, false, float64(r.Max.X), labTitleY+7, 2, palette.Dim)
	pane.draw(screen, r, worldView{view: serverView(sf), noSelf: true, noNames: true}, false, f.At)
	x, y := float64(r.Min.X), float64(labReadY)
	if pane.scale != 0 {
		b := &batch
		rad := labRadius(pane)
		for _, pl := range sf.Players {
			if pl.Seat < 0 {
				continue
			}
			px, py := pane.toScreen(pl.X, pl.Y)
			p.label(screen, r, seatName(pl.Seat), px, py-rad-15, palette.Enemy)
			// Where this player's client draws the others (its rewind claim).
			for j, d := range pl.Drawn {
				dx, dy := pane.toScreen(d.X, d.Y)
				b.ring(f32(dx), f32(dy), f32(rad), 1.5, colLabDrawn)
				name := "?"
				for _, o := range sf.Players {
					if j < len(pl.DrawnIDs) && o.ID == pl.DrawnIDs[j] && o.Seat >= 0 {
						name = seatName(o.Seat)
					}
				}
				p.label(screen, r, fmt.Sprintf("%s as %s sees", name, seatName(pl.Seat)), dx, dy+rad+2, colLabDrawn)
			}
		}
		p.drawShots(screen, f, 1)
	}
	for _, seat := range []int{lab.P1, lab.P2} {
		for _, pl := range sf.Players {
			if pl.Seat == seat {
				drawText(screen, fmt.Sprintf("%s: last command #%d   queue %d   %d HP", seatName(seat), pl.LastCmd, pl.CmdQueue, pl.Health),
					13, false, x, y, 0, palette.Text)
				y += labReadH
			}
		}
	}
	drawText(screen, "light blue rings: where each client draws the other", 13, false, x, y, 0, colLabDrawn)
	y += labReadH
	if n := len(f.Shots); n > 0 {
		s := f.Shots[n-1]
		drawText(screen, fmt.Sprintf("shot #%d by %s: %s, rewound %.0f ms, error %.1f u", s.N, seatName(s.Shooter), s.Verdict,
			s.RewindMs, s.RewindErr), 13, true, x, y, 0, labShotColour(s.N))
	}
	p.drawServerPanel(screen, st, r.Min.X, r.Dx())
}

// drawShots draws every shot of f as pane i sees it, in the shot's colour:
// the shooter's tracer and where it drew the target; the server's trace
// through the rewound hitbox and the present one; the victim where it
// stood on its own screen and where it drew the shooter.
func (p *labPainter) drawShots(screen *ebiten.Image, f *lab.Frame, i int) {
	pane, r := &p.panes[i], p.paneRect[i]
	b := &batch
	rad := labRadius(pane)
	for k, s := range f.Shots {
		col := labShotColour(s.N)
		// The newest labShotsLabelled shots are labelled; older ones are
		// drawn dimmer, without labels (a bot's rapid fire).
		older := k < len(f.Shots)-labShotsLabelled
		if older {
			col = fade(col, 0.45)
		}
		faint := fade(col, 0.55)
		label := func(s string, x, y float64, c color.RGBA) {
			if !older {
				p.label(screen, r, s, x, y, c)
			}
		}
		verdict := fmt.Sprintf("#%d %s · %.0f ms", s.N, s.Verdict, s.RewindMs)
		switch {
		case i == 1: // the server
			fx, fy := pane.toScreen(s.FromX, s.FromY)
			ex, ey := pane.toScreen(s.EndX, s.EndY)
			b.line(f32(fx), f32(fy), f32(ex), f32(ey), 3, col)
			if s.TargetID != 0 {
				rx, ry := pane.toScreen(s.RewoundX, s.RewoundY)
				nx, ny := pane.toScreen(s.PresentX, s.PresentY)
				b.line(f32(rx), f32(ry), f32(nx), f32(ny), 1, faint)
				b.ring(f32(nx), f32(ny), f32(rad), 1.5, faint)
				b.ring(f32(rx), f32(ry), f32(rad+1), 3, col)
				label("now", nx+rad+16, ny-4, faint)
				label(verdict, rx, ry-rad-30, col)
			}
		case s.Shooter == lab.P1 && i == 0 || s.Shooter == lab.P2 && i == 2:
			fx, fy := pane.toScreen(s.FromX, s.FromY)
			tx, ty := pane.toScreen(s.ToX, s.ToY)
			b.line(f32(fx), f32(fy), f32(tx), f32(ty), 3, col)
			if s.TargetID != 0 && s.SawOK {
				sx, sy := pane.toScreen(s.SawX, s.SawY)
				b.ring(f32(sx), f32(sy), f32(rad+1), 3, col)
				label(verdict, sx, sy-rad-30, col)
			}
		case s.Victim == lab.P1 && i == 0 || s.Victim == lab.P2 && i == 2:
			vx, vy := pane.toScreen(s.VictimX, s.VictimY)
			if s.VictimSawOK {
				hx, hy := pane.toScreen(s.VictimSawShooterX, s.VictimSawShooterY)
				b.line(f32(hx), f32(hy), f32(vx), f32(vy), 1.5, faint)
				b.ring(f32(hx), f32(hy), f32(rad+1), 2, faint)
			}
			b.ring(f32(vx), f32(vy), f32(rad+1), 3, col)
			label(verdict+": you stood here", vx, vy-rad-30, col)
		}
	}
}

// drawKnobs draws a seat's knobs in two columns from x, width w pixels.
func (p *labPainter) drawKnobs(screen *ebiten.Image, k *lab.Knobs, seat, x, w int) {
	n := 0
	for ki := range labKnobs {
		if !labKnobs[ki].server {
			p.knobCell(screen, k, ki, seat, x+(n%2)*(w/2), labKnobY+(n/2)*labKnobH, w/2-4)
			n++
		}
	}
}

// knobCell draws knob ki (of seat) as a clickable cell at x, y, cw wide:
// its name, and its value, highlighted where it differs from the default.
func (p *labPainter) knobCell(screen *ebiten.Image, k *lab.Knobs, ki, seat, x, y, cw int) {
	kn := &labKnobs[ki]
	r := image.Rect(x, y, x+cw, y+labKnobH-1)
	if mx, my := ebiten.CursorPosition(); image.Pt(mx, my).In(r) {
		batch.rect(float32(x-2), float32(y), float32(cw+4), labKnobH-1, colLabPane)
	}
	def := lab.DefaultKnobs()
	val := kn.value(k, seat)
	col := palette.Text
	if val != kn.value(&def, seat) {
		col = palette.Warn
	}
	drawText(screen, kn.name, 13, false, float64(x), float64(y), 0, palette.Dim)
	drawText(screen, val, 13, true, float64(x+cw-2), float64(y), 2, col)
	p.ui.add(r, "knob "+kn.name, func(w *labWindow, dir int) {
		k := w.lab.Knobs()
		kn.step(&k, seat, dir)
		w.setKnobs(k)
	})
}

// drawServerPanel draws the server's knobs and the preset list in the
// middle column from x, w pixels wide.
func (p *labPainter) drawServerPanel(screen *ebiten.Image, st *labShown, x, cw int) {
	k := &st.knobs
	n := 0
	for ki := range labKnobs {
		if labKnobs[ki].server {
			p.knobCell(screen, k, ki, -1, x+(n%2)*(cw/2), labKnobY+(n/2)*labKnobH, cw/2-4)
			n++
		}
	}
	y := labKnobY + (n+1)/2*labKnobH + 4
	drawText(screen, "Presets (keys 1-7; 0 free play; R restarts)", 13, true, float64(x), float64(y), 0, palette.Dim)
	y += labKnobH + 2
	items := append([]*lab.Preset{nil}, lab.Presets()...)
	for i, ps := range items {
		title := "Free play"
		if ps != nil {
			title = ps.Title
		}
		cx, cy := x+(i%2)*(cw/2), y+(i/2)*labKnobH
		r := image.Rect(cx, cy, cx+cw/2-4, cy+labKnobH-1)
		col := palette.Text
		if ps == st.preset || ps != nil && st.preset != nil && ps.Name == st.preset.Name {
			batch.rect(float32(r.Min.X-2), float32(r.Min.Y), float32(r.Dx()+4), float32(r.Dy()), colLabButton)
			col = palette.Warn
		}
		drawText(screen, fmt.Sprintf("%d %s", i, title), 13, false, float64(cx), float64(cy), 0, col)
		p.ui.add(r, fmt.Sprint("preset ", i), func(w *labWindow, _ int) { w.choosePreset(i) })
	}
}

// drawTimeline draws the scrub bar over the kept History: where the frame
// shown is; a click there pauses and shows that moment.
func (p *labPainter) drawTimeline(screen *ebiten.Image, st *labShown) {
	W, H, f := st.W, st.H, &st.f
	x0, x1, y := labMargin+110, W-labMargin-110, H-84
	b := &batch
	b.rect(float32(x0), float32(y), float32(x1-x0), 6, palette.DemoTrack)
	span := time.Duration(lab.HistorySeconds) * time.Second
	now := st.now
	start := max(now-span, 0)
	frac := 1.0
	if now > start {
		frac = float64(f.At-start) / float64(now-start)
	}
	mx := float64(x0) + frac*float64(x1-x0)
	b.rect(float32(x0), float32(y), float32(mx-float64(x0)), 6, palette.DemoFill)
	b.rect(float32(mx-2), float32(y-5), 4, 16, palette.Text)
	drawText(screen, fmt.Sprintf("%.1f s", start.Seconds()), 13, false, float64(x0-8), float64(y-4), 2, palette.Dim)
	drawText(screen, fmt.Sprintf("%.1f s (now)", now.Seconds()), 13, false, float64(x1+8), float64(y-4), 0, palette.Dim)
	p.ui.add(image.Rect(x0, y-8, x1, y+14), "timeline", func(w *labWindow, _ int) {
		if !w.paused {
			w.togglePause()
		}
		mx, _ := ebiten.CursorPosition()
		if n := len(w.hist); n > 0 {
			w.scrubTo(int(float64(mx-x0) / float64(x1-x0) * float64(n-1)))
		}
	})
}

// drawButtons draws the row of buttons over the help: each does what its
// key does.
func (p *labPainter) drawButtons(screen *ebiten.Image, st *labShown) {
	pause := "Pause (Space)"
	if st.paused {
		pause = "Run (Space)"
	}
	buttons := []struct {
		label string
		do    func(w *labWindow, dir int)
	}{
		{pause, func(w *labWindow, _ int) { w.togglePause() }},
		{"Step one tick (N)", func(w *labWindow, _ int) { w.stepTick() }},
		{"Slower ([)", func(w *labWindow, _ int) { w.speed = stepIn(w.speed, labSpeeds, -1) }},
		{"Faster (])", func(w *labWindow, _ int) { w.speed = stepIn(w.speed, labSpeeds, 1) }},
		{"<< back (Left)", func(w *labWindow, _ int) { w.scrubBy(-lab.FrameRate / 10) }},
		{"on >> (Right)", func(w *labWindow, _ int) { w.scrubBy(lab.FrameRate / 10) }},
		{"Restart (R)", func(w *labWindow, _ int) { w.restart(w.presetName(), true) }},
		{"Save PNG (F12)", func(w *labWindow, _ int) { w.savePNG = time.Now().Format("lab-20060102-150405.png") }},
		{"Save run (F5)", func(w *labWindow, _ int) { w.saveRun(time.Now().Format("lab-20060102-150405.lab")) }},
		{"P1: " + driverName(st.drivers[lab.P1]) + " (V)", func(w *labWindow, _ int) { w.cycleDriver(lab.P1) }},
		{"P2: " + driverName(st.drivers[lab.P2]) + " (B)", func(w *labWindow, _ int) { w.cycleDriver(lab.P2) }},
	}
	x, y := labMargin, st.H-66
	mx, my := ebiten.CursorPosition()
	for _, bt := range buttons {
		bw := int(textWidth(bt.label, 13, false)) + 16
		r := image.Rect(x, y, x+bw, y+22)
		col := colLabButton
		if image.Pt(mx, my).In(r) {
			col = colLabPane
		}
		batch.rect(float32(x), float32(y), float32(bw), 22, col)
		drawText(screen, bt.label, 13, false, float64(x+8), float64(y+3), 0, palette.Text)
		p.ui.add(r, "button "+bt.label, bt.do)
		x += bw + 6
	}
}
