// Package lab is the lag lab (issue 20, docs/LAB.md): one process runs the
// real server (package server, in process) and two real clients (package
// netclient) over in-memory links, each way with its own latency, jitter
// and loss, all on one virtual clock. Nothing here draws: the window
// (client.RunLab) and the headless tests read Frames.
//
// Everything is deterministic: the links deliver on the virtual clock from
// a seeded generator, the server steps when its tick is due, the clients
// run their Frames at a fixed frame rate, and seats are driven by a script,
// a bot brain or recorded keyboard input. The same Config and inputs give
// the same positions, shots and verdicts (Lab.Hash).
package lab

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
)

// Seats: player 1 and player 2. The server is the third pane.
const (
	P1 = 0
	P2 = 1
)

// Link is one direction of a seat's network: latency, jitter and loss.
type Link struct {
	LagMs    int     // one-way delay, ms
	JitterMs int     // extra delay, uniform in [0, JitterMs], ms
	LossPct  float64 // datagrams (snapshots, usercmds) dropped, percent; reliable frames are never lost
}

// ClientKnobs are one seat's live settings (Source's cvar names).
type ClientKnobs struct {
	Up, Down    Link    // client→server and server→client; RTT = Up.LagMs + Down.LagMs
	UpdateRate  int     // cl_updaterate, snapshots/s
	CmdRate     int     // cl_cmdrate, command packets/s
	InterpMs    int     // cl_interp, ms
	InterpRatio float64 // cl_interp_ratio
	CmdBackup   int     // cl_cmdbackup
	Predict     bool    // cl_predict: the own player moves at once
	Reconcile   bool    // replay unacknowledged commands on the server's state (Gambetta)
	Interpolate bool    // cl_interpolate: others drawn between snapshots, lerp behind
	Extrapolate bool    // past the newest snapshot (cl_extrapolate); with Interpolate off: others drawn at the present (dead reckoning)
	Smooth      bool    // cl_smooth: prediction errors decay instead of snapping
}

// ServerKnobs are the server's live settings.
type ServerKnobs struct {
	TickRate    int     // sv_tickrate, ticks/s (fixed for a Lab: SetKnobs keeps it; a new rate is a new Lab)
	Unlag       bool    // sv_unlag: lag compensation
	MaxUnlag    float64 // sv_maxunlag, s
	MutualKills bool    // sv_mutualkills
}

// ServerCvars are the server knobs' cvar names, as SetServerCvar takes them.
var ServerCvars = []string{"sv_unlag", "sv_maxunlag", "sv_mutualkills"}

// SetServerCvar sets a server knob by its cvar name (ServerCvars) from
// text: 0 or 1 for a switch, seconds for sv_maxunlag (0..1). The error
// names what is wrong.
func (k *Knobs) SetServerCvar(name, value string) error {
	switch name {
	case "sv_unlag", "sv_mutualkills":
		b, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%s takes 0 or 1, not %q", name, value)
		}
		if name == "sv_unlag" {
			k.Server.Unlag = b
		} else {
			k.Server.MutualKills = b
		}
	case "sv_maxunlag":
		v, err := strconv.ParseFloat(value, 64)
		if err != nil || !(v >= 0 && v <= 1) {
			return fmt.Errorf("sv_maxunlag takes seconds 0..1, not %q", value)
		}
		k.Server.MaxUnlag = v
	default:
		return fmt.Errorf("the lab has no server knob %q (it has %s)", name, strings.Join(ServerCvars, ", "))
	}
	return nil
}

// Knobs are every live setting of the lab.
type Knobs struct {
	Seats  [2]ClientKnobs
	Server ServerKnobs
}

// DefaultKnobs are the game's defaults with 60 ms of RTT on both seats.
func DefaultKnobs() Knobs {
	c := ClientKnobs{Up: Link{LagMs: 30}, Down: Link{LagMs: 30}, UpdateRate: 20, CmdRate: 64,
		InterpMs: 100, InterpRatio: 2, CmdBackup: 2, Predict: true, Reconcile: true, Interpolate: true,
		Extrapolate: true, Smooth: true}
	return Knobs{Seats: [2]ClientKnobs{c, c}, Server: ServerKnobs{TickRate: 64, Unlag: true, MaxUnlag: 0.5}}
}

// Driver says who plays a seat.
type Driver uint8

const (
	DriveKeyboard Driver = iota // SetInput (the window's keys)
	DriveBot                    // game.Bot's brain
	DriveScript                 // the preset's scripted path
	DriveIdle                   // stands still
)

// FrameRate is the clients' frame rate on the virtual clock, frames/s.
const FrameRate = 60

// HistorySeconds is how much of the past Lab keeps as Frames (scrubbing).
const HistorySeconds = 10

// SeatFrame is one client as its pane draws it at one frame.
type SeatFrame struct {
	View netclient.View // the client's own View: what the game's renderer draws
	// The other seat's player: where this client draws it (interpolated),
	// where the server has it now (the ghost), and the gap between them in
	// world units and in ms of the other player's own motion.
	OtherID                    uint16
	OtherDrawnX, OtherDrawnY   float64
	OtherServerX, OtherServerY float64
	OtherSeen                  bool // this client draws the other player
	GapUnits, GapMs            float64
	// The own player: predicted (drawn) against the last acknowledged
	// server state.
	SelfX, SelfY   float64
	AckedX, AckedY float64
	Unacked        int    // commands made that the server has not acknowledged
	LastAcked      uint32 // the newest command the server ran
	Knobs          ClientKnobs
}

// ServerPlayer is one player as the server has it at its current tick, with
// what the server knows of the seat that plays it.
type ServerPlayer struct {
	ID          uint16
	Name        string
	Seat        int     // P1, P2, or -1 (a bot)
	X, Y, Angle float64 // world units, radians
	Alive       bool
	Health      int
	LastCmd     uint32 // newest command received from its client
	CmdQueue    int    // commands waiting to run
	// Drawn holds, for each other player, where this client is drawing it
	// (the server's mirror of the client's interpolation at the render
	// time of its newest command); empty for a bot.
	Drawn    []game.Point
	DrawnIDs []uint16
}

// ServerFrame is the server's authoritative world at its current tick.
type ServerFrame struct {
	Tick        uint32
	TickRate    int
	Map         *game.Map
	Players     []ServerPlayer
	Projectiles []game.Point
}

// Verdict is how the server judged a shot: one of the constants below; a
// refused or clamped shot that still hit reads "refused (hit)" or
// "clamped (hit)" (Shot.Hit says whether any shot hit).
type Verdict string

const (
	VerdictHit     Verdict = "hit"
	VerdictMiss    Verdict = "miss"
	VerdictRefused Verdict = "refused" // the claimed render time was not credible
	VerdictClamped Verdict = "clamped" // the rewind was limited (sv_maxunlag)
)

// Shot is one hitscan shot of a seat, seen from the three seats; N links
// its drawings by colour. Positions are world units.
type Shot struct {
	N        int           // 1, 2, ... in the order the server judged them
	Shooter  int           // seat
	Cmd      uint32        // the shooter's command number
	Tick     uint32        // the server tick that ran it
	At       time.Duration // virtual time since the lab started, when the server judged it
	Victim   int           // seat of the player traced against, -1 when none
	TargetID uint16        // that player's id (0: none)
	// Shooter's pane: the tracer and where it drew the target.
	FromX, FromY, ToX, ToY float64
	SawX, SawY             float64
	SawOK                  bool // the shooter drew the target
	// Server's pane: the target's rewound hitbox it traced against, the
	// present one, and the trace's end.
	RewoundX, RewoundY float64
	PresentX, PresentY float64
	EndX, EndY         float64
	RewindMs           float64
	Verdict            Verdict
	Hit                bool
	RewindErr          float64 // world units between SawX/Y and RewoundX/Y (0: exact)
	// Victim's pane at the moment the server judged it: where the victim
	// stood on its own screen and where it drew the shooter.
	VictimX, VictimY                     float64
	VictimSawShooterX, VictimSawShooterY float64
	VictimSawOK                          bool // the victim's client drew the shooter
}

// Frame is everything the three panes draw at one moment.
type Frame struct {
	At     time.Duration // virtual time since the lab started
	Seats  [2]SeatFrame
	Server ServerFrame
	Shots  []Shot // shots judged in the last ShotShowTime, newest last
}

// ShotShowTime is how long a shot stays drawn.
const ShotShowTime = 2 * time.Second
