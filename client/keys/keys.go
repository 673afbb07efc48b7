//go:build !headless

// Package keys names the keys, mouse buttons and wheel directions as
// Source's `bind` does, for the console's bindings and the menu that
// edits them.
package keys

import (
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
)

// Key names are Source's, as `bind` takes them: letters and digits as
// typed ("w", "1"), "uparrow", "space", "enter", "tab", "shift", "ctrl",
// "alt", "f1".."f12", "mouse1".."mouse5" (left, right, middle, back,
// forward), "mwheelup", "mwheeldown"; other keys by Ebiten's name in lower
// case ("semicolon", "numpad5").

var sourceKeyNames = map[ebiten.Key]string{
	ebiten.KeyArrowUp: "uparrow", ebiten.KeyArrowDown: "downarrow",
	ebiten.KeyArrowLeft: "leftarrow", ebiten.KeyArrowRight: "rightarrow",
	ebiten.KeyShiftLeft: "shift", ebiten.KeyShiftRight: "rshift",
	ebiten.KeyControlLeft: "ctrl", ebiten.KeyControlRight: "rctrl",
	ebiten.KeyAltLeft: "alt", ebiten.KeyAltRight: "ralt",
	ebiten.KeyNumpadEnter: "kp_enter", ebiten.KeyBackquote: "`",
}

// Name is key's name in bind lines.
func Name(k ebiten.Key) string {
	if n, ok := sourceKeyNames[k]; ok {
		return n
	}
	s := k.String()
	if strings.HasPrefix(s, "Digit") {
		return s[len("Digit"):]
	}
	return strings.ToLower(s)
}

// sourceButtons are Source's mouse1..mouse5: left, right, middle, back,
// forward (Ebiten numbers the middle button before the right one).
var sourceButtons = [5]ebiten.MouseButton{ebiten.MouseButtonLeft, ebiten.MouseButtonRight,
	ebiten.MouseButtonMiddle, ebiten.MouseButton3, ebiten.MouseButton4}

// MouseButtonName is a mouse button's name in bind lines (mouse1..mouse5).
func MouseButtonName(b ebiten.MouseButton) string {
	for i, s := range sourceButtons {
		if s == b {
			return "mouse" + string(rune('1'+i))
		}
	}
	return ""
}

var keysByName map[string]ebiten.Key

// ByName returns the key called name (Name's inverse); ok is false
// for a mouse button, the wheel or an unknown name.
func ByName(name string) (ebiten.Key, bool) {
	if keysByName == nil {
		keysByName = map[string]ebiten.Key{}
		for k := ebiten.Key(0); k <= ebiten.KeyMax; k++ {
			keysByName[Name(k)] = k
		}
	}
	k, ok := keysByName[strings.ToLower(name)]
	return k, ok
}

// MouseButtonByName returns the mouse button called name (mouse1..mouse5).
func MouseButtonByName(name string) (ebiten.MouseButton, bool) {
	if len(name) == 6 && strings.HasPrefix(name, "mouse") && name[5] >= '1' && name[5] <= '5' {
		return sourceButtons[name[5]-'1'], true
	}
	return 0, false
}

// Known reports whether name is a key, mouse button or wheel direction
// that `bind` takes.
func Known(name string) bool {
	if name == "mwheelup" || name == "mwheeldown" {
		return true
	}
	if _, ok := MouseButtonByName(name); ok {
		return true
	}
	_, ok := ByName(name)
	return ok
}
