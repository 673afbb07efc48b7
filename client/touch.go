//go:build !headless

package client

import (
	"math"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/shared"
)

// Touch controls (issue 22): twin virtual sticks and buttons, the
// input of a phone or tablet. A finger that goes down in the left half of
// the screen is the move stick, in the right half the aim stick, unless it
// lands on a button. A stick's base is where its finger went down (a
// floating stick, as Brawl Stars' and DDNet's touch controls have it), so
// the thumb never has to find a drawn spot; its deflection is the finger's
// offset from the base over the stick's radius, zero inside the dead zone.
// The move stick's deflection is the movement axes (analog, as a gamepad's
// stick: netclient.Input.MoveX/MoveY are [-1, 1]); the aim stick's
// direction is the aim, and pushed past touchFireAt of its radius it holds
// the trigger. The buttons are reload, weapon switch, dash (taps), the
// scoreboard (a toggle) and MENU (the pause screen, whose RESUME and QUIT
// are buttons as well).
//
// KeyboardMouse reads the touches every frame (touchpad.read) and, once a
// finger has touched the screen, merges the sticks and buttons into its
// input: the usercmds, prediction and everything downstream are the same
// as with keys and mouse. The first touch switches the HUD to touch mode
// (touch_draw.go draws the controls over the game, semi-transparent).

// Stick and button tuning.
const (
	// touchDeadZone is the fraction of a stick's radius inside which it
	// reads zero: a thumb resting on the glass drifts a few pixels.
	touchDeadZone = 0.15
	// touchFireAt is the fraction of the aim stick's radius past which it
	// fires: aiming without shooting stays possible below it.
	touchFireAt = 0.7
	// touchMinButton is the smallest button or stick radius, screen
	// pixels: Apple's and Google's guides ask for 44-48 CSS pixels (about
	// 9 mm) for a thumb, and on a phone the game's screen pixel is one CSS
	// pixel (Game.Layout scales only screens beyond game.ViewWidth×
	// game.ViewHeight down).
	touchMinButton = 52
	// touchCrosshair is how far from the player the crosshair is drawn
	// along the touch aim, screen pixels.
	touchCrosshair = 120
)

// stickDeflection returns a stick's deflection for a finger at dx, dy
// pixels from its base on a stick of the given radius (pixels): the
// direction of the drag with a length in [0, 1], 0 inside the dead zone
// and rescaled from its edge, so that the smallest move past it is slow,
// and 1 at the rim and beyond. push is the raw length over the radius
// (unclamped), which the aim stick compares with touchFireAt.
func stickDeflection(dx, dy, radius float64) (x, y, push float64) {
	d := math.Hypot(dx, dy)
	if radius <= 0 || d == 0 {
		return 0, 0, 0
	}
	push = d / radius
	if push < touchDeadZone {
		return 0, 0, push
	}
	k := min((push-touchDeadZone)/(1-touchDeadZone), 1)
	return dx / d * k, dy / d * k, push
}

// touchButton names a touch button.
type touchButton int

// The touch buttons: four top to bottom along the right edge and MENU at
// the left while playing; RESUME and QUIT on the pause screen.
const (
	touchScores touchButton = iota // the scoreboard, on or off (Tab held)
	touchWeapon                    // the next weapon (invnext)
	touchReload                    // +reload
	touchDash                      // +dash
	touchMenu                      // the pause screen (Esc)
	touchResume                    // on the pause screen: back to the game (Esc)
	touchQuit                      // on the pause screen: leave the game (Q)
	numTouchButtons
)

// touchColumn is how many buttons stand in the column at the right edge.
const touchColumn = touchDash + 1

// touchLabels are the buttons' captions.
var touchLabels = [numTouchButtons]string{"SCORES", "WEAPON", "RELOAD", "DASH", "MENU", "RESUME", "QUIT"}

// live reports whether button b can be tapped: the pause screen's two
// while it is shown (paused), the others while not.
func (b touchButton) live(paused bool) bool {
	return paused == (b == touchResume || b == touchQuit)
}

// touchLayout is where the controls are on a screen of W×H pixels.
type touchLayout struct {
	W, H float64
	// Radius is a stick's radius, pixels.
	Radius float64
	// ButtonW, Button are a button's width and height (wider than high:
	// room for its caption); Buttons their top-left corners.
	ButtonW, Button float64
	Buttons         [numTouchButtons][2]float64
	// MoveX, MoveY and AimX, AimY are where the sticks are drawn while no
	// finger holds them (a hint of where to put the thumbs).
	MoveX, MoveY, AimX, AimY float64
}

// layoutTouch places the controls on a W×H screen: sizes from the
// screen's height (a thumb spans about a sixth of a phone held
// sideways), never below touchMinButton; the buttons in a column at the
// right edge, below the HUD's top bar, MENU at the same height on the
// left, RESUME and QUIT side by side under the pause screen's text.
func layoutTouch(W, H float64) touchLayout {
	l := touchLayout{W: W, H: H}
	l.Button = min(max(0.13*H, touchMinButton), 80)
	l.ButtonW = 1.5 * l.Button
	l.Radius = min(max(0.17*H, touchMinButton*1.25), 120)
	gap := l.Button / 5
	x := W - l.ButtonW - gap
	top := max(0.16*H, 48)
	for i := range touchColumn {
		l.Buttons[i] = [2]float64{x, top + float64(i)*(l.Button+gap)}
	}
	l.Buttons[touchMenu] = [2]float64{gap, top}
	y := min(H/2+84, H-l.Button-gap) // pauseScreen's last line is at H/2+60
	l.Buttons[touchResume] = [2]float64{W/2 - gap/2 - l.ButtonW, y}
	l.Buttons[touchQuit] = [2]float64{W/2 + gap/2, y}
	l.MoveX, l.MoveY = l.Radius+0.08*W, H-l.Radius-0.1*H
	l.AimX, l.AimY = W-l.Radius-0.22*W, l.MoveY
	return l
}

// buttonAt returns the live button at x, y (paused: the pause screen is
// shown), or -1.
func (l *touchLayout) buttonAt(x, y float64, paused bool) touchButton {
	for i, p := range l.Buttons {
		if !touchButton(i).live(paused) {
			continue
		}
		if x >= p[0] && x < p[0]+l.ButtonW && y >= p[1] && y < p[1]+l.Button {
			return touchButton(i)
		}
	}
	return -1
}

// touchPoint is one finger on the screen, pixels.
type touchPoint struct {
	ID   ebiten.TouchID
	X, Y float64
}

// touchStick is a virtual stick: the finger that holds it and where that
// finger went down (the base) and is now.
type touchStick struct {
	held         bool
	id           ebiten.TouchID
	baseX, baseY float64
	x, y         float64
}

// deflection is stickDeflection of the stick's finger on radius r.
func (s *touchStick) deflection(r float64) (x, y, push float64) {
	if !s.held {
		return 0, 0, 0
	}
	return stickDeflection(s.x-s.baseX, s.y-s.baseY, r)
}

// touchpad is the touch controls' state: the sticks, which fingers hold
// which buttons, the scoreboard toggle.
type touchpad struct {
	// on: a finger has touched the screen since the window opened; the
	// controls are drawn and their input counts.
	on        bool
	layout    touchLayout
	move, aim touchStick
	buttons   [numTouchButtons]bool // held by a finger
	buttonIDs [numTouchButtons]ebiten.TouchID
	scores    bool // the scoreboard toggled on
	firing    bool // the aim stick was past touchFireAt last frame
	// paused: the pause screen was drawn with its buttons last frame
	// (draw): RESUME and QUIT are live, the others not. A button can be
	// tapped when it is on screen, not otherwise.
	paused      bool
	ids, justID []ebiten.TouchID
	points      []touchPoint
}

// touchInput is one frame of the touch controls.
type touchInput struct {
	// MoveX, MoveY are the move stick's deflection, [-1, 1].
	MoveX, MoveY float64
	// Aim is the aim stick's direction, radians, when Aiming (pushed past
	// the dead zone).
	Aim    float64
	Aiming bool
	// Fire: the aim stick is pushed past touchFireAt; FireStart: it got
	// there this frame (a tap, netclient.Input.Pressed).
	Fire, FireStart bool
	// Tapped are the buttons whose finger went down this frame.
	Tapped [numTouchButtons]bool
	// Scores: the scoreboard is toggled on.
	Scores bool
	// Keys are the window's keys the buttons pressed (MENU and RESUME:
	// KeyPause, QUIT: KeyQuit).
	Keys UIKeys
}

// read takes this frame's touches from Ebiten for a W×H screen.
func (t *touchpad) read(W, H float64) touchInput {
	t.ids = ebiten.AppendTouchIDs(t.ids[:0])
	t.justID = inpututil.AppendJustPressedTouchIDs(t.justID[:0])
	t.points = t.points[:0]
	for _, id := range t.ids {
		x, y := ebiten.TouchPosition(id)
		t.points = append(t.points, touchPoint{id, float64(x), float64(y)})
	}
	return t.update(W, H, t.points, t.justID)
}

// update is read's logic on given touches: all fingers down now, and the
// IDs of those that went down this frame.
func (t *touchpad) update(W, H float64, points []touchPoint, just []ebiten.TouchID) touchInput {
	var in touchInput
	if len(points) > 0 {
		t.on = true
	}
	if t.layout.W != W || t.layout.H != H {
		t.layout = layoutTouch(W, H)
	}
	l := &t.layout
	// Fingers lifted release what they held.
	find := func(id ebiten.TouchID) (touchPoint, bool) {
		for _, p := range points {
			if p.ID == id {
				return p, true
			}
		}
		return touchPoint{}, false
	}
	for _, s := range [2]*touchStick{&t.move, &t.aim} {
		if p, ok := find(s.id); s.held && ok {
			s.x, s.y = p.X, p.Y
		} else {
			s.held = false
		}
	}
	for i := range t.buttons {
		if _, ok := find(t.buttonIDs[i]); !ok {
			t.buttons[i] = false
		}
	}
	// New fingers: a button, else the stick of their half.
	for _, id := range just {
		p, ok := find(id)
		if !ok {
			continue
		}
		if b := l.buttonAt(p.X, p.Y, t.paused); b >= 0 {
			t.buttons[b], t.buttonIDs[b] = true, id
			in.Tapped[b] = true
			switch b {
			case touchScores:
				t.scores = !t.scores
			case touchMenu, touchResume:
				in.Keys |= KeyPause
			case touchQuit:
				in.Keys |= KeyQuit
			}
			continue
		}
		s := &t.move
		if p.X >= W/2 {
			s = &t.aim
		}
		if !s.held {
			*s = touchStick{held: true, id: id, baseX: p.X, baseY: p.Y, x: p.X, y: p.Y}
		}
	}
	in.MoveX, in.MoveY, _ = t.move.deflection(l.Radius)
	ax, ay, push := t.aim.deflection(l.Radius)
	if ax != 0 || ay != 0 {
		in.Aim, in.Aiming = math.Atan2(ay, ax), true
	}
	in.Fire = push >= touchFireAt
	in.FireStart = in.Fire && !t.firing
	t.firing = in.Fire
	in.Scores = t.scores
	return in
}

// apply merges a frame of touch input into f, the keyboard's and mouse's
// frame: movement and fire add to the keys', the aim stick overrides the
// mouse's aim (kept in *aim, radians) and the crosshair follows it;
// WEAPON steps *weapon as invnext does. The crosshair's screen position
// comes from v (the player's). Typing or paused: only the scoreboard and
// the window's keys (MENU, RESUME, QUIT).
func (in *touchInput) apply(f *InputFrame, v *InputView, aim *float64, weapon *uint8) {
	f.Keys |= in.Keys
	if in.Scores {
		f.Held |= KeyScores
	}
	if v.Typing || v.Paused {
		return
	}
	i := &f.Input
	i.MoveX = float32(max(min(float64(i.MoveX)+in.MoveX, 1), -1))
	i.MoveY = float32(max(min(float64(i.MoveY)+in.MoveY, 1), -1))
	if in.Aiming {
		*aim = in.Aim
	}
	i.Angle = float32(*aim)
	f.CursorX = v.PlayerX + touchCrosshair*math.Cos(*aim)
	f.CursorY = v.PlayerY + touchCrosshair*math.Sin(*aim)
	if in.Tapped[touchWeapon] {
		*weapon = (*weapon + 1) % shared.NumWeapons
	}
	i.Weapon = *weapon
	// As KeyboardMouse's buttons: the first frame a tap, then held.
	switch {
	case in.FireStart:
		i.Pressed |= shared.ButtonAttack
	case in.Fire:
		i.Buttons |= shared.ButtonAttack
	}
	if in.Tapped[touchReload] {
		i.Pressed |= shared.ButtonReload
	}
	if in.Tapped[touchDash] {
		i.Pressed |= shared.ButtonDash
	}
}

// touchOf returns the touch controls of the window's input source when it
// has any (KeyboardMouse), else nil.
func touchOf(src InputSource) *touchpad {
	if k, ok := src.(*KeyboardMouse); ok {
		return &k.touch
	}
	return nil
}
