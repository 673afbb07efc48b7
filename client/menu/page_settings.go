//go:build !headless

package menu

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/config"
	"tickshot/client/keys"
	"tickshot/client/palette"
)

// The settings page's choices.
var (
	rates        = []int{20000, 40000, 80000, 196608, 786432}
	interpRatios = []string{"1", "2", "3", "4", "5"}
)

// settingsScreen is the settings page: sliders, a box and buttons for
// the settings' cvars, and a button a key binding, which waits for the
// new key when clicked (capture). It changes them through prefs, so
// through the console, and shows the console's refusal.
type settingsScreen struct {
	k     *kit
	prefs *prefs
	sens  *widget.Slider
	vol   *widget.Slider
	full  *widget.Checkbox
	// colour steps through the player colours (cl_color).
	colour  *widget.Button
	refresh []func() // the cyclers' refreshes
	binds   map[string]*widget.Button
	status  *widget.Text
	// capture is the command whose key is awaited ("" when none).
	capture string
}

// newSettingsScreen builds the settings page; show switches pages.
func newSettingsScreen(k *kit, p *prefs, show func(screen)) (*settingsScreen, *widget.Container) {
	s := &settingsScreen{k: k, prefs: p}
	root, col := k.page("Settings", wideWidth)
	s.status = label("", &k.f.small, palette.Warn)
	col.AddChild(s.status)
	left := widget.NewContainer(widget.ContainerOpts.Layout(widget.NewRowLayout(
		widget.RowLayoutOpts.Direction(widget.DirectionVertical), widget.RowLayoutOpts.Spacing(8))))
	right := widget.NewContainer(widget.ContainerOpts.Layout(widget.NewRowLayout(
		widget.RowLayoutOpts.Direction(widget.DirectionVertical), widget.RowLayoutOpts.Spacing(4))))
	col.AddChild(row(left, right))

	sensLabel := label("Mouse sensitivity", &k.f.small, palette.Dim)
	s.sens = widget.NewSlider(widget.SliderOpts.WidgetOpts(stretch(), widget.WidgetOpts.MinSize(0, 24)),
		widget.SliderOpts.MinMax(1, 50),
		widget.SliderOpts.ChangedHandler(func(a *widget.SliderChangedEventArgs) {
			v := config.FormatTenths(a.Current)
			sensLabel.Label = "Mouse sensitivity: " + v
			s.changeCvar("sensitivity", v, "1")
		}))
	volLabel := label("Volume", &k.f.small, palette.Dim)
	s.vol = widget.NewSlider(widget.SliderOpts.WidgetOpts(stretch(), widget.WidgetOpts.MinSize(0, 24)),
		widget.SliderOpts.MinMax(0, 100),
		widget.SliderOpts.ChangedHandler(func(a *widget.SliderChangedEventArgs) {
			volLabel.Label = fmt.Sprintf("Volume: %d %%", a.Current)
			s.changeCvar("volume", strconv.FormatFloat(float64(a.Current)/100, 'f', -1, 64), "1")
		}))
	s.full = widget.NewCheckbox(widget.CheckboxOpts.TextLabel("Fullscreen"),
		widget.CheckboxOpts.StateChangedHandler(func(a *widget.CheckboxChangedEventArgs) {
			s.changeCvar("r_fullscreen", map[bool]string{true: "1", false: "0"}[a.State == widget.WidgetChecked], "0")
		}))
	ngB, ngR := cycler(func() string { return "net_graph: " + p.cvar("net_graph", "0") }, func() {
		n, _ := strconv.Atoi(p.cvar("net_graph", "0"))
		s.setCvar("net_graph", strconv.Itoa((n+1)%4))
	})
	irB, irR := cycler(func() string { return "cl_interp_ratio: " + p.cvar("cl_interp_ratio", "2") }, func() {
		cur := p.cvar("cl_interp_ratio", "2")
		i := (slices.Index(interpRatios, cur) + 1) % len(interpRatios)
		s.setCvar("cl_interp_ratio", interpRatios[i])
	})
	rateB, rateR := cycler(func() string {
		n, _ := strconv.Atoi(p.cvar("rate", "196608"))
		return fmt.Sprintf("rate: %d (%d KB/s)", n, n/1024)
	}, func() {
		n, _ := strconv.Atoi(p.cvar("rate", "196608"))
		s.setCvar("rate", strconv.Itoa(nextOf(rates, n, 0)))
	})
	var colR func()
	s.colour, colR = cycler(func() string { return "Colour: " + colourName(p.cvar("cl_color", "0")) }, func() {
		n, _ := strconv.Atoi(p.cvar("cl_color", "0"))
		s.setCvar("cl_color", strconv.Itoa((n+1)%(len(palette.Players)+1)))
	})
	s.refresh = append(s.refresh, ngR, irR, rateR, colR)
	left.AddChild(s.colour, sensLabel, s.sens, volLabel, s.vol, s.full, ngB, irB, rateB,
		label("net_graph: the network overlay (F3)\ncl_interp_ratio: snapshot intervals of interpolation\nrate: most bytes/s the server may send you", &k.f.small, palette.Dim))

	right.AddChild(label("Keys (click, then press the new key)", &k.f.small, palette.Dim))
	s.binds = map[string]*widget.Button{}
	for _, a := range config.Actions {
		b := widget.NewButton(widget.ButtonOpts.WidgetOpts(stretch()), widget.ButtonOpts.TextLabel(""),
			widget.ButtonOpts.TextFace(&k.f.mono),
			widget.ButtonOpts.TextPosition(widget.TextPositionStart, widget.TextPositionCenter),
			widget.ButtonOpts.TextPadding(&widget.Insets{Left: 10, Right: 10, Top: 3, Bottom: 3}),
			widget.ButtonOpts.ClickedHandler(func(*widget.ButtonClickedEventArgs) { s.startCapture(a.Command) }))
		s.binds[a.Command] = b
		right.AddChild(b)
	}
	col.AddChild(row(button("Default keys", s.defaultKeys), button("Back", func() { show(scrMain) })))
	return s, root
}

// enter shows the current values and puts the keyboard on the first
// slider.
func (s *settingsScreen) enter() {
	p := s.prefs
	if f, err := strconv.ParseFloat(p.cvar("sensitivity", "1"), 64); err == nil {
		s.sens.Current = min(max(int(f*10+0.5), 1), 50)
	}
	if f, err := strconv.ParseFloat(p.cvar("volume", "1"), 64); err == nil {
		s.vol.Current = min(max(int(f*100+0.5), 0), 100)
	}
	state := widget.WidgetUnchecked
	if p.cvar("r_fullscreen", "0") == "1" {
		state = widget.WidgetChecked
	}
	s.full.SetState(state)
	for _, r := range s.refresh {
		r()
	}
	s.refreshBinds()
	s.k.ui.SetFocusedWidget(s.sens)
}

// colourName is cl_color's value v as the menu names it: "automatic" for
// 0, else its palette.Players name.
func colourName(v string) string {
	if n, err := strconv.Atoi(v); err == nil && n >= 1 && n <= len(palette.Players) {
		return palette.Players[n-1].Name
	}
	return "automatic"
}

// setCvar sets a cvar through prefs and shows the console's refusal (or
// clears the last one).
func (s *settingsScreen) setCvar(name, value string) { s.status.Label = s.prefs.setCvar(name, value) }

// changeCvar sets a cvar when value differs from its value (def when
// unset): the widgets report the values they were given as changes too.
func (s *settingsScreen) changeCvar(name, value, def string) {
	if strings.TrimSpace(value) != s.prefs.cvar(name, def) {
		s.setCvar(name, value)
	}
}

// refreshBinds writes each binding's button: its action and at most two
// keys, or the wait for a key.
func (s *settingsScreen) refreshBinds() {
	for _, a := range config.Actions {
		ks := s.prefs.cfg.KeysOf(a.Command)
		if len(ks) > 2 {
			ks = append(ks[:2:2], "...")
		}
		k := strings.ToUpper(strings.Join(ks, ", "))
		if k == "" {
			k = "(none)"
		}
		label := fmt.Sprintf("%-16s %s", a.Label, k)
		if s.capture == a.Command {
			label = fmt.Sprintf("%-16s press a key (Esc cancels)", a.Label)
		}
		s.binds[a.Command].Text().Label = label
	}
}

// capturing reports whether a binding waits for its key: the menu's
// other input waits meanwhile.
func (s *settingsScreen) capturing() bool { return s.capture != "" }

// startCapture makes command's binding wait for a key.
func (s *settingsScreen) startCapture(command string) {
	s.capture = command
	s.refreshBinds()
}

// cancelCapture gives up waiting for a key.
func (s *settingsScreen) cancelCapture() {
	if s.capture != "" {
		s.capture = ""
		s.refreshBinds()
	}
}

// captureKey reads this frame's input for the key awaited: Esc cancels,
// any other key, mouse button or wheel turn is bound.
func (s *settingsScreen) captureKey() {
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		s.cancelCapture()
		return
	}
	s.bindCaptured(justPressed())
}

// bindCaptured binds the key named (keys.Name's names) to the command
// awaited; "" (nothing pressed) and "`" (the console's key) keep waiting.
func (s *settingsScreen) bindCaptured(name string) {
	if name == "" || name == "`" {
		return
	}
	s.rebind(s.capture, name)
	s.capture = ""
	s.refreshBinds()
}

// rebind makes key the one key of command and shows it, or shows the
// console's refusal (the binding then still waits, when it did).
func (s *settingsScreen) rebind(command, key string) {
	if out := s.prefs.rebind(command, key); out != "" {
		s.status.Label = out
		return
	}
	s.capture = ""
	s.refreshBinds()
}

// defaultKeys puts the default bindings back and shows them.
func (s *settingsScreen) defaultKeys() {
	s.prefs.defaultKeys()
	s.refreshBinds()
}

// justPressed names the key, mouse button or wheel turn pressed this
// frame (keys.Name's names, "mwheelup", "mwheeldown"), "" when none; a
// mouse button or the wheel wins over a key.
func justPressed() string {
	name := ""
	if pressed := inpututil.AppendJustPressedKeys(nil); len(pressed) > 0 {
		name = keys.Name(pressed[0])
	}
	for b := ebiten.MouseButton0; b <= ebiten.MouseButtonMax; b++ {
		if n := keys.MouseButtonName(b); n != "" && inpututil.IsMouseButtonJustPressed(b) {
			name = n
		}
	}
	if _, wy := ebiten.Wheel(); wy > 0 {
		name = "mwheelup"
	} else if wy < 0 {
		name = "mwheeldown"
	}
	return name
}
