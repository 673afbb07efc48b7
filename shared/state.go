package shared

import "math"

// PosScale is the wire precision of positions and velocities: a position is
// a whole number of 1/PosScale world units, a velocity a whole number of
// 1/PosScale world units per second. Quantize rounds to it.
const PosScale = 64

// PlayerRadius is the radius of a player's body and hitbox, in world units.
const PlayerRadius = 16.0

// Box is an axis-aligned rectangle of solid wall, in world units.
// MinX < MaxX and MinY < MaxY.
type Box struct {
	MinX, MinY, MaxX, MaxY float64
}

// The tick-rate range, in ticks/s: sv_tickrate is refused outside it, a
// client refuses a server (and a demo) that announces a rate outside it.
// 128 is the most a usercmd's 8-bit timing and HistorySize's quarter second
// were sized for; 20 keeps a tick at most 50 ms.
const (
	MinTickRate = 20
	MaxTickRate = 128
)

// World is what RunCommand needs to know of the world: the tick rate and the
// static walls. Walls are tested in slice order, which is part of the
// deterministic contract.
type World struct {
	// TickRate is the server's tick rate in ticks/s (MinTickRate..MaxTickRate).
	TickRate int
	// Walls are the solid boxes, including the arena's outer boundary.
	Walls []Box
	// WallGrid, when it was built from Walls (NewWallGrid with this same
	// slice), is movement's broad phase: slideMove tests only the walls
	// near a move, with the same result to the bit. Nil (or built from
	// other walls): every wall is tested.
	WallGrid *WallGrid
}

// Dt returns the duration of one tick in seconds.
func (w *World) Dt() float64 { return 1 / float64(w.TickRate) }

// PlayerState is everything client-side prediction needs of a player: the
// part of the player that RunCommand changes. Health, score and respawn are
// server rules (package game) and are not predicted.
type PlayerState struct {
	// X, Y is the centre, in world units, a multiple of 1/PosScale.
	X, Y float64
	// VX, VY is the velocity in world units/s, a multiple of 1/PosScale.
	VX, VY float64
	// Dead players do not move or fire.
	Dead bool
	// Weapon is the index of the weapon in hand (see Weapons).
	Weapon uint8
	// Ammo is the rounds left in each weapon's magazine.
	Ammo [NumWeapons]uint8
	// NextAttack is the number of commands (ticks) until the weapon can fire.
	NextAttack uint16
	// ReloadTicks is the ticks left in the current reload; 0 when not reloading.
	ReloadTicks uint16
	// SwitchTicks is the ticks left before a newly drawn weapon can fire.
	SwitchTicks uint16
	// DashTicks is the ticks left before the next dash may start; the
	// first Ticks(DashMs) of them are the dash itself (Dashing).
	DashTicks uint16
}

// NewPlayerState returns a live player at (x, y) with full magazines.
func NewPlayerState(x, y float64) PlayerState {
	s := PlayerState{X: x, Y: y}
	for i := range Weapons {
		s.Ammo[i] = Weapons[i].MagSize
	}
	return s.Quantized()
}

// Quantize rounds v to a whole number of 1/PosScale.
func Quantize(v float64) float64 {
	return math.Round(v*PosScale) / PosScale
}

// Quantized returns s with position and velocity rounded to wire precision.
func (s PlayerState) Quantized() PlayerState {
	s.X, s.Y = Quantize(s.X), Quantize(s.Y)
	s.VX, s.VY = Quantize(s.VX), Quantize(s.VY)
	return s
}

// Equal reports whether two states are bit-identical in every predicted field.
func (s PlayerState) Equal(o PlayerState) bool {
	return s == o
}
