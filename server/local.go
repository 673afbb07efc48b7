package server

import (
	"fmt"
	"io"
	"log/slog"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/transport"
	"tickshot/shared"
)

// Local is a server driven in process by one goroutine, its owner's, with
// no listener and no clock of its own: the lag lab (client/lab) steps it
// on a virtual clock beside two clients, over transports that deliver on
// the same goroutine (transport.Pusher). Joins are admitted at the next
// Step once their Hello has arrived, as the tick goroutine admits a
// socket's. It also tells the lab what a running server never shows: how
// each hitscan shot was judged (TakeShots), where each client is drawing
// the others (Clients), and it can place a player (Place) for a scripted
// run. Every method runs on the owner's goroutine.
type Local struct {
	s       *Server
	joining []*proto.Conn // handshakes waiting for their Hello
	shots   []JudgedShot  // judged since TakeShots, completed by their EvShot
	events  []game.Event  // kills and hits since TakeEvents
}

// NewLocal makes a server for in-process use (cfg as for New; a nil
// Logger discards the log). It never listens.
func NewLocal(cfg Config) (*Local, error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	l := &Local{s: s}
	s.rewinder.judged = &l.shots
	s.tap = l.onEvent
	return l, nil
}

// Serve takes a client's transport (give it proto.ServerOptions()); the
// client is admitted at the first Step after its Hello arrived, or refused
// with a Reject saying why.
func (l *Local) Serve(t transport.Transport) {
	l.joining = append(l.joining, proto.NewServerConn(t))
}

// Step admits the clients whose Hello arrived, then runs one tick at now
// (the owner's virtual clock).
func (l *Local) Step(now time.Time) {
	s := l.s
	if s.start.IsZero() {
		s.start, s.lastTickAt = now, now // a session's sv_timeout counts from its admission's tick time
	}
	waiting := l.joining[:0]
	for _, conn := range l.joining {
		select {
		case p, ok := <-conn.Recv():
			if !ok {
				continue
			}
			h, isHello := p.Msg.(*proto.Hello)
			r := notHello(p.Msg)
			if isHello {
				r = s.hs.checkHello(h) // as ServeTransport: the protocol version, the join password
			}
			if !r.refused() {
				r = s.admit(joinReq{conn: conn, hello: h})
			}
			if r.refused() {
				s.hs.reject(conn, r)
			}
		default:
			waiting = append(waiting, conn)
		}
	}
	l.joining = waiting
	s.runTick(now)
}

// Exec runs a server console command at once ("sv_unlag 0") and returns
// its output.
func (l *Local) Exec(line string) string { return l.s.exec(line) }

// World is the server's world, to read between Steps (never change it:
// Place does what a scripted run needs).
func (l *Local) World() *game.World { return l.s.w }

// Place puts player id at (x, y), alive with health hit points, facing
// angle (radians), without spawn protection: a teleport, which clients
// draw as a jump, not a slide.
func (l *Local) Place(id uint16, x, y, angle float64, health int) error {
	p := l.s.w.Player(id)
	if p == nil {
		return fmt.Errorf("no player %d", id)
	}
	p.Spawn(game.Point{X: x, Y: y})
	p.Angle = angle
	p.Health = max(1, min(health, game.MaxHealth))
	p.ProtectedUntil = 0
	return nil
}

// LocalClient is what the server knows of one connected client.
type LocalClient struct {
	ID       uint16 // its player
	LastCmd  uint32 // newest command number received
	Ran      uint32 // newest command number run
	CmdQueue int    // commands received, waiting to run
	// RenderTick is the render time its newest command run claimed
	// (UserCmd.RenderTick), ticks.
	RenderTick float64
}

// Clients returns every connected client, in join order.
func (l *Local) Clients() []LocalClient {
	out := make([]LocalClient, 0, len(l.s.sessions))
	for _, ss := range l.s.sessions {
		q := &ss.cmds
		out = append(out, LocalClient{ID: ss.player.ID, Ran: q.lastCmd, LastCmd: q.newest(), CmdQueue: q.depth(),
			RenderTick: q.lastRender})
	}
	return out
}

// Drawn returns where client viewer is drawing player id at render tick
// tick, as lag compensation reconstructs it (the server's copy of the
// client's interpolation: the same function a shot is rewound with);
// ok is false when the server has no such view.
func (l *Local) Drawn(viewer, id uint16, tick float64) (x, y float64, ok bool) {
	ss := sessionOf(l.s.sessions, viewer)
	if ss == nil {
		return 0, 0, false
	}
	x, y, _, _, ok = l.s.rewinder.drawnBy(ss, id, tick)
	return x, y, ok
}

// JudgedShot is one hitscan shot of a client as the server judged it.
type JudgedShot struct {
	Shooter  uint16
	Cmd      uint32  // the shooter's command number
	Tick     uint32  // the server tick that ran it
	RewindTo float64 // the tick the hitboxes were rewound to
	RewindMs float64 // how far back, ms
	Refused  bool    // the claimed render time was not credible: the server's estimate was used
	Clamped  bool    // the rewind was limited (sv_maxunlag, the link's bound, the present)
	Unlagged bool    // lag compensation ran (sv_unlag 1)
	Boxes    []ShotBox
	// The trace (EvShot): the weapon (shared.Weapons), from the muzzle to
	// where it ended, and the player it hit (0: none).
	Weapon                   uint8
	FromX, FromY, EndX, EndY float64
	Hit                      uint16
}

// ShotBox is one other player's hitbox as a shot was traced against it
// (rewound) beside where it was at that tick (present), world units.
type ShotBox struct {
	ID                 uint16
	X, Y               float64
	PresentX, PresentY float64
	Alive              bool
}

// JudgeShots turns the judging of shots (TakeShots) on, as NewLocal
// starts, or off. Judged, a lag-compensated shot rewinds every player and
// records every box (the lab shows any of them), O(players) a shot; off,
// lag compensation rewinds only the players a shot can hit, as a running
// server's does (lagreach.go), and TakeShots returns nothing new: what
// BenchmarkServerTick measures.
func (l *Local) JudgeShots(on bool) {
	l.s.rewinder.judged = nil
	if on {
		l.s.rewinder.judged = &l.shots
	}
}

// TakeShots returns the shots judged since the last call, oldest first.
func (l *Local) TakeShots() []JudgedShot {
	out := l.shots
	l.shots = nil
	return out
}

// TakeEvents returns the kills (EvKill) and hits (EvHit) since the last
// call, oldest first.
func (l *Local) TakeEvents() []game.Event {
	out := l.events
	l.events = nil
	return out
}

// onEvent keeps kills and hits, and completes a judged shot from its
// EvShot (Server.tap): the trace's ends and the player hit. The shot was
// judged as it was traced (rewinder.judge: with sv_unlag 1 against the
// rewound hitboxes, with 0 against the present ones, presentShots).
func (l *Local) onEvent(e *game.Event) {
	if e.Kind == game.EvKill || e.Kind == game.EvHit {
		l.events = append(l.events, *e)
	}
	if e.Kind != game.EvShot || e.Value < 0 || e.Value >= len(shared.Weapons) || shared.Weapons[e.Value].Kind != shared.Hitscan {
		return // a projectile's launch is an EvShot too: it is judged where it explodes, not here
	}
	for i := len(l.shots) - 1; i >= 0; i-- {
		if js := &l.shots[i]; js.Shooter == e.A && js.Cmd == e.Cmd {
			js.Weapon, js.FromX, js.FromY, js.EndX, js.EndY, js.Hit = uint8(e.Value), e.X, e.Y, e.X2, e.Y2, e.B
			return
		}
	}
}
