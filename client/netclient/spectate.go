package netclient

import (
	"math"
	"sort"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
)

// Spectating: a client admitted as a spectator (proto.Accept.Spectator), or
// turned into one by the console's `spectate`, has no body. The server
// sends it every entity and a Self with Spectator set; the client makes
// usercmds all the same, with no input, so that its acks and clock keep
// running (FrameFunc ticks as always), but predicts nothing and counts no
// prediction error. Its camera follows a player, drawn where Rendered
// draws it (the same interpolation as every other entity), or flies
// freely: Source's spectator modes (OBS_MODE_CHASE / OBS_MODE_ROAMING),
// next and previous target on attack and attack2, free-fly on jump.

// SpecFlySpeed is the speed of the free-flying spectator camera, world
// units per second (a little over twice a player's running speed).
const SpecFlySpeed = 600.0

// SpecCam is the spectator camera: it follows a player, drawn where the
// View's Rendered has it, or flies freely within the map. It is the
// client's alone (the server never hears of it) and reads everything else
// from the View it is given, so it is tested without a connection.
type SpecCam struct {
	target uint16    // the player followed; 0 none
	free   bool      // free-fly: the camera is at x, y
	x, y   float64   // free-fly position, world units (also the last followed position)
	on     *game.Map // the map x, y are on (nil: not placed)
}

// place puts the camera at the centre of v's map when it has no position
// there yet (at first, and after a level change).
func (s *SpecCam) place(v View) {
	if s.on != v.Map {
		s.x, s.y, s.on = v.Map.Width/2, v.Map.Height/2, v.Map
	}
}

// Spec returns the spectator camera.
func (c *Client) Spec() *SpecCam { return &c.spec }

// spectating reports whether the client has no body: from the newest
// snapshot's Self (server), or before the first one (haveSnap false) from
// the Accept.
func spectating(haveSnap bool, accept proto.Accept, server proto.SelfState) bool {
	if !haveSnap {
		return accept.Spectator
	}
	return server.Spectator
}

// Target returns the id of the player the camera follows, 0 when none
// (free-fly, or nobody alive to follow).
func (s *SpecCam) Target() uint16 {
	if s.free {
		return 0
	}
	return s.target
}

// Free reports whether the camera flies freely.
func (s *SpecCam) Free() bool { return s.free }

// Next follows the next living player of v in id order after the one
// followed now, wrapping around (Source: attack in spectator mode). It
// leaves free-fly. With nobody alive it changes nothing.
func (s *SpecCam) Next(v View) { s.cycle(v, +1) }

// Prev follows the previous living player in id order (attack2).
func (s *SpecCam) Prev(v View) { s.cycle(v, -1) }

func (s *SpecCam) cycle(v View, dir int) {
	var alive []uint16
	for _, e := range v.Rendered { // sorted by id
		if e.Alive {
			alive = append(alive, e.ID)
		}
	}
	if len(alive) == 0 {
		return
	}
	s.free = false
	cur := s.target
	if dir > 0 {
		for _, id := range alive {
			if id > cur {
				s.target = id
				return
			}
		}
		s.target = alive[0]
		return
	}
	for i := len(alive) - 1; i >= 0; i-- {
		if alive[i] < cur {
			s.target = alive[i]
			return
		}
	}
	s.target = alive[len(alive)-1]
}

// ToggleFree switches between following a player and flying freely
// (Source: jump in spectator mode). Free-fly starts where the camera is;
// following again takes the player followed before if it is still there
// and alive, else the next living one.
func (s *SpecCam) ToggleFree(v View) {
	if !s.free {
		s.x, s.y, _ = s.Centre(v)
		s.free = true
		return
	}
	s.free = false
	if e, ok := rendered(v, s.target); !ok || !e.Alive {
		s.Next(v)
	}
}

// Fly moves the free-flying camera by the movement axes (each in
// [-1, 1], world axes) for dt of real time at SpecFlySpeed, kept within
// v's map. It does nothing while following a player.
func (s *SpecCam) Fly(v View, moveX, moveY float64, dt time.Duration) {
	if !s.free {
		return
	}
	s.place(v)
	if l := math.Hypot(moveX, moveY); l > 1 {
		moveX, moveY = moveX/l, moveY/l
	}
	d := SpecFlySpeed * dt.Seconds()
	s.x = math.Max(0, math.Min(v.Map.Width, s.x+moveX*d))
	s.y = math.Max(0, math.Min(v.Map.Height, s.y+moveY*d))
}

// Centre returns the camera's centre in world units: the followed player
// exactly where v's Rendered draws it (interpolated like every other
// entity), or the free-fly position. When the followed player is gone, it
// follows the next living one; with nobody to follow it stays where it
// was (at first the map's centre), and following reports false.
func (s *SpecCam) Centre(v View) (x, y float64, following bool) {
	s.place(v)
	if s.free {
		return s.x, s.y, false
	}
	e, ok := rendered(v, s.target)
	if !ok {
		s.target = 0
		s.Next(v)
		e, ok = rendered(v, s.target)
	}
	if !ok {
		return s.x, s.y, false
	}
	s.x, s.y = e.X, e.Y
	return e.X, e.Y, true
}

// rendered returns player id as v's Rendered has it.
func rendered(v View, id uint16) (RenderedEntity, bool) {
	i := sort.Search(len(v.Rendered), func(i int) bool { return v.Rendered[i].ID >= id })
	if id != 0 && i < len(v.Rendered) && v.Rendered[i].ID == id {
		return v.Rendered[i], true
	}
	return RenderedEntity{}, false
}
