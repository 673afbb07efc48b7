//go:build !headless

package client

import (
	"math"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/shared"
)

// TestStickDeflection: zero inside the dead zone, the drag's direction
// outside it, rising from 0 at the dead zone's edge to 1 at the rim, and
// clamped beyond; push is the raw length over the radius.
func TestStickDeflection(t *testing.T) {
	const r = 100
	if x, y, push := stickDeflection(10, -5, r); x != 0 || y != 0 || push <= 0 || push >= touchDeadZone {
		t.Errorf("inside the dead zone: (%v, %v) push %v, want (0, 0) and a small push", x, y, push)
	}
	if x, y, _ := stickDeflection(0, 0, r); x != 0 || y != 0 {
		t.Errorf("at the base: (%v, %v)", x, y)
	}
	// Just past the dead zone: slow, in the drag's direction.
	x, y, _ := stickDeflection(r*touchDeadZone+2, 0, r)
	if x <= 0 || x > 0.05 || y != 0 {
		t.Errorf("just past the dead zone to the right: (%v, %v), want a small +x", x, y)
	}
	// At the rim and beyond: length 1, direction kept.
	for _, d := range []float64{r, 3 * r} {
		x, y, push := stickDeflection(-d*0.6, d*0.8, r)
		if math.Abs(math.Hypot(x, y)-1) > 1e-9 || math.Abs(x/y+0.75) > 1e-9 {
			t.Errorf("drag of %v: (%v, %v), want length 1 along (-0.6, 0.8)", d, x, y)
		}
		if math.Abs(push-d/r) > 1e-9 {
			t.Errorf("drag of %v: push %v, want %v", d, push, d/r)
		}
	}
	// Monotonic between the dead zone and the rim.
	last := 0.0
	for d := r * touchDeadZone; d <= r; d += 5 {
		x, _, _ := stickDeflection(d, 0, r)
		if x < last {
			t.Fatalf("deflection fell from %v to %v at %v", last, x, d)
		}
		last = x
	}
	if x, y, _ := stickDeflection(5, 5, 0); x != 0 || y != 0 {
		t.Errorf("zero radius: (%v, %v)", x, y)
	}
}

// touchFrames drives a touchpad on a phone held sideways (844×390).
type touchFrames struct {
	t    *testing.T
	pad  touchpad
	down []touchPoint
}

const phoneW, phoneH = 844, 390

// frame runs one frame with the fingers down; just are the IDs that went
// down in it.
func (f *touchFrames) frame(just ...ebiten.TouchID) touchInput {
	return f.pad.update(phoneW, phoneH, f.down, just)
}

func (f *touchFrames) put(id ebiten.TouchID, x, y float64) {
	for i := range f.down {
		if f.down[i].ID == id {
			f.down[i].X, f.down[i].Y = x, y
			return
		}
	}
	f.down = append(f.down, touchPoint{id, x, y})
}

func (f *touchFrames) lift(id ebiten.TouchID) {
	for i := range f.down {
		if f.down[i].ID == id {
			f.down = append(f.down[:i], f.down[i+1:]...)
			return
		}
	}
}

// TestTouchpadMoveStick: a finger down in the left half is the move stick
// wherever it lands; dragged right it moves right, dragged up-left it
// moves up-left, lifted it stops.
func TestTouchpadMoveStick(t *testing.T) {
	f := &touchFrames{t: t}
	if in := f.frame(); f.pad.on || in.MoveX != 0 {
		t.Fatal("no finger yet: the touch controls are off")
	}
	f.put(1, 150, 250)
	in := f.frame(1)
	if !f.pad.on || in.MoveX != 0 || in.MoveY != 0 || in.Aiming {
		t.Fatalf("finger down: on %v, input %+v; want on, still", f.pad.on, in)
	}
	r := f.pad.layout.Radius
	f.put(1, 150+r, 250)
	if in := f.frame(); in.MoveX < 0.99 || math.Abs(in.MoveY) > 1e-9 || in.Aiming || in.Fire {
		t.Errorf("dragged right by the radius: %+v, want MoveX 1, no aim", in)
	}
	f.put(1, 150-r/2, 250-r/2)
	if in := f.frame(); in.MoveX >= 0 || in.MoveY >= 0 || math.Abs(in.MoveX-in.MoveY) > 1e-9 {
		t.Errorf("dragged up-left: %+v, want equal negative axes", in)
	}
	f.lift(1)
	if in := f.frame(); in.MoveX != 0 || in.MoveY != 0 || f.pad.move.held {
		t.Errorf("lifted: %+v, stick held %v", in, f.pad.move.held)
	}
}

// TestTouchpadAimStick: a finger down in the right half aims along its
// drag; it fires only past touchFireAt of the radius, FireStart once.
func TestTouchpadAimStick(t *testing.T) {
	f := &touchFrames{t: t}
	f.put(1, 150, 250) // a move stick held meanwhile does not interfere
	f.frame(1)
	f.put(2, 600, 250)
	f.frame(2)
	r := f.pad.layout.Radius
	f.put(2, 600, 250-0.5*r) // up, below the fire threshold
	in := f.frame()
	if !in.Aiming || math.Abs(in.Aim+math.Pi/2) > 1e-9 || in.Fire {
		t.Errorf("pushed up half way: %+v, want aim -π/2 without fire", in)
	}
	f.put(2, 600-0.8*r, 250) // left, past the threshold
	in = f.frame()
	if !in.Fire || !in.FireStart || math.Abs(math.Abs(in.Aim)-math.Pi) > 1e-9 {
		t.Errorf("pushed left past %.0f%%: %+v, want aim π, fire starting", 100*touchFireAt, in)
	}
	in = f.frame()
	if !in.Fire || in.FireStart {
		t.Errorf("held past the threshold: %+v, want fire held, not starting again", in)
	}
	f.put(2, 600-0.1*r, 250) // back into the dead zone: no aim change, no fire
	if in := f.frame(); in.Fire || in.Aiming {
		t.Errorf("back in the dead zone: %+v", in)
	}
	f.lift(2)
	if in := f.frame(); in.Fire || f.pad.aim.held {
		t.Errorf("lifted: %+v", in)
	}
}

// TestTouchpadButtons: a finger on a button taps it (and is no stick); the
// scoreboard button toggles.
func TestTouchpadButtons(t *testing.T) {
	f := &touchFrames{t: t}
	f.frame()
	f.pad.layout = layoutTouch(phoneW, phoneH)
	at := func(b touchButton) (float64, float64) {
		p := f.pad.layout.Buttons[b]
		return p[0] + f.pad.layout.ButtonW/2, p[1] + f.pad.layout.Button/2
	}
	x, y := at(touchReload)
	f.put(7, x, y)
	in := f.frame(7)
	if !in.Tapped[touchReload] || f.pad.aim.held || in.Aiming {
		t.Errorf("reload pressed: %+v, aim stick held %v", in, f.pad.aim.held)
	}
	if in := f.frame(); in.Tapped[touchReload] {
		t.Error("reload tapped again while the finger stays")
	}
	f.lift(7)
	f.frame()
	x, y = at(touchScores)
	f.put(8, x, y)
	if in := f.frame(8); !in.Scores {
		t.Error("scores tapped: the scoreboard is not on")
	}
	f.lift(8)
	if in := f.frame(); !in.Scores {
		t.Error("scores released: the scoreboard went off (it is a toggle)")
	}
	f.put(9, x, y)
	if in := f.frame(9); in.Scores {
		t.Error("scores tapped twice: the scoreboard is still on")
	}
}

// TestTouchpadPauseButtons: MENU opens the pause screen; on it (drawn
// with its buttons) RESUME and QUIT are the live buttons and the others
// are not; off it, a finger where QUIT would be is a stick.
func TestTouchpadPauseButtons(t *testing.T) {
	f := &touchFrames{t: t}
	f.frame()
	f.pad.layout = layoutTouch(phoneW, phoneH)
	l := &f.pad.layout
	at := func(b touchButton) (float64, float64) {
		p := l.Buttons[b]
		return p[0] + l.ButtonW/2, p[1] + l.Button/2
	}
	tap := func(id ebiten.TouchID, b touchButton) touchInput {
		x, y := at(b)
		f.put(id, x, y)
		in := f.frame(id)
		f.lift(id)
		f.frame()
		return in
	}
	if in := tap(1, touchQuit); in.Keys != 0 || in.Tapped[touchQuit] {
		t.Errorf("QUIT tapped while playing (not shown): %+v", in)
	}
	if in := tap(2, touchMenu); in.Keys != KeyPause {
		t.Errorf("MENU tapped: keys %b, want KeyPause", in.Keys)
	}
	f.pad.paused = true // as draw sets it under the pause screen
	if in := tap(3, touchReload); in.Tapped[touchReload] {
		t.Error("RELOAD tapped on the pause screen (not shown there)")
	}
	if in := tap(4, touchQuit); in.Keys != KeyQuit {
		t.Errorf("QUIT tapped on the pause screen: keys %b, want KeyQuit", in.Keys)
	}
	if in := tap(5, touchResume); in.Keys != KeyPause {
		t.Errorf("RESUME tapped: keys %b, want KeyPause", in.Keys)
	}
	// The keys pass while paused, when the game's input does not.
	var fr InputFrame
	aim, weapon := 0.0, uint8(0)
	in := touchInput{Keys: KeyQuit, MoveX: 1}
	in.apply(&fr, &InputView{Paused: true}, &aim, &weapon)
	if fr.Keys != KeyQuit || fr.Input.MoveX != 0 {
		t.Errorf("paused: keys %b, move %v; want KeyQuit and no move", fr.Keys, fr.Input.MoveX)
	}
}

// TestTouchInputApply: the touch frame becomes the same usercmd input a
// keyboard and mouse make: axes, aim, the trigger as a tap then held,
// reload and dash as taps, the next weapon, the scoreboard held; paused,
// only the scoreboard.
func TestTouchInputApply(t *testing.T) {
	v := &InputView{PlayerX: 400, PlayerY: 200}
	aim, weapon := 0.0, uint8(shared.NumWeapons-1)
	in := touchInput{MoveX: 0.5, MoveY: -1, Aim: math.Pi / 2, Aiming: true, Fire: true, FireStart: true, Scores: true}
	in.Tapped[touchReload], in.Tapped[touchWeapon] = true, true
	var f InputFrame
	f.Input.MoveX = 1 // a key held as well: the sum is clamped
	in.apply(&f, v, &aim, &weapon)
	i := f.Input
	if i.MoveX != 1 || i.MoveY != -1 {
		t.Errorf("axes (%v, %v), want (1, -1)", i.MoveX, i.MoveY)
	}
	if aim != math.Pi/2 || i.Angle != float32(math.Pi/2) {
		t.Errorf("aim %v, angle %v", aim, i.Angle)
	}
	if math.Abs(f.CursorX-400) > 1e-9 || math.Abs(f.CursorY-(200+touchCrosshair)) > 1e-9 {
		t.Errorf("crosshair at (%v, %v), want below the player", f.CursorX, f.CursorY)
	}
	if i.Pressed != shared.ButtonAttack|shared.ButtonReload || i.Buttons != 0 {
		t.Errorf("pressed %b buttons %b, want attack and reload pressed", i.Pressed, i.Buttons)
	}
	if weapon != 0 || i.Weapon != 0 {
		t.Errorf("weapon %d (input %d), want the next after the last: 0", weapon, i.Weapon)
	}
	if f.Held&KeyScores == 0 {
		t.Error("scoreboard not held")
	}
	// The next frame: the trigger held.
	in = touchInput{Fire: true}
	in.Tapped[touchDash] = true
	f = InputFrame{}
	in.apply(&f, v, &aim, &weapon)
	if f.Input.Buttons != shared.ButtonAttack || f.Input.Pressed != shared.ButtonDash {
		t.Errorf("held: buttons %b pressed %b, want attack held and dash pressed", f.Input.Buttons, f.Input.Pressed)
	}
	if f.Input.Angle != float32(math.Pi/2) {
		t.Errorf("the aim is not kept when the stick is let go: %v", f.Input.Angle)
	}
	// Paused: no game input, the scoreboard still.
	v.Paused = true
	in = touchInput{MoveX: 1, Fire: true, FireStart: true, Scores: true}
	f = InputFrame{}
	in.apply(&f, v, &aim, &weapon)
	if f.Input.MoveX != 0 || f.Input.Pressed != 0 || f.Held&KeyScores == 0 {
		t.Errorf("paused: %+v held %b", f.Input, f.Held)
	}
}

// TestTouchLayoutFitsScreens: on a phone and a tablet (as Game.Layout
// sizes their screens) the buttons are at least touchMinButton, on screen,
// apart, and clear of the sticks' resting places.
func TestTouchLayoutFitsScreens(t *testing.T) {
	for _, s := range [][2]float64{{844, 390}, {1035, 720}, {1280, 720}, {640, 360}} {
		l := layoutTouch(s[0], s[1])
		if l.Button < touchMinButton || l.Radius < touchMinButton {
			t.Errorf("%v: button %v, stick radius %v, want ≥ %d", s, l.Button, l.Radius, touchMinButton)
		}
		for i, p := range l.Buttons {
			if i < int(touchColumn) && p[0] < s[0]/2 {
				t.Errorf("%v: button %d at %v outside the screen's right half", s, i, p)
			}
			if p[0] < 0 || p[0]+l.ButtonW > s[0] || p[1] < 0 || p[1]+l.Button > s[1] {
				t.Errorf("%v: button %d at %v off the screen", s, i, p)
			}
			if i > 0 && i < int(touchColumn) && p[1] < l.Buttons[i-1][1]+l.Button {
				t.Errorf("%v: button %d overlaps the one above", s, i)
			}
			paused := touchButton(i) == touchResume || touchButton(i) == touchQuit
			if b := l.buttonAt(p[0]+1, p[1]+1, paused); b != touchButton(i) {
				t.Errorf("%v: buttonAt on button %d gives %d", s, i, b)
			}
			if b := l.buttonAt(p[0]+1, p[1]+1, !paused); b == touchButton(i) {
				t.Errorf("%v: button %d is live when it is not shown", s, i)
			}
		}
		if p := l.Buttons[touchResume]; p[1] < s[1]/2+74 || l.Buttons[touchQuit][0] < p[0]+l.ButtonW {
			t.Errorf("%v: RESUME at %v over the pause screen's text or QUIT (%v) on it", s, p, l.Buttons[touchQuit])
		}
		if m := l.Buttons[touchMenu]; m[1]+l.Button > l.MoveY-l.Radius {
			t.Errorf("%v: MENU (%v) reaches into the move stick's resting place", s, m)
		}
		if b := l.buttonAt(l.AimX, l.AimY, false); b >= 0 {
			t.Errorf("%v: the aim stick rests on button %d", s, b)
		}
		if l.MoveX-l.Radius < 0 || l.MoveY+l.Radius > s[1] || l.MoveX+l.Radius > s[0]/2 || l.AimX-l.Radius < s[0]/2 {
			t.Errorf("%v: sticks at (%v, %v) and (%v, %v) radius %v leave their halves", s, l.MoveX, l.MoveY, l.AimX, l.AimY, l.Radius)
		}
	}
}
