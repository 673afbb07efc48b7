package lab

import (
	"math"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
)

// seat is one of the lab's two players: its link, its client (once
// joined) and who drives it.
type seat struct {
	i        int
	driver   Driver
	bot      *game.Bot
	up, down Link // the link's live conditions (linkEnd.out points here)
	link     *linkEnd
	join     *netclient.Joining
	c        *netclient.Client
	frameN   uint64
	input    netclient.Input // DriveKeyboard: held
	latched  uint16          // DriveKeyboard: pressed since the last command
	script   scriptState
	// knobsChanged: SetKnobs ran while the seat was joining, after its
	// Hello left with the knobs of then.
	knobsChanged bool
}

// id is the seat's player id (0 before it joined).
func (s *seat) id() uint16 {
	if s.c == nil {
		return 0
	}
	return s.c.View().ID
}

// ready tells whether the seat has joined and has its first snapshot.
func (s *seat) ready() bool { return s.c != nil && s.c.View().HaveSnapshot }

// frame runs one client frame at the lab's time: what arrived is handled,
// the clock makes its commands with the driver's input, and the frame
// counts as drawn.
func (s *seat) frame(l *Lab) error {
	if s.c == nil {
		c, err := s.join.Poll()
		if err != nil || c == nil {
			return err
		}
		s.c = c
		if s.knobsChanged {
			c.SetConfig(clientConfig(c.View().Config.Name, l.knobs.Seats[s.i]))
		}
	}
	if err := s.c.Poll(); err != nil {
		return err
	}
	s.c.FrameFunc(l.clock(), func() netclient.Input { return s.think(l) })
	s.c.MarkDrawn()
	return nil
}

// think is the input of the seat's next command.
func (s *seat) think(l *Lab) netclient.Input {
	v := s.c.View()
	switch s.driver {
	case DriveKeyboard:
		in := s.input
		in.Buttons |= s.latched
		s.latched = 0
		return in
	case DriveBot:
		in := s.bot.Think(v.Map, v.TickRate, v.Predicted, v.Health, drawnHitboxes(v.Rendered))
		return netclient.Input{MoveX: in.MoveX, MoveY: in.MoveY, Angle: in.Angle, Buttons: in.Buttons}
	case DriveScript:
		if l.start == 0 || l.preset == nil || l.preset.Script == nil {
			break
		}
		return l.preset.Script(&Run{l: l, s: s, v: v}, s.i)
	}
	return netclient.Input{Angle: v.LastCommand.ViewAngle}
}

// Run is what a preset's script sees when it makes a seat's command.
type Run struct {
	l *Lab
	s *seat
	v netclient.View
}

// T is the time since the run began.
func (r *Run) T() time.Duration { return r.l.now - r.l.start }

// View is the seat's client as it is drawn now.
func (r *Run) View() netclient.View { return r.v }

// Self is the seat's own player where its screen draws it.
func (r *Run) Self() (x, y float64) { return r.v.LocalPos() }

// Other is the other seat's player where this seat's screen draws it.
func (r *Run) Other() (x, y float64, ok bool) {
	o := r.l.seats[1-r.s.i]
	e, ok := rendered(r.v, o.id())
	return e.X, e.Y, ok && e.Alive
}

// Aim is the angle from the seat's own player to (x, y), radians.
func (r *Run) Aim(x, y float64) float32 {
	sx, sy := r.Self()
	return float32(math.Atan2(y-sy, x-sx))
}

// State is the script's memory for this seat (zero at the start).
func (r *Run) State() *scriptState { return &r.s.script }

// scriptState is a script's memory for one seat.
type scriptState struct {
	Fired   bool
	FiredAt time.Duration
	N       int
}

// ring keeps the last HistorySeconds of Frames.
type ring struct {
	buf  []Frame
	head int
	n    int
}

func (r *ring) add(f Frame) {
	if r.buf == nil {
		r.buf = make([]Frame, HistorySeconds*FrameRate)
	}
	r.buf[(r.head+r.n)%len(r.buf)] = f
	if r.n < len(r.buf) {
		r.n++
	} else {
		r.head = (r.head + 1) % len(r.buf)
	}
}

func (r *ring) last() (Frame, bool) {
	if r.n == 0 {
		return Frame{}, false
	}
	return r.buf[(r.head+r.n-1)%len(r.buf)], true
}

func (r *ring) all() []Frame {
	out := make([]Frame, 0, r.n)
	for i := range r.n {
		out = append(out, r.buf[(r.head+i)%len(r.buf)])
	}
	return out
}

// buildFrame is the present moment as the three panes draw it.
func (l *Lab) buildFrame() Frame {
	f := Frame{At: l.now}
	w := l.srv.World()
	tr := float64(w.TickRate)
	clients := l.srv.Clients()
	for i, s := range l.seats {
		sf := &f.Seats[i]
		sf.Knobs = l.knobs.Seats[i]
		if s.c == nil {
			continue
		}
		v := s.c.View()
		sf.View = v
		sf.SelfX, sf.SelfY = v.LocalPos()
		sf.AckedX, sf.AckedY = v.ServerState.X, v.ServerState.Y
		sf.LastAcked = v.AckCmd
		sf.Unacked = int(v.CommandNumber - v.AckCmd)
		o := l.seats[1-i]
		if o.c == nil {
			continue
		}
		sf.OtherID = o.id()
		if p := w.Player(sf.OtherID); p != nil {
			sf.OtherServerX, sf.OtherServerY = p.State.X, p.State.Y
		}
		if e, ok := rendered(v, sf.OtherID); ok {
			sf.OtherDrawnX, sf.OtherDrawnY, sf.OtherSeen = e.X, e.Y, true
			sf.GapUnits = math.Hypot(sf.OtherDrawnX-sf.OtherServerX, sf.OtherDrawnY-sf.OtherServerY)
			sf.GapMs = (float64(w.Tick) - v.RenderTick) * 1000 / tr
		}
	}
	sv := &f.Server
	sv.Tick, sv.TickRate, sv.Map = w.Tick, w.TickRate, w.Map
	for _, p := range w.Players {
		sp := ServerPlayer{ID: p.ID, Name: p.Name, Seat: l.seats.of(p.ID), X: p.State.X, Y: p.State.Y, Angle: p.Angle,
			Alive: p.Alive(), Health: p.Health}
		for _, c := range clients {
			if c.ID != p.ID {
				continue
			}
			sp.LastCmd, sp.CmdQueue = c.LastCmd, c.CmdQueue
			for _, o := range w.Players {
				if o.ID == p.ID {
					continue
				}
				if x, y, ok := l.srv.Drawn(p.ID, o.ID, c.RenderTick); ok {
					sp.Drawn = append(sp.Drawn, game.Point{X: x, Y: y})
					sp.DrawnIDs = append(sp.DrawnIDs, o.ID)
				}
			}
		}
		sv.Players = append(sv.Players, sp)
	}
	for _, pr := range w.Flight.Projectiles {
		sv.Projectiles = append(sv.Projectiles, game.Point{X: pr.X, Y: pr.Y})
	}
	shots := l.judged.shots
	for i := len(shots) - 1; i >= 0 && l.now-shots[i].At < ShotShowTime; i-- {
		f.Shots = append([]Shot{shots[i]}, f.Shots...)
	}
	return f
}
