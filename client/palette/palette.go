// Package palette is the game's colours, one table for the window
// (package client) and its main menu (client/menu): chosen to read at a
// glance (you: cyan, enemies: orange/red, teams: red and blue). Colours
// are color.RGBA, alpha-premultiplied as Go defines that type. The
// package has no Ebiten import.
package palette

import "image/color"

// PlayerColour is a colour a player may choose: its name in the menu and
// the body's colour.
type PlayerColour struct {
	Name string
	Body color.RGBA
}

// The colours.
var (
	// The arena: the background beyond the map, the floor and its grid,
	// the walls and their edges.
	BG       = color.RGBA{0x14, 0x16, 0x1b, 0xff}
	Floor    = color.RGBA{0x22, 0x26, 0x2d, 0xff}
	Grid     = color.RGBA{0x2a, 0x2f, 0x37, 0xff}
	Wall     = color.RGBA{0x5b, 0x64, 0x73, 0xff}
	WallEdge = color.RGBA{0x8a, 0x95, 0xa8, 0xff}
	// Me is the local player in deathmatch, and the accent of the HUD,
	// the console and the menu; Enemy and EnemyBot are the others.
	Me       = color.RGBA{0x3c, 0xd6, 0xf0, 0xff}
	Enemy    = color.RGBA{0xf0, 0x7a, 0x3c, 0xff}
	EnemyBot = color.RGBA{0xe0, 0x5a, 0x5a, 0xff}
	// Text and Dim are the text colours; Panel is the back of a panel
	// (scoreboard, spectator bar, end of match), opaque: the arena must not
	// show through a table; HUDBar the HUD's bars at the top and bottom.
	Text   = color.RGBA{0xec, 0xef, 0xf4, 0xff}
	Dim    = color.RGBA{0x9a, 0xa3, 0xb2, 0xff}
	Panel  = color.RGBA{0x0c, 0x0e, 0x12, 0xff}
	HUDBar = color.RGBA{0x08, 0x0a, 0x0e, 0xf0}
	// HPGood and HPBad colour health (HPBad also deaths and the
	// recording mark).
	HPGood = color.RGBA{0x5c, 0xd6, 0x5c, 0xff}
	HPBad  = color.RGBA{0xe0, 0x4a, 0x4a, 0xff}
	// TracerMe and TracerOther are shots' tracers, the local player's and
	// the others'.
	TracerMe    = color.RGBA{0xff, 0xf3, 0xa0, 0xff}
	TracerOther = color.RGBA{0xff, 0xb0, 0x70, 0xff}
	// Gun is a player's gun; Outline a body's outline (and the menu's
	// dark text).
	Gun = color.RGBA{0xd0, 0xd6, 0xe0, 0xff}
	// The weapons in hand (client/character.go): dark and light metal,
	// wood, olive paint and the rocket's red warhead.
	GunMetal = color.RGBA{0x3a, 0x3f, 0x48, 0xff}
	GunLight = color.RGBA{0x8e, 0x96, 0xa4, 0xff}
	GunWood  = color.RGBA{0x7a, 0x52, 0x32, 0xff}
	GunOlive = color.RGBA{0x4c, 0x5a, 0x3a, 0xff}
	GunWarn  = color.RGBA{0xd8, 0x50, 0x30, 0xff}
	Outline  = color.RGBA{0x10, 0x10, 0x10, 0xff}
	// Team deathmatch: each team's colour, a shade darker for bots and
	// lighter for the local player (as Me stands apart from Enemy).
	Red     = color.RGBA{0xe8, 0x48, 0x48, 0xff}
	RedBot  = color.RGBA{0xc0, 0x38, 0x38, 0xff}
	RedMe   = color.RGBA{0xff, 0x94, 0x8c, 0xff}
	Blue    = color.RGBA{0x40, 0x84, 0xf0, 0xff}
	BlueBot = color.RGBA{0x30, 0x68, 0xc8, 0xff}
	BlueMe  = color.RGBA{0x8c, 0xc4, 0xff, 0xff}
	// Players are the body colours a player may choose (cl_color 1..8,
	// the menu's "Colour"), shown in free-for-all: cl_color n is
	// Players[n-1]. As many as net/proto's MaxColor.
	Players = [...]PlayerColour{
		{"red", color.RGBA{0xe8, 0x4a, 0x5a, 0xff}},
		{"orange", color.RGBA{0xf2, 0x8c, 0x2e, 0xff}},
		{"yellow", color.RGBA{0xf0, 0xd0, 0x40, 0xff}},
		{"green", color.RGBA{0x7c, 0xd4, 0x48, 0xff}},
		{"teal", color.RGBA{0x2c, 0xc4, 0xa4, 0xff}},
		{"blue", color.RGBA{0x4a, 0x8c, 0xf4, 0xff}},
		{"violet", color.RGBA{0xa0, 0x6e, 0xf0, 0xff}},
		{"pink", color.RGBA{0xf0, 0x72, 0xc8, 0xff}},
	}
	// Warn is a warning's text (the connection problem, the menu's
	// warnings) and TroublePanel the connection warning's panel.
	Warn         = color.RGBA{0xff, 0xd8, 0x60, 0xff}
	TroublePanel = color.RGBA{0x50, 0x0c, 0x0c, 0xe0}
	// The demo bar: its back, the progress and its track.
	DemoBar   = color.RGBA{0x0b, 0x0d, 0x11, 0xff}
	DemoFill  = color.RGBA{0xf0, 0xa0, 0x30, 0xff}
	DemoTrack = color.RGBA{0x3a, 0x3f, 0x4a, 0xff}
)
