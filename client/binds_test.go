//go:build !headless

package client

import (
	"strings"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/config"
	"tickshot/client/netclient"
)

// The console's bind, unbind and unbindall change what a key does; the
// defaults are the keys the game had before bindings.
func TestConsoleBind(t *testing.T) {
	g := newTestGame(Options{})
	for cmd, key := range map[string]string{"+forward": "w", "+attack": "mouse1", "+showscores": "tab",
		"messagemode": "y", "messagemode2": "u", "invnext": "mwheelup", "incrementvar net_graph 0 3 1": "f3"} {
		if got := g.binds.command(key); got != cmd {
			t.Errorf("default: %s is bound to %q, want %q", key, got, cmd)
		}
	}
	if out := g.exec(`bind "i" "+forward"`); out != "" {
		t.Fatalf("bind: %q", out)
	}
	if out := g.exec(`bind f5 say gg wp`); out != "" || g.binds.command("f5") != "say gg wp" {
		t.Errorf("bind f5 say gg wp: %q, bound %q", out, g.binds.command("f5"))
	}
	if out := g.exec("bind i"); out != `"i" = "+forward"` {
		t.Errorf("bind i shows %q", out)
	}
	if out := g.exec("bind nosuchkey +attack"); !strings.HasPrefix(out, "error") {
		t.Errorf("an unknown key: %q", out)
	}
	g.exec("unbind w")
	if g.binds.command("w") != "" || g.binds.command("uparrow") != "+forward" {
		t.Errorf("unbind w: w %q, uparrow %q", g.binds.command("w"), g.binds.command("uparrow"))
	}
	if !strings.Contains(g.exec("binds"), `bind "i" "+forward"`) {
		t.Errorf("binds lacks the new binding:\n%s", g.exec("binds"))
	}
	g.exec("unbindall")
	if len(g.binds.list) != 0 || g.exec("binds") != "" {
		t.Errorf("unbindall left %v", g.binds.list)
	}
}

// incrementvar steps a cvar and wraps around its range, as F3 does.
func TestIncrementVar(t *testing.T) {
	g := newTestGame(Options{})
	var got []string
	for i := 0; i < 5; i++ {
		g.exec("incrementvar net_graph 0 3 1")
		got = append(got, g.cvars.Lookup("net_graph").String())
	}
	if strings.Join(got, " ") != "1 2 3 0 1" {
		t.Errorf("net_graph went %v, want 1 2 3 0 1", got)
	}
	if out := g.exec("incrementvar nosuch 0 1 1"); !strings.HasPrefix(out, "unknown") {
		t.Errorf("unknown cvar: %q", out)
	}
}

// config.cfg, as the menu writes it, sets the cvars and replaces the
// bindings before autoexec.cfg; a cvar this version lacks or a value out
// of range is reported in the console and skipped.
func TestSettingsApplied(t *testing.T) {
	cfg := config.New()
	cfg.Name = "alice"
	cfg.Set("volume", "0.25")
	cfg.Set("sensitivity", "2.5")
	cfg.Set("net_graph", "2")
	cfg.Set("cl_interp_ratio", "1")
	cfg.Set("rate", "99")
	cfg.Set("no_such_cvar", "1")
	cfg.Rebind("+forward", "i")
	g := newTestGame(Options{Settings: cfg, Config: netclient.DefaultConfig("x")})
	if err := g.initCvars(); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"volume": "0.25", "sensitivity": "2.5", "net_graph": "2",
		"cl_interp_ratio": "1", "rate": "196608"} {
		if v := g.cvars.Lookup(name).String(); v != want {
			t.Errorf("%s = %s, want %s", name, v, want)
		}
	}
	if g.opt.Config.InterpRatio != 1 {
		t.Errorf("cl_interp_ratio did not reach the netcode: %v", g.opt.Config.InterpRatio)
	}
	if g.binds.command("i") != "+forward" || g.binds.command("w") != "" || g.binds.command("s") != "+back" {
		t.Errorf("bindings: i %q, w %q, s %q", g.binds.command("i"), g.binds.command("w"), g.binds.command("s"))
	}
	text := strings.Join(g.con.lines, "\n")
	if !strings.Contains(text, "no_such_cvar") || !strings.Contains(text, "rate") {
		t.Errorf("the console does not say what was skipped:\n%s", text)
	}
}

// A key's binding resolves to the key Ebiten reports.
func TestBindResolvesKeys(t *testing.T) {
	b := &binds{}
	for key, want := range map[string]binding{
		"w": {kind: bindKey, key: ebiten.KeyW}, "uparrow": {kind: bindKey, key: ebiten.KeyArrowUp},
		"1": {kind: bindKey, key: ebiten.KeyDigit1}, "f3": {kind: bindKey, key: ebiten.KeyF3},
		"mouse2": {kind: bindMouse, mouse: ebiten.MouseButtonRight}, "mwheeldown": {kind: bindWheelDown},
		"SPACE": {kind: bindKey, key: ebiten.KeySpace},
	} {
		if err := b.bind(key, "x"); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		got := b.list[len(b.list)-1]
		if got.kind != want.kind || got.key != want.key || got.mouse != want.mouse {
			t.Errorf("%s resolves to %+v, want %+v", key, got, want)
		}
	}
}
