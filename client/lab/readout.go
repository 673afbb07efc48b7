package lab

import (
	"math"
	"time"
)

// Readout is a Frame's figures as the browser page exposes them
// (window.tickshotLab) and tests read them: JSON, world units, ms.
type Readout struct {
	AtMs   float64       `json:"at_ms"`  // virtual time since the lab started
	RunMs  float64       `json:"run_ms"` // since the run (preset) began; 0 while the seats join
	Preset string        `json:"preset,omitempty"`
	Panes  [3]PaneFigure `json:"panes"` // player 1, server, player 2
	Shots  []ShotFigure  `json:"shots"` // the shots drawn now, oldest first
}

// PaneFigure is one pane's figures.
type PaneFigure struct {
	Title string `json:"title"`
	// A player's pane.
	RTTMs     int     `json:"rtt_ms,omitempty"`
	InterpMs  float64 `json:"interp_ms,omitempty"`
	Unacked   int     `json:"unacked"`
	LastAcked uint32  `json:"last_acked,omitempty"`
	GapUnits  float64 `json:"gap_units"` // the other player drawn against where the server has it
	GapMs     float64 `json:"gap_ms"`
	SelfX     float64 `json:"self_x"`
	SelfY     float64 `json:"self_y"`
	OtherX    float64 `json:"other_x"`
	OtherY    float64 `json:"other_y"`
	// The server's pane.
	Tick     uint32   `json:"tick,omitempty"`
	LastCmds []uint32 `json:"last_cmds,omitempty"` // each seat's newest command received
	CmdQueue []int    `json:"cmd_queue,omitempty"` // each seat's commands waiting
}

// ShotFigure is one shot's figures.
type ShotFigure struct {
	N         int     `json:"n"`
	Shooter   int     `json:"shooter"` // 1 or 2
	Verdict   Verdict `json:"verdict"`
	RewindMs  float64 `json:"rewind_ms"`
	RewindErr float64 `json:"rewind_error"`
}

// round2 rounds to 1/100.
func round2(v float64) float64 { return math.Round(v*100) / 100 }

// Readout returns f's figures; start is the run's start (Lab.Started).
func (f Frame) Readout(preset *Preset, start time.Duration) Readout {
	r := Readout{AtMs: ms(f.At)}
	if start > 0 { // 0: the run has not begun (Lab.Started)
		r.RunMs = ms(max(f.At-start, 0))
	}
	if preset != nil {
		r.Preset = preset.Name
	}
	for i, s := range f.Seats {
		p := &r.Panes[2*i]
		p.Title = [2]string{"Player 1", "Player 2"}[i]
		p.RTTMs = s.Knobs.Up.LagMs + s.Knobs.Down.LagMs
		p.InterpMs, p.Unacked, p.LastAcked = s.View.InterpMs, s.Unacked, s.LastAcked
		p.GapUnits, p.GapMs = round2(s.GapUnits), round2(s.GapMs)
		p.SelfX, p.SelfY, p.OtherX, p.OtherY = round2(s.SelfX), round2(s.SelfY), round2(s.OtherDrawnX), round2(s.OtherDrawnY)
	}
	sp := &r.Panes[1]
	sp.Title, sp.Tick = "Server", f.Server.Tick
	sp.LastCmds, sp.CmdQueue = make([]uint32, 2), make([]int, 2)
	for _, p := range f.Server.Players {
		if p.Seat >= 0 {
			sp.LastCmds[p.Seat], sp.CmdQueue[p.Seat] = p.LastCmd, p.CmdQueue
		}
	}
	r.Shots = []ShotFigure{}
	for _, sh := range f.Shots {
		r.Shots = append(r.Shots, ShotFigure{N: sh.N, Shooter: sh.Shooter + 1, Verdict: sh.Verdict,
			RewindMs: round2(sh.RewindMs), RewindErr: round2(sh.RewindErr)})
	}
	return r
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
