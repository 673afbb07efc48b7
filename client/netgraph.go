//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/client/palette"
)

// net_graph colours, after Source's vgui_netgraphpanel: packet bars by
// content, red for loss, orange for choke.
var (
	ngPlain   = color.RGBA{0x50, 0xc8, 0x50, 0xff} // snapshot with only states
	ngEvents  = color.RGBA{0xe8, 0xd0, 0x40, 0xff} // snapshot carrying events
	ngCorrect = color.RGBA{0xe0, 0x60, 0xe0, 0xff} // a prediction error was found on it
	ngLoss    = color.RGBA{0xff, 0x30, 0x30, 0xff}
	ngChoke   = color.RGBA{0xff, 0x90, 0x20, 0xff}
	ngPing    = color.RGBA{0x60, 0xc0, 0xff, 0xff}
	ngLerp    = color.RGBA{0xc0, 0xc0, 0xc0, 0xff}
	ngWarn    = color.RGBA{0xff, 0x9a, 0x30, 0xff}
	ngBack    = color.RGBA{0x05, 0x06, 0x08, 0xff} // opaque: the graph reads the same over any map
)

// ngMaxMs is the top of the net_graph's latency scale.
const ngMaxMs = 500.0

// frect is a rectangle in screen pixels, x, y its top-left.
type frect struct{ x, y, w, h float64 }

// touchesDisc tells whether r and the disc of radius rad around cx, cy overlap.
func (r frect) touchesDisc(cx, cy, rad float64) bool {
	nx := math.Max(r.x, math.Min(cx, r.x+r.w))
	ny := math.Max(r.y, math.Min(cy, r.y+r.h))
	return math.Hypot(cx-nx, cy-ny) < rad
}

// netGraph panel geometry at scale 1 (1280 px wide), in pixels.
const (
	ngWidth     = 440.0 // the text and graph
	ngPad       = 6.0   // around them, inside the dark panel
	ngMargin    = 12.0  // from the window's side
	ngBottom    = 110.0 // from the window's bottom: above the health and ammo
	ngGraphH    = 110.0 // the packet graph (net_graph 2 and 3)
	ngFont      = 13.0  // text size
	ngLineH     = ngFont * 1.35
	ngClearance = 36.0 // around the local player, kept free: body (16), gun (26) and muzzle flash (33)
)

// netGraphLines is the number of text lines at a net_graph level.
func netGraphLines(level int) int {
	if level >= 3 {
		return 7
	}
	return 3
}

// netGraphLayout is where the net_graph is drawn: the dark panel, the
// origin of its content (graph, then text) and its scale.
type netGraphLayout struct {
	panel      frect
	x0, y0     float64 // top-left of the content
	sc         float64 // scale: 1 at 1280 px wide
	graphH     float64 // packet graph height, 0 below level 2
	textH      float64
	corner     int // 0 bottom right, 1 bottom left
	lineH, fsz float64
}

// netGraphPlace lays the net_graph panel out in a W×H window for a level
// (1..3), keeping it off the local player, drawn at px, py with
// ngClearance around it. The panel sits at the bottom right, above the
// ammo, as in Source; when the player is there (the camera stops at the
// map's edges, so the player is not always in the middle) it moves to the
// bottom left. It is at most half the window wide less the clearance, so
// one of the two corners is always free: the bottom-right panel lies right
// of W/2 + clearance, the bottom-left one left of W/2 − clearance. corner
// is the corner used last: the panel stays there while it is free, so it
// does not jump back and forth.
func netGraphPlace(W, H float64, level int, px, py float64, corner int) netGraphLayout {
	graphH := 0.0
	if level >= 2 {
		graphH = ngGraphH
	}
	lines := float64(netGraphLines(level))
	// Heights at scale 1: content, and the panel with its padding.
	contentH1 := graphH + ngLineH*lines
	panelW1, panelH1 := ngWidth+2*ngPad, contentH1+2*ngPad
	sc := math.Max(0.75, math.Min(2, W/1280))
	sc = math.Min(sc, (W/2-ngClearance-ngMargin)/panelW1)
	sc = math.Min(sc, (H-ngMargin)/(ngBottom+panelH1))
	sc = math.Max(sc, 0.1)
	l := netGraphLayout{sc: sc, graphH: graphH * sc, textH: ngLineH * lines * sc, lineH: ngLineH * sc, fsz: ngFont * sc}
	pw, ph := panelW1*sc, panelH1*sc
	y := math.Round(H - ngBottom*sc - ph)
	at := func(c int) frect {
		if c == 1 {
			return frect{math.Round(ngMargin * sc), y, math.Round(pw), math.Round(ph)}
		}
		return frect{math.Round(W - ngMargin*sc - pw), y, math.Round(pw), math.Round(ph)}
	}
	if corner != 1 {
		corner = 0
	}
	if at(corner).touchesDisc(px, py, ngClearance) {
		corner = 1 - corner
	}
	l.corner = corner
	l.panel = at(corner)
	l.x0, l.y0 = l.panel.x+math.Round(ngPad*sc), l.panel.y+math.Round(ngPad*sc)
	return l
}

// netGraph is the net_graph overlay (Source's net_graph 1..3): its place,
// the text image it refreshes four times a second, and what drawing it
// costs.
type netGraph struct {
	corner    int           // where the panel is (netGraphPlace)
	text      *ebiten.Image // the text, laid out textLevel at textAt
	textAt    time.Time
	textLevel int
	maxSize   float64 // the packet graph's top, bytes
	// us is the smoothed CPU time to issue its draw calls per frame, µs.
	us float64
}

// draw draws net_graph 1..3 in a corner (netGraphPlace).
func (ng *netGraph) draw(v *frameView) {
	g, c, screen := v.g, v.c, v.screen
	level := g.cv.netGraph.Get()
	if level == 0 || c == nil {
		return
	}
	t0 := time.Now()
	now := v.g.now() // the demo's clock during playback
	px, py := v.px-v.camX, v.py-v.camY
	l := netGraphPlace(v.W, v.H, level, px, py, ng.corner)
	ng.corner = l.corner
	sc := l.sc
	pw := ngWidth * sc
	// A dark panel keeps it readable over any map colour.
	b := &batch
	b.use(screen)
	b.rect(float32(l.panel.x), float32(l.panel.y), float32(l.panel.w), float32(l.panel.h), ngBack)
	if level >= 2 {
		ng.drawPacketGraph(b, c.Net(), l.x0, l.y0, pw, l.graphH-6*sc, sc)
	}
	// The batch so far holds the whole frame: its drawing is not the
	// net_graph's cost.
	spent := time.Since(t0)
	b.flush() // the text image goes over it
	t0 = time.Now()
	// The text is laid out into a cached image four times a second (as
	// Source refreshes its net_graph text): shaping a dozen lines every
	// frame would cost more than everything else here together.
	tw, th := int(math.Ceil(pw+ngPad*sc)), int(math.Ceil(l.graphH+l.textH+ngPad*sc))
	if ng.text == nil || ng.text.Bounds().Dx() != tw || ng.text.Bounds().Dy() != th {
		if ng.text != nil {
			ng.text.Deallocate()
		}
		ng.text = ebiten.NewImage(tw, th)
		ng.textAt = time.Time{}
	}
	if now.Sub(ng.textAt) > 250*time.Millisecond || level != ng.textLevel {
		ng.textAt, ng.textLevel = now, level
		ng.text.Clear()
		ng.drawText(ng.text, g, c, level, l.fsz, l.lineH, pw, l.graphH, sc, now)
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(l.x0, l.y0)
	screen.DrawImage(ng.text, op)
	spent += time.Since(t0)
	ng.us += (float64(spent.Microseconds()) - ng.us) * 0.05
}

// packetColumns is the packet graph's column geometry for a graph from x0
// to x0+w pixels at scale sc: columns col pixels wide (whole pixels, at
// least 2, so that every bar and loss mark covers whole pixels), count of
// them fitting, leftwards from xRight.
func packetColumns(x0, w, sc float64) (col float64, count int, xRight float64) {
	col = math.Max(2, math.Round(2*sc))
	xRight = math.Floor(x0 + w)
	return col, int((xRight - x0) / col), xRight
}

// lossMark is the red mark of a snapshot that followed lost ones: the
// whole column x..x+col (whole pixels, at least 2) between the legend,
// which ends at top, and the bar area, which starts at barTop, so that it
// shows at any size.
func lossMark(x, col, top, barTop float64) frect {
	return frect{x, top, col, math.Max(barTop-top-1, 2)}
}

// drawPacketGraph adds the packet graph to b: one column per received
// snapshot, newest at the right: bar height = size, colour = content, red
// mark above = snapshots lost before it, orange mark = choked; the blue
// line is the ping, the grey one lerp.
func (ng *netGraph) drawPacketGraph(b *shapeBatch, n *netclient.NetStats, x0, y0, w, h, sc float64) {
	col, count, right := packetColumns(x0, w, sc)
	count = min(n.GraphN, count)
	if count == 0 {
		return
	}
	maxSize := 200.0
	for i := 0; i < count; i++ {
		maxSize = math.Max(maxSize, float64(n.GraphAt(i).Size))
	}
	const maxMs = ngMaxMs
	base := math.Round(y0 + h)
	barTop := base - math.Round(h*0.6)
	barW := math.Max(1, col-1)
	markTop := math.Round(y0 + 16*sc) // under the legend
	var prevPing, prevX float64
	for i := 0; i < count; i++ {
		s := n.GraphAt(i)
		x := right - float64(i+1)*col
		bh := math.Max(1, math.Round(float64(s.Size)/maxSize*(base-barTop)))
		c := ngPlain
		if s.Events > 0 {
			c = ngEvents
		}
		if s.Corrected {
			c = ngCorrect
		}
		b.rect(float32(x), float32(base-bh), float32(barW), float32(bh), c)
		if s.Lost > 0 {
			m := lossMark(x, col, markTop, barTop)
			b.rect(float32(m.x), float32(m.y), float32(m.w), float32(m.h), ngLoss)
		}
		if s.Choked > 0 {
			b.rect(float32(x), float32(base-bh-math.Round(4*sc)), float32(col), float32(math.Max(2, math.Round(3*sc))), ngChoke)
		}
		py := base - math.Min(s.PingMs, maxMs)/maxMs*h
		if i > 0 {
			// The ping line as short vertical-joined segments.
			top, bot := math.Min(py, prevPing), math.Max(py, prevPing)
			b.rect(float32(x), float32(top-0.75*sc), float32(prevX-x), float32(bot-top+1.5*sc), ngPing)
		}
		prevPing, prevX = py, x
		ly := base - math.Min(s.LerpMs, maxMs)/maxMs*h
		b.rect(float32(x), float32(ly), float32(col), float32(math.Max(1, sc)), ngLerp)
	}
	ng.maxSize = maxSize
}

// drawText lays the net_graph's text out into dst.
func (ng *netGraph) drawText(dst *ebiten.Image, g *Game, c *netclient.Client, level int, fs, lh, pw, graphH, sc float64, now time.Time) {
	x0, y := 0.0, graphH
	if level >= 2 {
		layoutText(dst, "ping", 11*sc, false, 0, 0, 0, ngPing)
		layoutText(dst, "lerp", 11*sc, false, 36*sc, 0, 0, ngLerp)
		layoutText(dst, "lost", 11*sc, false, 72*sc, 0, 0, ngLoss)
		layoutText(dst, "choke", 11*sc, false, 104*sc, 0, 0, ngChoke)
		layoutText(dst, fmt.Sprintf("max %d B / %d ms", int(ng.maxSize), int(ngMaxMs)), 11*sc, false, pw, 0, 2, palette.Dim)
	}
	inPk, inB := c.Net().In.Rates(now)
	outPk, outB := c.Net().Out.Rates(now)
	lerp := c.View().InterpMs
	layoutText(dst, fmt.Sprintf("fps %4.0f   ping %d ms ±%.0f   tick %d/s", g.fps, c.View().Stats.PingMs, c.Net().PingVarMs, c.View().TickRate), fs, false, x0, y, 0, palette.Text)
	layoutText(dst, c.Net().Transport, fs, false, x0+pw, y, 2, palette.Dim) // webrtc or websocket
	y += lh
	layoutText(dst, fmt.Sprintf("in  %5d B  %6.2f kB/s  %5.1f/s", c.Net().In.Last(), inB/1000, inPk), fs, false, x0, y, 0, palette.Text)
	lerpCol := palette.Text
	if lerp < 2*1000/float64(max(c.View().Config.UpdateRate, 1)) {
		lerpCol = ngWarn // under two snapshot intervals: one lost snapshot starves interpolation
	}
	layoutText(dst, fmt.Sprintf("lerp %5.1f ms", lerp), fs, false, x0+pw*0.62, y, 0, lerpCol)
	layoutText(dst, fmt.Sprintf("%d/s", c.View().Config.UpdateRate), fs, false, x0+pw, y, 2, palette.Dim)
	y += lh
	layoutText(dst, fmt.Sprintf("out %5d B  %6.2f kB/s  %5.1f/s", c.Net().Out.Last(), outB/1000, outPk), fs, false, x0, y, 0, palette.Text)
	layoutText(dst, fmt.Sprintf("cmdrate %d/s", c.View().Config.CmdRate), fs, false, x0+pw, y, 2, palette.Dim)
	if level >= 3 {
		y += lh
		layoutText(dst, fmt.Sprintf("loss %4.1f%%  choke %4.1f%%  jitter %5.1f ms  cmd loss %2.0f%%",
			c.Net().Loss.LossPct(), c.Net().ChokePct(), c.Net().Jitter.Ms(), c.Net().CmdLossPct), fs, false, x0, y, 0, palette.Text)
		y += lh
		layoutText(dst, fmt.Sprintf("sv tick %5.0f us ±%3.0f   graph %.0f us", c.Net().TickUs, c.Net().TickStdUs, ng.us), fs, false, x0, y, 0, palette.Text)
		y += lh
		// The server's command buffer: commands waiting (each a tick of
		// input delay) against the depth its jitter calls for, the time
		// dilation keeping it there, the ticks pulled back, and the backups.
		st := c.View().Stats
		layoutText(dst, fmt.Sprintf("cmd queue %d / target %d   cmd clock %.1f%%   pulled %d   backup %d+",
			st.CmdQueue, st.CmdTarget, 100-st.DilationPct, st.CmdQueuePulled, c.View().Config.CmdBackup), fs, false, x0, y, 0, palette.Text)
		y += lh
		// Deaths and respawns replace the predicted state too, but are the
		// server's decisions, not prediction errors: counted apart.
		layoutText(dst, fmt.Sprintf("pred errors %d (last %.2f u)   deaths/respawns %d",
			c.View().Stats.Corrections, c.View().Stats.LastErrorDist, c.View().Stats.LifeResets), fs, false, x0, y, 0, palette.Text)
	}
}
