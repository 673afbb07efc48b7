//go:build !headless

package menu

import (
	"reflect"
	"strings"
	"testing"

	"github.com/ebitenui/ebitenui/widget"

	"tickshot/client/config"
)

// refusingConsole refuses every bind.
type refusingConsole struct{ *fakeConsole }

func (c refusingConsole) Exec(line string) string {
	c.fakeConsole.Exec(line)
	if strings.HasPrefix(line, "bind ") {
		return "error: bind: no"
	}
	return ""
}

// newSettings builds the settings page alone, over con.
func newSettings(con Console) *settingsScreen {
	var s *settingsScreen
	do(func() {
		k := newKit()
		var root *widget.Container
		s, root = newSettingsScreen(k, &prefs{cfg: config.New(), console: con, warn: func(string) {}}, func(screen) {})
		k.validate(root)
		s.enter()
	})
	return s
}

// Key capture: a click waits for a key; nothing pressed and the console's
// key keep waiting; a key is bound through the console; Esc cancels.
func TestSettingsKeyCapture(t *testing.T) {
	con := newConsole()
	s := newSettings(con)
	forward := s.binds["+forward"]
	if l := forward.Text().Label; !strings.HasSuffix(l, " W, UPARROW") {
		t.Fatalf("+forward shows %q", l)
	}
	do(func() { s.startCapture("+forward") })
	if !s.capturing() || !strings.Contains(forward.Text().Label, "press a key") {
		t.Fatalf("capture %q, label %q", s.capture, forward.Text().Label)
	}
	do(func() { s.bindCaptured(""); s.bindCaptured("`") })
	if !s.capturing() || len(con.lines) != 0 {
		t.Fatalf("nothing pressed or ` stopped the wait: capture %q, console %q", s.capture, con.lines)
	}
	do(func() { s.bindCaptured("mwheelup") })
	if want := []string{`unbind "w"`, `unbind "uparrow"`, `bind "mwheelup" "+forward"`}; !reflect.DeepEqual(con.lines, want) {
		t.Fatalf("console ran %q, want %q", con.lines, want)
	}
	if s.capturing() || !strings.HasSuffix(forward.Text().Label, " MWHEELUP") {
		t.Errorf("after the key: capture %q, label %q", s.capture, forward.Text().Label)
	}
	do(func() { s.startCapture("+back"); s.cancelCapture() })
	if s.capturing() || !strings.HasSuffix(s.binds["+back"].Text().Label, " S, DOWNARROW") {
		t.Errorf("after cancelling: capture %q, label %q", s.capture, s.binds["+back"].Text().Label)
	}
}

// A binding the console refuses shows its refusal and is not saved.
func TestSettingsBindRefused(t *testing.T) {
	s := newSettings(refusingConsole{newConsole()})
	do(func() { s.startCapture("+forward"); s.rebind("+forward", "i") })
	if s.status.Label != "error: bind: no" {
		t.Errorf("status %q, want the console's refusal", s.status.Label)
	}
	if k := s.prefs.cfg.KeysOf("+forward"); !reflect.DeepEqual(k, []string{"w", "uparrow"}) {
		t.Errorf("a refused binding changed +forward's keys to %v", k)
	}
}

// The colour button steps cl_color through automatic and the eight
// colours through the console, saved in config.cfg, and shows the saved
// one when the menu opens again.
func TestSettingsColour(t *testing.T) {
	dir := t.TempDir()
	con := newConsole()
	con.cvars["cl_color"] = "0"
	m := newMenu(Options{Dir: dir, Console: con})
	do(func() { m.show(scrSettings) })
	s := m.settings
	click := func() {
		do(func() { s.colour.Click() })
		frames(m, 1)
	}
	if l := s.colour.Text().Label; l != "Colour: automatic" {
		t.Fatalf("colour button %q, want automatic", l)
	}
	click()
	click()
	if l := s.colour.Text().Label; l != "Colour: orange" || con.cvars["cl_color"] != "2" {
		t.Fatalf("after two clicks: %q, cl_color %q; want orange, 2", l, con.cvars["cl_color"])
	}
	if cfg, err := config.Load(dir); err != nil {
		t.Fatal(err)
	} else if v, _ := cfg.Get("cl_color"); v != "2" {
		t.Errorf("config.cfg has cl_color %q, want 2", v)
	}
	for range 7 { // yellow .. pink, then automatic
		click()
	}
	if l := s.colour.Text().Label; l != "Colour: automatic" || con.cvars["cl_color"] != "0" {
		t.Errorf("after nine clicks: %q, cl_color %q; want automatic, 0", l, con.cvars["cl_color"])
	}
	m2 := newMenu(Options{Dir: dir}) // no console: config.cfg's value
	do(func() { m2.prefs.cfg.Set("cl_color", "5"); m2.show(scrSettings) })
	if l := m2.settings.colour.Text().Label; l != "Colour: teal" {
		t.Errorf("the page opened on cl_color 5 shows %q", l)
	}
}
