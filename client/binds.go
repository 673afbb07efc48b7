//go:build !headless

package client

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/config"
	"tickshot/client/keys"
	"tickshot/internal/cvar"
)

// Key bindings, as Source's `bind KEY COMMAND`: a key held runs a "+"
// command for as long as it is down (+forward, +attack, +showscores); any
// other command runs once per press, as a console line (slot1, invnext,
// messagemode, "incrementvar net_graph 0 3 1"). The defaults are the keys
// the game had before bindings (config.DefaultBinds); config.cfg, written
// by the menu, and autoexec.cfg may change them.

// binding is one bound key, resolved to what Ebiten reports.
type binding struct {
	name, command string
	key           ebiten.Key
	mouse         ebiten.MouseButton
	kind          int // bindKey, bindMouse, bindWheelUp, bindWheelDown
}

const (
	bindKey = iota
	bindMouse
	bindWheelUp
	bindWheelDown
)

// binds is the window's key bindings, in binding order.
type binds struct{ list []binding }

// defaultBinds are the default bindings, for sources without a window's
// (BotInput's UI keys).
var defaultBinds = newBinds()

func newBinds() *binds {
	b := &binds{}
	for _, d := range config.DefaultBinds() {
		_ = b.bind(d.Key, d.Command)
	}
	return b
}

// bind binds key (a keys.Name) to command, replacing its old binding.
func (b *binds) bind(key, command string) error {
	key = strings.ToLower(key)
	bd := binding{name: key, command: command}
	switch {
	case key == "mwheelup":
		bd.kind = bindWheelUp
	case key == "mwheeldown":
		bd.kind = bindWheelDown
	default:
		if m, ok := keys.MouseButtonByName(key); ok {
			bd.kind, bd.mouse = bindMouse, m
		} else if k, ok := keys.ByName(key); ok {
			bd.kind, bd.key = bindKey, k
		} else {
			return fmt.Errorf("%q is not a key name (a..z, 0..9, f1..f12, uparrow, space, enter, tab, shift, ctrl, alt, mouse1..mouse5, mwheelup, mwheeldown, ...)", key)
		}
	}
	for i := range b.list {
		if b.list[i].name == key {
			b.list[i] = bd
			return nil
		}
	}
	b.list = append(b.list, bd)
	return nil
}

func (b *binds) unbind(key string) bool {
	key = strings.ToLower(key)
	for i := range b.list {
		if b.list[i].name == key {
			b.list = append(b.list[:i], b.list[i+1:]...)
			return true
		}
	}
	return false
}

// command returns what key is bound to ("" when nothing).
func (b *binds) command(key string) string {
	for _, bd := range b.list {
		if bd.name == strings.ToLower(key) {
			return bd.command
		}
	}
	return ""
}

// active reports whether the key is held (just false) or went down this
// frame (just true); a wheel turn is both, for the frame it happens in.
func (bd *binding) active(just bool) bool {
	switch {
	case bd.kind == bindKey && just:
		return inpututil.IsKeyJustPressed(bd.key)
	case bd.kind == bindKey:
		return ebiten.IsKeyPressed(bd.key)
	case bd.kind == bindMouse && just:
		return inpututil.IsMouseButtonJustPressed(bd.mouse)
	case bd.kind == bindMouse:
		return ebiten.IsMouseButtonPressed(bd.mouse)
	}
	_, wy := ebiten.Wheel()
	return (bd.kind == bindWheelUp && wy > 0) || (bd.kind == bindWheelDown && wy < 0)
}

// down reports whether a key bound to command is held.
func (b *binds) down(command string) bool { return b.anyKey(command, false) }

// pressed reports whether a key bound to command went down this frame.
func (b *binds) pressed(command string) bool { return b.anyKey(command, true) }

// anyKey reports whether a key bound to command is active (just: went
// down this frame, else held); a nil binds has no keys.
func (b *binds) anyKey(command string, just bool) bool {
	if b == nil {
		return false
	}
	for i := range b.list {
		if b.list[i].command == command && b.list[i].active(just) {
			return true
		}
	}
	return false
}

// pressedCommands returns the commands of the keys pressed this frame
// that the input sources do not read themselves ("+" commands, slots,
// invnext, messagemode, messagemode2), to be run as console lines:
// "incrementvar net_graph 0 3 1" and any console line a player binds. It
// allocates only when a key was pressed.
func (b *binds) pressedCommands() []string {
	var out []string
	for i := range b.list {
		bd := &b.list[i]
		switch bd.command {
		case "slot1", "slot2", "slot3", "invnext", "messagemode", "messagemode2":
			continue
		}
		if !strings.HasPrefix(bd.command, "+") && bd.active(true) {
			out = append(out, bd.command)
		}
	}
	return out
}

// bindCommand is the console's bind: KEY alone shows its binding, KEY
// and a command bind it.
func (b *binds) bindCommand(key string, command []string) string {
	if len(command) == 0 {
		if c := b.command(key); c != "" {
			return fmt.Sprintf("%q = %q", key, c)
		}
		return fmt.Sprintf("%q is not bound", key)
	}
	if err := b.bind(key, strings.Join(command, " ")); err != nil {
		return "error: " + err.Error()
	}
	return ""
}

// incrementVar is Source's `incrementvar CVAR MIN MAX DELTA` on the
// variables of r: add DELTA, wrapping from past MAX to MIN (and below MIN
// to MAX).
func incrementVar(r *cvar.Registry, args []string) string {
	v := r.Lookup(args[0])
	if v == nil {
		return fmt.Sprintf("unknown cvar %q", args[0])
	}
	var n [3]float64
	for i, a := range args[1:] {
		f, err := strconv.ParseFloat(a, 64)
		if err != nil {
			return fmt.Sprintf("error: %q is not a number (usage: %s)", a, consoleCommands.lookup("incrementvar").usage())
		}
		n[i] = f
	}
	x := v.Float() + n[2]
	if x > n[1] {
		x = n[0]
	} else if x < n[0] {
		x = n[1]
	}
	if err := v.Set(formatNumber(x)); err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%s = %s", v.Name, v.String())
}

// lines is the bindings as `bind` lines, sorted by key (the console's
// `binds`).
func (b *binds) lines() string {
	lines := make([]string, 0, len(b.list))
	for _, bd := range b.list {
		lines = append(lines, fmt.Sprintf("bind %s %s", config.Quote(bd.name), config.Quote(bd.command)))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
