//go:build !headless

package menu

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tickshot/client/config"
)

// newPrefs is prefs over a new config.cfg in dir, with warnings kept.
func newPrefs(dir string, con Console, warned *[]string) *prefs {
	return &prefs{dir: dir, cfg: config.New(), console: con, warn: func(s string) { *warned = append(*warned, s) }}
}

// A setting goes through the console and is saved only when taken.
func TestPrefsSetCvar(t *testing.T) {
	dir := t.TempDir()
	con := newConsole()
	var warned []string
	p := newPrefs(dir, con, &warned)
	if out := p.setCvar("volume", "0.5"); out != "" {
		t.Fatalf("volume 0.5 refused: %q", out)
	}
	if out := p.setCvar("volume", "7"); out == "" || !refused(out) {
		t.Fatalf("volume 7 gave %q, want the console's refusal", out)
	}
	if got := p.cvar("volume", "1"); got != "0.5" {
		t.Errorf("cvar volume %q, want 0.5", got)
	}
	if got := p.cvar("unknown_cvar", "def"); got != "def" {
		t.Errorf("an unset cvar reads %q, want its default", got)
	}
	cfg, err := config.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := cfg.Get("volume"); v != "0.5" {
		t.Errorf("config.cfg volume %q, want 0.5", v)
	}
	if len(warned) != 0 {
		t.Errorf("warnings %q", warned)
	}
}

// Without a console a setting is only kept in config.cfg; a name is
// cleaned, and saved only when it changes.
func TestPrefsWithoutConsole(t *testing.T) {
	var warned []string
	p := newPrefs("", nil, &warned)
	if out := p.setCvar("rate", "80000"); out != "" {
		t.Fatalf("refused without a console: %q", out)
	}
	if got := p.cvar("rate", "196608"); got != "80000" {
		t.Errorf("cvar rate %q, want 80000 from config.cfg", got)
	}
	p.setName(" ann\"\x01 ")
	if p.cfg.Name != "ann" {
		t.Errorf("name %q, want ann", p.cfg.Name)
	}
	if p.recent() != nil {
		t.Errorf("recent servers without a directory: %v", p.recent())
	}
}

// A failure to save shows through warn.
func TestPrefsSaveFailureWarns(t *testing.T) {
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var warned []string
	p := newPrefs(notDir, nil, &warned) // config.cfg cannot be written under a file
	p.setName("bob")
	if len(warned) != 1 || !strings.HasPrefix(warned[0], "Settings not saved: ") {
		t.Errorf("warnings %q, want one 'Settings not saved: ...'", warned)
	}
}

// Rebinding unbinds the command's keys and binds the new one, and the
// defaults come back with unbindall; both are saved.
func TestPrefsRebindAndDefaults(t *testing.T) {
	dir := t.TempDir()
	con := newConsole()
	var warned []string
	p := newPrefs(dir, con, &warned)
	if out := p.rebind("+forward", "i"); out != "" {
		t.Fatalf("rebind refused: %q", out)
	}
	want := []string{`unbind "w"`, `unbind "uparrow"`, `bind "i" "+forward"`}
	if !reflect.DeepEqual(con.lines, want) {
		t.Fatalf("console ran %q, want %q", con.lines, want)
	}
	cfg, _ := config.Load(dir)
	if k := cfg.KeysOf("+forward"); !reflect.DeepEqual(k, []string{"i"}) {
		t.Errorf("config.cfg binds +forward to %v", k)
	}
	con.lines = nil
	p.defaultKeys()
	if len(con.lines) != 1+len(config.DefaultBinds()) || con.lines[0] != "unbindall" {
		t.Errorf("defaults ran %q", con.lines)
	}
	cfg, _ = config.Load(dir)
	if !reflect.DeepEqual(cfg.Binds, config.DefaultBinds()) {
		t.Errorf("default keys not saved: %v", cfg.Binds)
	}
}

// The servers joined are remembered newest first, once each.
func TestPrefsRecent(t *testing.T) {
	var warned []string
	p := newPrefs(t.TempDir(), nil, &warned)
	for _, a := range []string{"a:1", "b:2", "a:1"} {
		p.addRecent(a)
	}
	if got := p.recent(); !reflect.DeepEqual(got, []string{"a:1", "b:2"}) {
		t.Errorf("recent %v, want [a:1 b:2]", got)
	}
}
