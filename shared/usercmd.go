// Package shared is Tickshot's one movement-and-weapon package, run unchanged by
// the server (authoritative) and the client (prediction), as Half-Life's
// pm_shared. It is pure and deterministic: no I/O, no wall clock, no
// goroutines, no map iteration, no unseeded randomness. Every floating-point
// product that feeds the state is wrapped in an explicit float64() conversion
// so that no compiler may fuse it into a multiply-add (Go spec, "Floating-point
// operators"), and the state is quantized to wire precision after every
// command (as Teeworlds' Quantize does). Together these make RunCommand
// bit-exact on amd64, GOAMD64=v3, 386 and js/wasm (see golden_test.go).
package shared

import "math"

// Button bits of UserCmd.Buttons.
const (
	ButtonAttack  uint16 = 1 << iota // primary fire
	ButtonAttack2                    // secondary fire (unused by current weapons)
	ButtonReload                     // start a reload
	ButtonDash                       // dash in the move direction (dash.go)
)

// ButtonsValid is the mask of every defined button bit; other bits are invalid input.
const ButtonsValid = ButtonAttack | ButtonAttack2 | ButtonReload | ButtonDash

// UserCmd is one client tick of input, Half-Life's usercmd_t adapted to 2D.
// One command covers exactly one tick of the server's tick rate.
type UserCmd struct {
	_msgpack struct{} `msgpack:",as_array"`

	// CommandNumber increases by one for every command a client makes,
	// starting at 1. The server runs each number at most once, in order.
	CommandNumber uint32
	// TickCount is the whole part of the client's clock when it made the
	// command: the server tick of the newest snapshot, advanced at real speed
	// since (Source's tick_count, before interpolation is subtracted).
	TickCount uint32
	// TickFrac is the fractional part of that clock in 1/256 ticks, so that
	// the server can compute exactly the render time the client drew
	// (RenderTick) and rewind to the same positions.
	TickFrac uint8
	// Msec is the duration the command covers, in milliseconds, rounded:
	// always the tick interval. The server rejects other values.
	Msec uint8
	// LerpMsec is the interpolation period, in milliseconds, the client used
	// to draw other players in the frame that made this command.
	LerpMsec uint16
	// Buttons is a bit field of Button* constants.
	Buttons uint16
	// MoveX and MoveY are the movement axes in world directions, each in
	// [-1, 1] (x to the right, y down the screen).
	MoveX, MoveY float32
	// ViewAngle is the aim direction in radians, measured from the +x axis
	// towards +y. Clients send [-pi, pi]; the server accepts [-4, 4].
	ViewAngle float32
	// Weapon is the index of the weapon the player wants in hand (see Weapons).
	Weapon uint8
}

// RenderTick returns the server tick, fractional, at which the client drew
// the other players for this command: TickCount + TickFrac/256 - LerpMsec
// converted to ticks at tickRate. Client and server both compute it with
// this function (explicit conversions keep it bit-exact across machines).
func (c *UserCmd) RenderTick(tickRate int) float64 {
	clock := float64(c.TickCount) + float64(float64(c.TickFrac)/256)
	lerp := float64(float64(c.LerpMsec)*float64(tickRate)) / 1000
	return clock - lerp
}

// MsecFor returns the Msec value a command must carry at tickRate (ticks/s).
func MsecFor(tickRate int) uint8 {
	return uint8(math.Round(1000 / float64(tickRate)))
}

// Has reports whether every bit of b is pressed.
func (c *UserCmd) Has(b uint16) bool { return c.Buttons&b == b }
