package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/shared"
)

// A lab run is recorded as what was done to it, not as what it drew: the
// lab is deterministic, so its Config and the inputs, knob and driver
// changes, each at its virtual time, replay it exactly (Open). A run's
// file is JSON (FileFormat):
//
//	{"format": "tickshot-lab", "version": 1, "preset": "behind-wall", "seed": 1, "map": "lab",
//	 "knobs": {...}, "drivers": [2, 2], "until_ns": 5000000000,
//	 "log": [{"at_ns": 1234000000, "seat": 0, "input": {...}}, {"at_ns": ..., "knobs": {...}}]}
//
// Reopened, it runs to until_ns and keeps the last HistorySeconds as any
// run does: the last 10 s can be scrubbed and watched from all three seats.

// FileFormat and FileVersion identify a lab file.
const (
	FileFormat  = "tickshot-lab"
	FileVersion = 1
)

// MaxFileBytes bounds a lab file that Open reads; MaxFileRun the virtual
// time it may run for.
const (
	MaxFileBytes = 16 << 20
	MaxFileRun   = time.Hour
)

// tape is what was done to a lab, in order (Lab.SetInput, SetKnobs,
// SetDriver), and, for a reopened run, what is still to be replayed.
type tape struct {
	log    []tapeEntry
	replay []tapeEntry
}

// tapeEntry is one change at virtual time At (applied after the step that
// ended at At).
type tapeEntry struct {
	At     time.Duration    `json:"at_ns"`
	Seat   int              `json:"seat"`
	Input  *netclient.Input `json:"input,omitempty"`
	Knobs  *Knobs           `json:"knobs,omitempty"`
	Driver *Driver          `json:"driver,omitempty"`
}

// file is a lab file's JSON.
type file struct {
	Format  string        `json:"format"`
	Version int           `json:"version"`
	Preset  string        `json:"preset"`
	Seed    uint64        `json:"seed"`
	Map     string        `json:"map"`
	Knobs   Knobs         `json:"knobs"`
	Drivers [2]Driver     `json:"drivers"`
	Until   time.Duration `json:"until_ns"`
	Log     []tapeEntry   `json:"log"`
}

// due applies the entries recorded at the present virtual time (step).
func (t *tape) due(l *Lab) {
	for len(t.replay) > 0 && t.replay[0].At <= l.now {
		e := t.replay[0]
		t.replay = t.replay[1:]
		switch {
		case e.Input != nil:
			l.SetInput(e.Seat, *e.Input)
		case e.Knobs != nil:
			l.SetKnobs(*e.Knobs)
		case e.Driver != nil:
			l.SetDriver(e.Seat, *e.Driver)
		}
	}
}

// Save writes the run so far as a lab file that Open replays. A run
// longer than MaxFileRun, or whose file would pass MaxFileBytes, is not
// written (Open would refuse it): the error says which.
func (l *Lab) Save(w io.Writer) error {
	if l.now > MaxFileRun {
		return fmt.Errorf("the run has lasted %v: a lab file holds at most %v", l.now.Round(time.Second), MaxFileRun)
	}
	f := file{Format: FileFormat, Version: FileVersion, Seed: l.cfg.Seed, Map: l.cfg.Map, Knobs: l.initial,
		Drivers: l.cfg.Drivers, Until: l.now, Log: l.tape.log}
	if l.preset != nil {
		f.Preset = l.preset.Name
	}
	b, err := json.Marshal(&f)
	if err != nil {
		return err
	}
	if len(b)+1 > MaxFileBytes {
		return fmt.Errorf("the run's file would take %d bytes: a lab file holds at most %d", len(b)+1, MaxFileBytes)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Open reads a lab file (Save) and replays it to its end: the lab is then
// where it was saved, its last HistorySeconds kept. The errors say what is
// wrong with the file.
func Open(r io.Reader) (*Lab, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFileBytes {
		return nil, fmt.Errorf("lab file larger than %d bytes", MaxFileBytes)
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("not a lab file: %w", err)
	}
	if f.Format != FileFormat {
		return nil, errors.New("not a lab file (no \"format\": \"" + FileFormat + "\")")
	}
	if f.Version != FileVersion {
		return nil, fmt.Errorf("lab file version %d, this build reads %d", f.Version, FileVersion)
	}
	if f.Until < 0 || f.Until > MaxFileRun {
		return nil, fmt.Errorf("lab file runs for %v, at most %v", f.Until, MaxFileRun)
	}
	if err := f.Knobs.check(); err != nil {
		return nil, fmt.Errorf("lab file: %w", err)
	}
	for _, d := range f.Drivers {
		if err := d.check(); err != nil {
			return nil, fmt.Errorf("lab file: %w", err)
		}
	}
	var last time.Duration
	for i, e := range f.Log {
		if e.At < last || e.At > f.Until || e.Seat < 0 || e.Seat > 1 {
			return nil, fmt.Errorf("lab file: log entry %d out of order or range", i)
		}
		if e.Knobs != nil {
			if err := e.Knobs.check(); err != nil {
				return nil, fmt.Errorf("lab file: log entry %d: %w", i, err)
			}
		}
		if e.Driver != nil {
			if err := e.Driver.check(); err != nil {
				return nil, fmt.Errorf("lab file: log entry %d: %w", i, err)
			}
		}
		last = e.At
	}
	k := f.Knobs
	l, err := New(Config{Preset: f.Preset, Seed: f.Seed, Map: f.Map, Drivers: f.Drivers, Tweak: func(kn *Knobs) { *kn = k }})
	if err != nil {
		return nil, err
	}
	l.cfg.Drivers = f.Drivers
	for i := range l.seats {
		l.seats[i].driver = f.Drivers[i]
	}
	l.tape.replay = f.Log
	l.tape.due(l) // what was done before the first step
	for l.now < f.Until && l.err == nil {
		l.step()
	}
	return l, l.err
}

// check refuses knobs outside what the game takes: the tick rate
// (shared.MinTickRate..MaxTickRate), a link's lag (0..1000 ms), jitter
// (0..500 ms) and loss (0..100 %), the rates and interp the server and its
// Hello accept (proto's limits), cl_cmdbackup within one Cmds message,
// sv_maxunlag 0..1 s. A lab file's knobs are hostile until checked.
func (k Knobs) check() error {
	if k.Server.TickRate < shared.MinTickRate || k.Server.TickRate > shared.MaxTickRate {
		return fmt.Errorf("tick rate %d outside %d..%d", k.Server.TickRate, shared.MinTickRate, shared.MaxTickRate)
	}
	if !(k.Server.MaxUnlag >= 0 && k.Server.MaxUnlag <= 1) {
		return fmt.Errorf("sv_maxunlag %g s outside 0..1", k.Server.MaxUnlag)
	}
	for i, s := range k.Seats {
		for _, ln := range []Link{s.Up, s.Down} {
			if ln.LagMs < 0 || ln.LagMs > 1000 || ln.JitterMs < 0 || ln.JitterMs > 500 || !(ln.LossPct >= 0 && ln.LossPct <= 100) {
				return fmt.Errorf("player %d: link %+v out of range", i+1, ln)
			}
		}
		switch {
		case s.UpdateRate < proto.MinUpdateRate || s.UpdateRate > shared.MaxTickRate:
			return fmt.Errorf("player %d: cl_updaterate %d outside %d..%d", i+1, s.UpdateRate, proto.MinUpdateRate, shared.MaxTickRate)
		case s.CmdRate < proto.MinCmdRate || s.CmdRate > shared.MaxTickRate:
			return fmt.Errorf("player %d: cl_cmdrate %d outside %d..%d", i+1, s.CmdRate, proto.MinCmdRate, shared.MaxTickRate)
		case s.InterpMs < 0 || s.InterpMs > proto.MaxInterpMs:
			return fmt.Errorf("player %d: cl_interp %d ms outside 0..%d", i+1, s.InterpMs, proto.MaxInterpMs)
		case !(s.InterpRatio >= 0 && s.InterpRatio <= proto.MaxInterpRatio):
			return fmt.Errorf("player %d: cl_interp_ratio %g outside 0..%d", i+1, s.InterpRatio, proto.MaxInterpRatio)
		case s.CmdBackup < 0 || s.CmdBackup >= proto.MaxCmdsPerMsg:
			return fmt.Errorf("player %d: cl_cmdbackup %d outside 0..%d", i+1, s.CmdBackup, proto.MaxCmdsPerMsg-1)
		}
	}
	return nil
}

// check refuses a driver that is none of the Drive constants.
func (d Driver) check() error {
	if d > DriveIdle {
		return fmt.Errorf("driver %d unknown", d)
	}
	return nil
}
