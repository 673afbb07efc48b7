//go:build !headless

package client

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"tickshot/client/netclient"
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
)

// ngMaxMs is the top of the net_graph's latency scale.
const ngMaxMs = 500.0

// drawNetGraph draws net_graph 1..3 at the bottom right, above the ammo.
func (g *Game) drawNetGraph(screen *ebiten.Image) {
	level := int(g.cvars["net_graph"].f())
	if level == 0 || g.c == nil {
		return
	}
	t0 := time.Now()
	c := g.c
	now := time.Now()
	sc := math.Max(0.75, math.Min(2, float64(g.w)/1280))
	fs := 13 * sc
	lh := fs * 1.35
	W, H := float64(g.w), float64(g.h)
	pw := 440 * sc
	x0 := W - pw - 12*sc
	lines := 3
	if level >= 3 {
		lines = 5
	}
	graphH := 0.0
	if level >= 2 {
		graphH = 110 * sc
	}
	textH := lh * float64(lines)
	y0 := H - 110*sc - textH - graphH
	// A dark panel keeps it readable over any map colour.
	vector.DrawFilledRect(screen, float32(x0-6*sc), float32(y0-6*sc), float32(pw+12*sc), float32(graphH+textH+10*sc),
		color.RGBA{0, 0, 0, 0xa8}, false)

	if level >= 2 {
		g.drawPacketGraph(screen, &c.Net, x0, y0, pw, graphH-6*sc, sc)
	}
	// The text is laid out into a cached image four times a second (as
	// Source refreshes its net_graph text): shaping a dozen lines every
	// frame would cost more than everything else here together.
	tw, th := int(math.Ceil(pw+12*sc)), int(math.Ceil(graphH+textH+4*sc))
	if g.ngText == nil || g.ngText.Bounds().Dx() != tw || g.ngText.Bounds().Dy() != th {
		g.ngText = ebiten.NewImage(tw, th)
		g.ngTextAt = time.Time{}
	}
	if now.Sub(g.ngTextAt) > 250*time.Millisecond || level != g.ngTextLevel {
		g.ngTextAt, g.ngTextLevel = now, level
		g.ngText.Clear()
		g.drawNetGraphText(g.ngText, level, fs, lh, pw, graphH, sc, now)
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(x0, y0)
	screen.DrawImage(g.ngText, op)
	g.netGraphUs += (float64(time.Since(t0).Microseconds()) - g.netGraphUs) * 0.05
}

// drawPacketGraph draws one column per received snapshot, newest at the
// right: bar height = size, colour = content, red = snapshots lost before
// it, orange mark = choked; the blue line is the ping, the grey one lerp.
func (g *Game) drawPacketGraph(screen *ebiten.Image, n *netclient.NetStats, x0, y0, w, h, sc float64) {
	col := 2 * sc
	count := min(n.GraphN, int(w/col))
	if count == 0 {
		return
	}
	maxSize := 200.0
	for i := 0; i < count; i++ {
		maxSize = math.Max(maxSize, float64(n.GraphAt(i).Size))
	}
	const maxMs = ngMaxMs
	base := y0 + h
	bt := &g.batch
	var prevPing, prevX float64
	for i := 0; i < count; i++ {
		s := n.GraphAt(i)
		x := x0 + w - float64(i+1)*col
		bh := float64(s.Size) / maxSize * h * 0.6
		c := ngPlain
		if s.Events > 0 {
			c = ngEvents
		}
		if s.Corrected {
			c = ngCorrect
		}
		bt.add(float32(x), float32(base-bh), float32(col*0.8), float32(bh), c)
		if s.Lost > 0 {
			bt.add(float32(x+col*0.8), float32(base-h*0.6), float32(col*0.2+0.5), float32(h*0.6), ngLoss)
		}
		if s.Choked > 0 {
			bt.add(float32(x), float32(base-bh-4*sc), float32(col), float32(3*sc), ngChoke)
		}
		py := base - math.Min(s.PingMs, maxMs)/maxMs*h
		if i > 0 {
			// The ping line as short vertical-joined segments.
			top, bot := math.Min(py, prevPing), math.Max(py, prevPing)
			bt.add(float32(x), float32(top-0.75*sc), float32(prevX-x), float32(bot-top+1.5*sc), ngPing)
		}
		prevPing, prevX = py, x
		ly := base - math.Min(s.LerpMs, maxMs)/maxMs*h
		bt.add(float32(x), float32(ly), float32(col), float32(sc), ngLerp)
	}
	bt.draw(screen)
	g.ngMaxSize = maxSize
}

func (g *Game) drawNetGraphText(dst *ebiten.Image, level int, fs, lh, pw, graphH, sc float64, now time.Time) {
	c := g.c
	x0, y := 0.0, graphH
	if level >= 2 {
		drawText(dst, "ping", 11*sc, false, 0, 0, 0, ngPing)
		drawText(dst, "lerp", 11*sc, false, 36*sc, 0, 0, ngLerp)
		drawText(dst, "lost", 11*sc, false, 72*sc, 0, 0, ngLoss)
		drawText(dst, "choke", 11*sc, false, 104*sc, 0, 0, ngChoke)
		drawText(dst, fmt.Sprintf("max %d B / %d ms", int(g.ngMaxSize), int(ngMaxMs)), 11*sc, false, pw, 0, 2, colDim)
	}
	inPk, inB := c.Net.In.Rates(now)
	outPk, outB := c.Net.Out.Rates(now)
	lerp := c.InterpMs()
	drawText(dst, fmt.Sprintf("fps %4.0f   ping %d ms ±%.0f   tick %d/s", g.fps, c.Stats.PingMs, c.Net.PingVarMs, c.TickRate), fs, false, x0, y, 0, colText)
	y += lh
	drawText(dst, fmt.Sprintf("in  %5d B  %6.2f kB/s  %5.1f/s", c.Net.In.Last(), inB/1000, inPk), fs, false, x0, y, 0, colText)
	lerpCol := colText
	if lerp < 2*1000/float64(max(c.Cfg.UpdateRate, 1)) {
		lerpCol = ngWarn // under two snapshot intervals: one lost snapshot starves interpolation
	}
	drawText(dst, fmt.Sprintf("lerp %5.1f ms", lerp), fs, false, x0+pw*0.62, y, 0, lerpCol)
	drawText(dst, fmt.Sprintf("%d/s", c.Cfg.UpdateRate), fs, false, x0+pw, y, 2, colDim)
	y += lh
	drawText(dst, fmt.Sprintf("out %5d B  %6.2f kB/s  %5.1f/s", c.Net.Out.Last(), outB/1000, outPk), fs, false, x0, y, 0, colText)
	drawText(dst, fmt.Sprintf("cmdrate %d/s", c.Cfg.CmdRate), fs, false, x0+pw, y, 2, colDim)
	if level >= 3 {
		y += lh
		drawText(dst, fmt.Sprintf("loss %4.1f%%  choke %4.1f%%  jitter %5.1f ms  cmd loss %2.0f%%",
			c.Net.Loss.LossPct(), c.Net.ChokePct(), c.Net.Jitter.Ms(), c.Net.CmdLossPct), fs, false, x0, y, 0, colText)
		y += lh
		drawText(dst, fmt.Sprintf("sv tick %5.0f us ±%3.0f   pred errors %d (last %.2f u)   graph %.0f us",
			c.Net.TickUs, c.Net.TickStdUs, c.Stats.Corrections, c.Stats.LastErrorDist, g.netGraphUs), fs, false, x0, y, 0, colText)
	}
}
