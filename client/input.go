//go:build !headless

package client

import (
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/shared"
)

// Input sources: where the local player's input comes from, apart from
// the scene that turns it into usercmds. The keyboard and mouse
// (KeyboardMouse), a script (ScriptedInput, for tests) and the bot brain
// (BotInput, --autoplay) are the three; the game scene asks its source
// once per frame (Frame), and a source that decides every tick (TickSource:
// the brain) once per command the frame makes as well.

// InputSource makes the local player's input and the window's UI keys.
type InputSource interface {
	// Frame samples this frame: the input held over the frame's ticks
	// (buttons tapped since the last frame in Pressed), the UI keys, and
	// whether the source has ended.
	Frame(v *InputView) InputFrame
}

// TickSource is an InputSource that decides every tick, as a bot brain
// thinks (netclient.Client.FrameFunc): the scene calls Tick once per
// command the frame makes, after the clock advanced to it, instead of
// holding Frame's input over the frame.
type TickSource interface {
	InputSource
	Tick(v *InputView) netclient.Input
}

// InputView is what a source may look at.
type InputView struct {
	// Client is the connection played on: the map, the prediction, the
	// other players as rendered.
	Client *netclient.Client
	// Elapsed is the time since the window opened.
	Elapsed time.Duration
	// PlayerX, PlayerY are where the local player is drawn, screen pixels
	// (the mouse aims from there).
	PlayerX, PlayerY float64
	// Typing: the console or the chat line has the keyboard; no keys count.
	Typing bool
	// Paused: the pause screen is open; UI keys count, game input does not.
	Paused bool
}

// UIKeys is a set of the window's own keys (not the player's buttons).
type UIKeys uint16

// The window's keys.
const (
	KeyPause    UIKeys = 1 << iota // Esc: open or close the pause screen
	KeyQuit                        // Q on the pause screen: leave the game
	KeyNetGraph                    // F3 (as Source) or N: cycle net_graph
	KeyChat                        // Y or Enter: open the chat line
	KeyScores                      // Tab: the scoreboard (held)
	KeyHelp                        // F1: the controls hint (held)
	KeyTeamChat                    // U: open the chat line for the team (Source's messagemode2)
	KeyJump                        // Space: a spectator's free camera on or off (Source's jump in spectator mode)
)

// InputFrame is one frame of a source.
type InputFrame struct {
	Input netclient.Input
	// Keys are the UI keys pressed this frame; Held those held down.
	Keys, Held UIKeys
	// Human: a person is at the keys, so the crosshair follows the mouse
	// (CursorX, CursorY, screen pixels), the controls hint shows and chat
	// can be opened.
	Human            bool
	CursorX, CursorY float64
	// Ended: the source has no more input (a script ran out); the window
	// closes.
	Ended bool
	// Commands are console lines whose bound keys were pressed this frame
	// ("incrementvar net_graph 0 3 1" on F3 and N): the scene runs them.
	Commands []string
}

// KeyboardMouse is the player at the keyboard and mouse, through the key
// bindings (binds.go; by default WASD or the arrows move, left and right
// button fire, R reloads, Shift dashes, 1/2/3, Q and the wheel choose the
// weapon): the
// mouse aims from the player's position on screen to the crosshair
// (cursor.go: sensitivity).
type KeyboardMouse struct {
	g      *Game   // the window: bindings, sensitivity, screen size
	aim    float64 // radians, kept while the mouse is on the player
	weapon uint8
	cross  crosshair
	touch  touchpad // the touch screen's sticks and buttons (touch.go)
	// curX, curY: the crosshair last frame (whether the mouse moved).
	curX, curY float64
}

// uiKeys reads the UI keys from the keyboard: Esc and Q on the pause
// screen are fixed, the others bound (nil binds: the defaults' keys).
func uiKeys(v *InputView, b *binds) (keys, held UIKeys, commands []string) {
	if v.Typing {
		return 0, 0, nil
	}
	just := inpututil.IsKeyJustPressed
	if just(ebiten.KeyEscape) {
		keys |= KeyPause
	}
	if v.Paused && just(ebiten.KeyQ) {
		keys |= KeyQuit
	}
	if b == nil {
		b = defaultBinds
	}
	if b.pressed("messagemode") {
		keys |= KeyChat
	}
	if b.pressed("messagemode2") {
		keys |= KeyTeamChat
	}
	if just(ebiten.KeySpace) {
		keys |= KeyJump
	}
	if b.down("+showscores") {
		held |= KeyScores
	}
	if b.down("+showhelp") {
		held |= KeyHelp
	}
	return keys, held, b.pressedCommands()
}

// Frame implements InputSource.
func (k *KeyboardMouse) Frame(v *InputView) InputFrame {
	f := InputFrame{Human: true}
	var b *binds
	if k.g != nil {
		b = k.g.binds
	}
	f.Keys, f.Held, f.Commands = uiKeys(v, b)
	f.CursorX, f.CursorY = k.cross.update(k.g)
	mouseMoved := f.CursorX != k.curX || f.CursorY != k.curY
	k.curX, k.curY = f.CursorX, f.CursorY
	if v.Typing || v.Paused {
		f.Input = netclient.Input{Angle: float32(k.aim), Weapon: k.weapon}
		k.addTouch(&f, v)
		return f
	}
	if b == nil {
		b = defaultBinds
	}
	in := &f.Input
	if b.down("+moveleft") {
		in.MoveX--
	}
	if b.down("+moveright") {
		in.MoveX++
	}
	if b.down("+forward") {
		in.MoveY--
	}
	if b.down("+back") {
		in.MoveY++
	}
	// Aim from the player's on-screen position to the crosshair; once
	// the touch screen is used, only when the mouse moves (a pointer
	// left where it was, or never there, would pull the aim to it).
	if dx, dy := f.CursorX-v.PlayerX, f.CursorY-v.PlayerY; dx*dx+dy*dy > 4 && (!k.touch.on || mouseMoved) {
		k.aim = math.Atan2(dy, dx)
	}
	in.Angle = float32(k.aim)
	switch {
	case b.pressed("slot1"):
		k.weapon = 0
	case b.pressed("slot2"):
		k.weapon = 1
	case b.pressed("slot3"):
		k.weapon = 2
	case b.pressed("invnext"):
		k.weapon = (k.weapon + 1) % shared.NumWeapons
	}
	in.Weapon = k.weapon
	// Buttons: a press seen for the first time is a tap (Pressed),
	// latched into the next command only; from the next frame on, if still
	// down, the button is held over every tick. A click shorter than a
	// frame shows as down in one frame (GLFW's sticky buttons), and its
	// release only in the next: held over a slow frame's dozen ticks it
	// would fire twice, where at 60 fps it fires once. Movement keys, by
	// contrast, count as held over the whole frame they are first seen in,
	// so that a run covers the same distance at any frame rate.
	button := func(b uint16, pressed, just bool) {
		switch {
		case just:
			in.Pressed |= b
		case pressed:
			in.Buttons |= b
		}
	}
	button(shared.ButtonAttack, b.down("+attack"), b.pressed("+attack"))
	button(shared.ButtonAttack2, b.down("+attack2"), b.pressed("+attack2"))
	button(shared.ButtonReload, b.down("+reload"), b.pressed("+reload"))
	button(shared.ButtonDash, b.down("+dash"), b.pressed("+dash"))
	k.addTouch(&f, v)
	return f
}

// addTouch reads the touch screen and, once a finger has touched it,
// merges the sticks and buttons into f (touch.go).
func (k *KeyboardMouse) addTouch(f *InputFrame, v *InputView) {
	if k.g == nil {
		return
	}
	in := k.touch.read(float64(k.g.w), float64(k.g.h))
	if k.touch.on {
		in.apply(f, v, &k.aim, &k.weapon)
	}
}

// ScriptedInput plays a script for tests: the frame at t since the window
// opened. The window closes when it returns Ended.
type ScriptedInput func(t time.Duration) InputFrame

// Frame implements InputSource.
func (s ScriptedInput) Frame(v *InputView) InputFrame { return s(v.Elapsed) }

// BotInput lets the bot brain (game.Bot, the server bots' own) play for the
// local player, thinking every tick (--autoplay, a demo mode and the way
// README's screenshots are taken). The window's UI keys still come from the
// keyboard, except the chat key.
type BotInput struct {
	// Seed seeds the brain (0: the time it first thinks).
	Seed  uint64
	brain *game.Bot
	boxes []game.Hitbox
}

// Frame implements InputSource: the UI keys; the movement is Tick's.
func (b *BotInput) Frame(v *InputView) InputFrame {
	f := InputFrame{}
	f.Keys, f.Held, f.Commands = uiKeys(v, nil)
	f.Keys &^= KeyChat | KeyTeamChat
	return f
}

// Tick implements TickSource: one tick of the brain's thinking.
func (b *BotInput) Tick(v *InputView) netclient.Input {
	c := v.Client
	if b.brain == nil {
		if b.Seed == 0 {
			b.Seed = uint64(time.Now().UnixNano())
		}
		b.brain = game.NewBot(b.Seed)
	}
	ents := c.View().Rendered
	b.boxes = b.boxes[:0]
	for _, e := range ents {
		b.boxes = append(b.boxes, game.NewHitbox(e.ID, e.X, e.Y, e.Alive, game.Team(teamOf(c, e.ID))))
	}
	b.brain.Team = game.Team(teamOf(c, c.View().ID)) // tdm: teammates are not targets (teams.go)
	in := b.brain.Think(c.View().Map, c.View().TickRate, c.View().Predicted, c.View().Health, b.boxes)
	return netclient.Input{MoveX: in.MoveX, MoveY: in.MoveY, Angle: in.Angle, Buttons: in.Buttons, Weapon: in.Weapon}
}
