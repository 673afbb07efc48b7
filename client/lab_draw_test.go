//go:build !headless

package client

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/lab"
	"tickshot/client/netclient"
	"tickshot/game"
)

// labTestFrame is a lab.Frame made by hand on the range map: player 1 at
// the left shooting player 2, who runs right; shot #1 hit after a rewind
// of 80 ms.
func labTestFrame(t *testing.T) lab.Frame {
	t.Helper()
	m, err := game.LoadMap("range")
	if err != nil {
		t.Fatal(err)
	}
	seat := func(id, other uint16, x, y, ox, oy float64) lab.SeatFrame {
		return lab.SeatFrame{View: netclient.View{ID: id, TickRate: 64, Map: m, HaveSnapshot: true, CommandNumber: 230, InterpMs: 100,
			Rendered: []netclient.RenderedEntity{{ID: other, X: ox, Y: oy, Alive: true, Health: 100}}},
			OtherID: other, OtherDrawnX: ox, OtherDrawnY: oy, OtherServerX: ox + 40, OtherServerY: oy, OtherSeen: true,
			GapUnits: 40, GapMs: 143, SelfX: x, SelfY: y, AckedX: x - 12, AckedY: y, Unacked: 4, LastAcked: 226,
			Knobs: lab.DefaultKnobs().Seats[0]}
	}
	return lab.Frame{At: 4200 * time.Millisecond,
		Seats: [2]lab.SeatFrame{seat(1, 2, 250, 384, 640, 300), seat(2, 1, 700, 300, 240, 384)},
		Server: lab.ServerFrame{Tick: 269, TickRate: 64, Map: m, Players: []lab.ServerPlayer{
			{ID: 1, Seat: lab.P1, X: 252, Y: 384, Alive: true, Health: 100, LastCmd: 228, CmdQueue: 1,
				Drawn: []game.Point{{X: 640, Y: 300}}, DrawnIDs: []uint16{2}},
			{ID: 2, Seat: lab.P2, X: 700, Y: 300, Alive: true, Health: 75, LastCmd: 229, CmdQueue: 2,
				Drawn: []game.Point{{X: 240, Y: 384}}, DrawnIDs: []uint16{1}}}},
		Shots: []lab.Shot{{N: 1, Shooter: lab.P1, Victim: lab.P2, TargetID: 2, FromX: 250, FromY: 384, ToX: 640, ToY: 300,
			SawX: 640, SawY: 300, SawOK: true, VictimSawOK: true, RewoundX: 640, RewoundY: 300, PresentX: 700, PresentY: 300, EndX: 640, EndY: 300,
			RewindMs: 80, Verdict: lab.VerdictHit, Hit: true, VictimX: 690, VictimY: 300, VictimSawShooterX: 240, VictimSawShooterY: 384}},
	}
}

// TestLabPainterDrawsThreePanes draws a hand-made Frame as the lag lab's
// window does and checks the layout: three panes side by side, shot #1's
// colour in each of them (the shooter's tracer, the server's rewound box,
// the victim's own position), and a clickable cell for every knob of both
// seats and the server. TICKSHOT_KEEP_SHOT=FILE keeps the picture.
func TestLabPainterDrawsThreePanes(t *testing.T) {
	st := &labShown{W: testScreenW, H: testScreenH, f: labTestFrame(t), knobs: lab.DefaultKnobs(), now: 4200 * time.Millisecond,
		speed: 1, state: "running", preset: &lab.Preset{Name: "behind-wall", Title: "Shot behind the wall",
			Explain: "Player 2 runs behind the wall and is hit there a moment later: the server rewinds to what player 1 saw."}}
	st.knobs.Seats[lab.P2].Up.LagMs = 100
	var p labPainter
	var img *image.RGBA
	onFrame(func(*ebiten.Image) {
		dst := ebiten.NewImage(testScreenW, testScreenH)
		defer dst.Deallocate()
		p.draw(dst, st)
		img = image.NewRGBA(dst.Bounds())
		dst.ReadPixels(img.Pix)
	})
	if keep := os.Getenv("TICKSHOT_KEEP_SHOT"); keep != "" {
		if f, err := os.Create(keep); err == nil {
			_ = png.Encode(f, img)
			_ = f.Close()
		}
	}
	for i, r := range p.paneRect {
		if i > 0 && r.Min.X <= p.paneRect[i-1].Max.X {
			t.Errorf("pane %d at %v overlaps pane %d at %v", i, r, i-1, p.paneRect[i-1])
		}
		if n := countColour(img, r, labShotColour(1)); n < 20 {
			t.Errorf("pane %d shows shot #1's colour in %d pixels", i, n)
		}
	}
	knobs := 0
	for _, h := range p.ui.hits {
		if strings.HasPrefix(h.what, "knob ") {
			knobs++
		}
	}
	if want := 2*13 + 4; knobs != want {
		t.Errorf("%d knob cells, want %d", knobs, want)
	}
}

// countColour counts the pixels of img in r within 24 of c in each channel.
func countColour(img *image.RGBA, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if nearColour(img.RGBAAt(x, y), c) {
				n++
			}
		}
	}
	return n
}
