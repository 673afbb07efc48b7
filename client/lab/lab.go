package lab

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/server"
)

// Config starts a lab.
type Config struct {
	Map    string // map name ("": the preset's, else DefaultMap)
	Seed   uint64 // drives the links' jitter and loss, the spawns and the bots (0: 1)
	Preset string // a preset's Name (Presets), "" for none
	Knobs  Knobs  // used when Preset is "" (zero: DefaultKnobs)
	// Drivers of P1 and P2 when Preset is "" (a preset sets its own).
	Drivers [2]Driver
	// Tweak, when set, changes the preset's (or Knobs') settings before
	// the lab starts: the same experiment with one knob turned.
	Tweak func(*Knobs)
}

// DefaultMap is the lab's map: a room with a pillar to hide behind.
const DefaultMap = "lab"

// epoch is virtual time 0 as the clients' and the server's clocks see it.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// step is the virtual clock's resolution.
const step = time.Millisecond

// Lab is one running lab: the real server (server.Local) and two real
// clients (netclient) on one virtual clock, each client over its own link.
// It is not safe for concurrent use: one goroutine drives it (the window's
// Update, a test).
type Lab struct {
	cfg    Config
	knobs  Knobs
	preset *Preset
	now    time.Duration
	owed   time.Duration // virtual time Advance was given but not yet run: under one step
	wire   wire
	srv    *server.Local
	seats  seatPair
	tickN  uint64        // server ticks run
	start  time.Duration // when both seats had joined and the run began (0 before)
	frames ring          // the last HistorySeconds of Frames
	judged judgements    // every shot judged, the kills and hits
	tape   tape          // what was done to the run (record.go)
	// initial are the knobs the run started with (Save).
	initial Knobs
	err     error
}

// Event is something the server did to a seat's player (for presets' checks).
type Event struct {
	At     time.Duration // virtual time since the lab started
	Tick   uint32        // the server tick it happened in
	Kind   string        // "kill", "hit"
	By, To int           // seats (-1: not a seat)
}

// New starts a lab: the server and both clients, joining over their links
// at virtual time 0. The run (a preset's script) begins once both have
// their first snapshot: Started.
func New(cfg Config) (*Lab, error) {
	if cfg.Seed == 0 {
		// server.Config reads seed 0 as "seed from the wall clock": the
		// spawns and respawns would differ from run to run, and a saved
		// run would not replay.
		cfg.Seed = 1
	}
	l := &Lab{cfg: cfg}
	if cfg.Preset != "" {
		p := PresetByName(cfg.Preset)
		if p == nil {
			return nil, fmt.Errorf("no lab preset %q (presets: %s)", cfg.Preset, presetNames())
		}
		l.preset = p
		l.knobs = p.Knobs
		cfg.Drivers = p.Drivers
		if cfg.Map == "" {
			cfg.Map = p.Map
		}
	} else {
		l.knobs = cfg.Knobs
		if l.knobs.Server.TickRate == 0 {
			l.knobs = DefaultKnobs()
		}
	}
	if cfg.Map == "" {
		cfg.Map = DefaultMap
	}
	if cfg.Tweak != nil {
		cfg.Tweak(&l.knobs)
	}
	if err := l.knobs.check(); err != nil {
		return nil, err
	}
	l.initial = l.knobs
	l.cfg = cfg
	l.wire = wire{now: &l.now, epoch: epoch}
	scfg := server.Config{Map: cfg.Map, TickRate: l.knobs.Server.TickRate, MaxPlayers: 4, Seed: cfg.Seed,
		Hostname: "lab", Cvars: [][2]string{{"sv_showimpacts", "1"}, {"mp_spawnprotection", "0"},
			{"mp_timelimit", "0"}, {"mp_fraglimit", "0"}}}
	srv, err := server.NewLocal(scfg)
	if err != nil {
		return nil, err
	}
	l.srv = srv
	l.applyServerKnobs()
	names := [2]string{"player1", "player2"}
	for i := range l.seats {
		s := &seat{i: i, driver: cfg.Drivers[i], bot: game.NewBot(cfg.Seed*2 + uint64(i) + 1)}
		k := &l.knobs.Seats[i]
		s.up, s.down = k.Up, k.Down
		ce, se := newLink(&l.wire, &s.up, &s.down, cfg.Seed*4+uint64(i))
		s.link = ce
		srv.Serve(se)
		s.join = netclient.Begin(ce, clientConfig(names[i], *k), l.clock)
		l.seats[i] = s
	}
	return l, nil
}

// clock is the clients' real time: the virtual clock.
func (l *Lab) clock() time.Time { return epoch.Add(l.now) }

// Err returns why the lab stopped (a client refused or disconnected), or nil.
func (l *Lab) Err() error { return l.err }

// Now is the virtual time since the lab started.
func (l *Lab) Now() time.Duration { return l.now }

// Started is the virtual time the run began (both seats joined and
// placed); 0 while they are joining.
func (l *Lab) Started() time.Duration { return l.start }

// RunTime is the virtual time since the run began.
func (l *Lab) RunTime() time.Duration {
	if l.start == 0 {
		return 0
	}
	return l.now - l.start
}

// Advance runs the lab for dt of virtual time (the window passes real
// time × slow motion; nothing when paused). The clock moves in whole
// steps (1 ms): what is left of dt is carried to the next call, so that
// calls of 1/60 s at 0.1× (1.67 ms each) run the lab at 0.1×, not 0.06×.
func (l *Lab) Advance(dt time.Duration) {
	l.owed += dt
	for l.owed >= step && l.err == nil {
		l.owed -= step
		l.step()
	}
}

// StepTick runs the lab to just after the server's next tick (single-step).
func (l *Lab) StepTick() {
	n := l.tickN
	for l.tickN == n && l.err == nil {
		l.step()
	}
}

// RunFor runs the lab until the run (Started) has lasted d: for tests and
// --screenshot. It returns Err, or an error when the seats have not both
// joined within JoinTimeout of virtual time.
func (l *Lab) RunFor(d time.Duration) error {
	for l.err == nil && (l.start == 0 || l.now-l.start < d) {
		if l.start == 0 && l.now >= JoinTimeout {
			return fmt.Errorf("lab: the seats did not join within %v", JoinTimeout)
		}
		l.step()
	}
	return l.err
}

// JoinTimeout is how long, virtual time, RunFor waits for both seats to
// join and have their first snapshot.
const JoinTimeout = 10 * time.Second

// tickAt is the virtual time of server tick n.
func (l *Lab) tickAt(n uint64) time.Duration {
	return time.Duration(n) * time.Second / time.Duration(l.knobs.Server.TickRate)
}

// frameAt is the virtual time of client frame n.
func frameAt(n uint64) time.Duration { return time.Duration(n) * time.Second / FrameRate }

// step advances the virtual clock by one millisecond: frames due arrive,
// the server ticks when its tick is due, then the clients run their frames.
func (l *Lab) step() {
	l.now += step
	l.wire.deliver()
	if l.now >= l.tickAt(l.tickN+1) {
		l.tickN++
		l.srv.Step(l.clock())
		l.judged.take(l.srv, l.seats, l.now)
	}
	if l.now >= frameAt(l.seats[0].frameN+1) {
		for _, s := range l.seats {
			s.frameN++
			if err := s.frame(l); err != nil && l.err == nil {
				l.err = fmt.Errorf("lab: player %d: %w", s.i+1, err)
			}
		}
		if l.start == 0 && l.seats[0].ready() && l.seats[1].ready() {
			l.begin()
		}
		l.frames.add(l.buildFrame())
	}
	l.tape.due(l)
}

// begin starts the run: the preset places the players.
func (l *Lab) begin() {
	l.start = l.now
	if l.preset != nil {
		for i, s := range l.seats {
			pl := l.preset.Place[i]
			_ = l.srv.Place(s.id(), pl.X, pl.Y, pl.Angle, pl.Health)
		}
	}
}

// Knobs returns the live settings.
func (l *Lab) Knobs() Knobs { return l.knobs }

// SetKnobs changes the live settings: the clients' at once (a rate change
// is sent to the server), the links' for frames sent from now on, the
// server's cvars at its next tick. A tick-rate change needs a new lab
// (New with the Knobs): it is ignored here.
func (l *Lab) SetKnobs(k Knobs) {
	k.Server.TickRate = l.knobs.Server.TickRate
	l.tape.log = append(l.tape.log, tapeEntry{At: l.now, Knobs: &k})
	l.knobs = k
	for i, s := range l.seats {
		s.up, s.down = k.Seats[i].Up, k.Seats[i].Down
		if s.c != nil {
			s.c.SetConfig(clientConfig(s.c.View().Config.Name, k.Seats[i]))
		} else {
			s.knobsChanged = true // joining: the client takes them once it has joined (seat.frame)
		}
	}
	l.applyServerKnobs()
}

func (l *Lab) applyServerKnobs() {
	k := l.knobs.Server
	b := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	l.srv.Exec("sv_unlag " + b(k.Unlag))
	l.srv.Exec(fmt.Sprintf("sv_maxunlag %g", k.MaxUnlag))
	l.srv.Exec("sv_mutualkills " + b(k.MutualKills))
}

// clientConfig is netclient's Config for a seat's knobs.
func clientConfig(name string, k ClientKnobs) netclient.Config {
	cfg := netclient.DefaultConfig(name)
	cfg.UpdateRate, cfg.CmdRate, cfg.InterpMs, cfg.InterpRatio, cfg.CmdBackup = k.UpdateRate, k.CmdRate, k.InterpMs, k.InterpRatio, k.CmdBackup
	cfg.Predict, cfg.NoReconcile, cfg.Interpolate, cfg.Smooth = k.Predict, !k.Reconcile, k.Interpolate, k.Smooth
	cfg.DeadReckon = k.Extrapolate && !k.Interpolate
	if !k.Extrapolate {
		cfg.ExtrapMs = 0
	}
	cfg.Timeout = time.Hour // the virtual clock may be paused or stepped
	return cfg
}

// Driver returns who plays a seat; SetDriver changes it.
func (l *Lab) Driver(seat int) Driver { return l.seats[seat].driver }

// SetDriver changes who plays a seat.
func (l *Lab) SetDriver(seat int, d Driver) {
	l.tape.log = append(l.tape.log, tapeEntry{At: l.now, Seat: seat, Driver: &d})
	l.seats[seat].driver = d
}

// SetInput sets the held input of a keyboard-driven seat (its Pressed
// buttons are latched until a command carries them).
func (l *Lab) SetInput(seat int, in netclient.Input) {
	if s := l.seats[seat]; s.input == in && in.Pressed == 0 {
		return // nothing changed: not worth a log entry
	}
	rec := in
	l.tape.log = append(l.tape.log, tapeEntry{At: l.now, Seat: seat, Input: &rec})
	s := l.seats[seat]
	s.latched |= in.Pressed
	in.Pressed = 0
	s.input = in
}

// Preset returns the running preset (nil for none).
func (l *Lab) Preset() *Preset { return l.preset }

// Client returns a seat's client (nil while it joins).
func (l *Lab) Client(seat int) *netclient.Client { return l.seats[seat].c }

// Shots returns every shot the server judged, oldest first.
func (l *Lab) Shots() []Shot { return l.judged.shots }

// Events returns the kills and hits between the seats, oldest first.
func (l *Lab) Events() []Event { return l.judged.events }

// Frame returns the present Frame.
func (l *Lab) Frame() Frame {
	if f, ok := l.frames.last(); ok {
		return f
	}
	return Frame{}
}

// History returns the kept Frames, oldest first: the last HistorySeconds,
// one per client frame (scrubbing).
func (l *Lab) History() []Frame { return l.frames.all() }

// rendered finds player id among v's Rendered.
func rendered(v netclient.View, id uint16) (netclient.RenderedEntity, bool) {
	for _, e := range v.Rendered {
		if e.ID == id {
			return e, true
		}
	}
	return netclient.RenderedEntity{}, false
}

// Hash is a digest of the run so far: every kept Frame's positions and
// every shot and its verdict. Two runs of the same Config and inputs have
// the same Hash (the determinism test).
func (l *Lab) Hash() [32]byte {
	h := sha256.New()
	f64 := func(v float64) { _ = binary.Write(h, binary.LittleEndian, math.Float64bits(v)) }
	for _, f := range l.frames.all() {
		f64(float64(f.At))
		for _, s := range f.Seats {
			f64(s.SelfX)
			f64(s.SelfY)
			f64(s.OtherDrawnX)
			f64(s.OtherDrawnY)
		}
		for _, p := range f.Server.Players {
			f64(p.X)
			f64(p.Y)
		}
	}
	for _, s := range l.judged.shots {
		fmt.Fprintf(h, "%d %d %d %s %v", s.Shooter, s.Cmd, s.Tick, s.Verdict, s.Hit)
		f64(s.RewoundX)
		f64(s.RewoundY)
		f64(s.EndX)
		f64(s.EndY)
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}
