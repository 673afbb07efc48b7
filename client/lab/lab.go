package lab

import (
	"errors"
	"time"

	"tickshot/client/netclient"
)

// Config starts a lab.
type Config struct {
	Map    string // map name ("" : the preset's, else "lab")
	Seed   uint64 // drives the links' jitter and loss and the bots
	Preset string // a preset's name (Presets), "" for none
	Knobs  Knobs  // used when Preset is ""
	// Drivers of P1 and P2 (the preset's when Preset is set).
	Drivers [2]Driver
}

// Lab is one running lab: a server and two clients on one virtual clock.
type Lab struct {
	cfg Config
	now time.Duration
}

// New starts a lab: the server, both clients joined, at virtual time 0.
func New(cfg Config) (*Lab, error) { return nil, errors.New("lab: not built yet") }

// Advance runs the lab for dt of virtual time (the window passes real
// time × slow motion; 0 when paused).
func (l *Lab) Advance(dt time.Duration) {}

// StepTick runs the lab to the server's next tick (single-step).
func (l *Lab) StepTick() {}

// Now is the virtual time since the lab started.
func (l *Lab) Now() time.Duration { return l.now }

// SetInput sets the held input of a keyboard-driven seat (its Pressed
// buttons are latched until a command carries them).
func (l *Lab) SetInput(seat int, in netclient.Input) {}

// Knobs returns the live settings; SetKnobs changes them (a tick-rate
// change restarts the lab).
func (l *Lab) Knobs() Knobs                 { return DefaultKnobs() }
func (l *Lab) SetKnobs(k Knobs)             {}
func (l *Lab) Driver(seat int) Driver       { return DriveKeyboard }
func (l *Lab) SetDriver(seat int, d Driver) {}

// Frame returns the present Frame; History the kept Frames, oldest first
// (the last HistorySeconds, one per client frame), for scrubbing.
func (l *Lab) Frame() Frame     { return Frame{} }
func (l *Lab) History() []Frame { return nil }

// Preset returns the running preset (nil for none).
func (l *Lab) Preset() *Preset { return nil }

// Preset is one experiment: knobs, drivers and a scripted run that shows a
// phenomenon within Duration.
type Preset struct {
	Name     string // e.g. "behind-wall"
	Title    string // e.g. "Shot behind the wall"
	Explain  string // two or three sentences shown in the lab
	Duration time.Duration
}

// Presets lists the experiments in menu order.
func Presets() []*Preset { return nil }
