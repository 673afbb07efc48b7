//go:build !headless

package menu

import (
	"context"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ebitenui/ebitenui/widget"
	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/config"
	"tickshot/client/palette"
)

// The tests run the menu inside an Ebiten game loop (TestMain), as the
// window does: widgets are updated and drawn on the loop's goroutine. It
// needs a display: xvfb-run -a go test ./client/menu

type loopT struct {
	jobs chan func(screen *ebiten.Image)
	quit chan struct{}
}

var loop = &loopT{jobs: make(chan func(*ebiten.Image)), quit: make(chan struct{})}

func (l *loopT) Update() error {
	select {
	case <-l.quit:
		return ebiten.Termination
	default:
		return nil
	}
}

func (l *loopT) Draw(screen *ebiten.Image) {
	select {
	case f := <-l.jobs:
		f(screen)
	default:
	}
}

func (*loopT) Layout(int, int) (int, int) { return 1280, 720 }

// onLoop runs f in a frame of the loop.
func onLoop(f func(screen *ebiten.Image)) {
	done := make(chan struct{})
	loop.jobs <- func(s *ebiten.Image) { f(s); close(done) }
	<-done
}

// do runs f on the loop's goroutine: building and changing widgets lays
// text out, which must not race with Ebiten's frames.
func do(f func()) { onLoop(func(*ebiten.Image) { f() }) }

// newMenu builds a menu on the loop's goroutine.
func newMenu(opt Options) *Menu {
	var m *Menu
	do(func() { m = New(opt) })
	return m
}

// frames runs the menu for n frames (Update and Draw).
func frames(m *Menu, n int) {
	for i := 0; i < n; i++ {
		onLoop(func(s *ebiten.Image) { m.Update(); m.Draw(s) })
	}
}

func TestMain(m *testing.M) {
	if os.Getenv("DISPLAY") == "" {
		println("client/menu: no DISPLAY; run under xvfb-run")
		os.Exit(1)
	}
	code := make(chan int, 1)
	go func() {
		code <- m.Run()
		close(loop.quit)
	}()
	ebiten.SetWindowSize(1280, 720)
	if err := ebiten.RunGame(loop); err != nil {
		panic(err)
	}
	os.Exit(<-code)
}

// fakeConsole is the game's console as the menu sees it: cvars with a
// range check, and the lines run.
type fakeConsole struct {
	lines []string
	cvars map[string]string
}

func (c *fakeConsole) Exec(line string) string {
	c.lines = append(c.lines, line)
	f := config.Fields(line)
	if v, ok := c.cvars[f[0]]; ok && len(f) == 2 {
		if f[0] == "volume" && (f[1] > "1" && f[1] != "1") {
			return "error: volume: " + f[1] + " is outside 0..1"
		}
		_ = v
		c.cvars[f[0]] = f[1]
		return f[0] + " = " + f[1]
	}
	return ""
}

func (c *fakeConsole) Cvar(name string) string { return c.cvars[name] }

func newConsole() *fakeConsole {
	return &fakeConsole{cvars: map[string]string{"volume": "1", "sensitivity": "1", "net_graph": "0",
		"cl_interp_ratio": "2", "rate": "196608", "r_fullscreen": "0"}}
}

// The name typed in the menu reaches the game and is there the next time
// the menu opens.
func TestNamePersists(t *testing.T) {
	dir := t.TempDir()
	var played string
	m := newMenu(Options{Dir: dir, DefaultName: "user", PlayBots: func(n string) { played = n }})
	if m.main.name.GetText() != "user" {
		t.Fatalf("name field %q, want the default %q", m.main.name.GetText(), "user")
	}
	do(func() { m.main.name.SetText("  alice\x01 ") })
	frames(m, 2)
	do(func() { m.main.play.Click() })
	frames(m, 1) // ebitenui runs handlers in the next update
	if played != "alice" {
		t.Fatalf("PlayBots got %q, want alice", played)
	}
	b, err := os.ReadFile(filepath.Join(dir, config.FileName))
	if err != nil || !strings.Contains(string(b), `name "alice"`) {
		t.Fatalf("config.cfg: %q, %v", b, err)
	}
	cfg, err := config.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	m2 := newMenu(Options{Dir: dir, Config: cfg, DefaultName: "user"})
	if got := m2.main.name.GetText(); got != "alice" {
		t.Errorf("a new menu shows name %q, want alice", got)
	}
}

func TestValidName(t *testing.T) {
	for in, want := range map[string]string{"": "player", "  ": "player", "a\"b": "ab",
		strings.Repeat("é", 20): strings.Repeat("é", 12), "bob\n": "bob"} {
		if got := ValidName(in); got != want {
			t.Errorf("ValidName(%q) = %q, want %q", in, got, want)
		}
	}
}

// Joining by address remembers the server first in the recent list, and
// the recent list's buttons join it again.
func TestRecentServers(t *testing.T) {
	dir := t.TempDir()
	var joins []JoinOptions
	m := newMenu(Options{Dir: dir, DefaultName: "bob", Join: func(o JoinOptions) { joins = append(joins, o) }})
	do(func() { m.show(scrJoin) })
	for _, a := range []string{"10.0.0.1:27015", "10.0.0.2", "10.0.0.1:27015"} {
		do(func() { m.join.addr.SetText(a) })
		do(func() { m.JoinAddr(m.join.addr.GetText()) })
	}
	if len(joins) != 3 || joins[1].Addr != "10.0.0.2" || joins[2].Player != "bob" {
		t.Fatalf("joins: %+v", joins)
	}
	if got := config.LoadRecent(dir); !reflect.DeepEqual(got, []string{"10.0.0.1:27015", "10.0.0.2"}) {
		t.Fatalf("recent.txt: %v", got)
	}
	do(func() { m.show(scrMain) })
	do(func() { m.show(scrJoin) })
	kids := m.join.recentC.Children()
	if len(kids) != 2 {
		t.Fatalf("%d recent buttons, want 2", len(kids))
	}
	do(func() { kids[1].(*widget.Button).Click() })
	frames(m, 1)
	if last := joins[len(joins)-1]; last.Addr != "10.0.0.2" {
		t.Errorf("the recent button joined %q", last.Addr)
	}
}

// Settings go through the console as typed lines and are saved only when
// the console takes them.
func TestSettingsSetCvars(t *testing.T) {
	dir := t.TempDir()
	con := newConsole()
	m := newMenu(Options{Dir: dir, Console: con})
	do(func() { m.show(scrSettings) })
	frames(m, 3) // the widgets take the console's values: nothing is set
	if len(con.lines) != 0 {
		t.Fatalf("opening the settings ran %q", con.lines)
	}
	do(func() { m.settings.vol.Current = 40 })
	frames(m, 2)
	do(func() { m.SetCvar("volume", "7") })
	want := []string{"volume 0.4", "volume 7"}
	if !reflect.DeepEqual(con.lines, want) {
		t.Fatalf("console ran %q, want %q", con.lines, want)
	}
	if !strings.HasPrefix(m.settings.status.Label, "error") {
		t.Errorf("a refused value shows %q", m.settings.status.Label)
	}
	cfg, _ := config.Load(dir)
	if v, _ := cfg.Get("volume"); v != "0.4" {
		t.Errorf("config.cfg has volume %q, want 0.4 (the refused 7 not saved)", v)
	}
	do(func() { m.settings.full.SetState(widget.WidgetChecked) })
	frames(m, 2)
	if con.cvars["r_fullscreen"] != "1" {
		t.Errorf("the fullscreen box set r_fullscreen %q", con.cvars["r_fullscreen"])
	}
}

// A binding made in the menu runs unbind and bind in the console, and
// config.cfg read back has it.
func TestBindsWrittenAndReadBack(t *testing.T) {
	dir := t.TempDir()
	con := newConsole()
	m := newMenu(Options{Dir: dir, Console: con})
	do(func() { m.show(scrSettings) })
	do(func() { m.settings.binds["+forward"].Click() })
	frames(m, 1)
	if m.settings.capture != "+forward" {
		t.Fatalf("clicking the binding waits for %q", m.settings.capture)
	}
	do(func() { m.Rebind("+forward", "i") })
	want := []string{`unbind "w"`, `unbind "uparrow"`, `bind "i" "+forward"`}
	if !reflect.DeepEqual(con.lines, want) {
		t.Fatalf("console ran %q, want %q", con.lines, want)
	}
	if l := m.settings.binds["+forward"].Text().Label; !strings.HasSuffix(l, " I") {
		t.Errorf("the binding shows %q", l)
	}
	cfg, err := config.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k := cfg.KeysOf("+forward"); !reflect.DeepEqual(k, []string{"i"}) {
		t.Errorf("config.cfg binds +forward to %v", k)
	}
	if k := cfg.KeysOf("+back"); !reflect.DeepEqual(k, []string{"s", "downarrow"}) {
		t.Errorf("config.cfg lost +back's keys: %v", k)
	}
	do(func() { m.DefaultKeys() })
	cfg, _ = config.Load(dir)
	if !reflect.DeepEqual(cfg.Binds, config.DefaultBinds()) {
		t.Errorf("default keys not saved: %v", cfg.Binds)
	}
}

// The LAN list shows each server's row, live; a double click joins, a
// server with a password asks for it first.
func TestServerListJoins(t *testing.T) {
	list := []Server{{Addr: "127.0.0.1:1", Name: "open", Map: "arena", Players: 2, MaxPlayers: 8, Ping: 3 * time.Millisecond},
		{Addr: "127.0.0.1:2", Name: "locked", Map: "range", Players: 1, MaxPlayers: 4, Password: true}}
	now := time.Unix(100, 0)
	var joins []JoinOptions
	m := newMenu(Options{Servers: func() []Server { return append([]Server(nil), list...) }, CanSpectate: true,
		Join: func(o JoinOptions) { joins = append(joins, o) }})
	m.join.now = func() time.Time { return now }
	do(func() { m.show(scrJoin) })
	if len(m.join.rows) != 2 {
		t.Fatalf("%d rows", len(m.join.rows))
	}
	if txt := m.join.rows["127.0.0.1:1"].Text().Label; !strings.Contains(txt, "open") || !strings.Contains(txt, "arena") ||
		!strings.Contains(txt, "2/8") || !strings.Contains(txt, "3 ms") {
		t.Errorf("row %q lacks name, map, players/max or ping", txt)
	}
	list = append(list, Server{Addr: "127.0.0.1:3", Name: "new", Map: "arena", MaxPlayers: 16})
	now = now.Add(time.Second)
	frames(m, 1)
	if len(m.join.rows) != 3 {
		t.Fatalf("the list was not refreshed: %d rows", len(m.join.rows))
	}
	do(func() { m.join.rowClicked("127.0.0.1:1", false) })
	if len(joins) != 0 {
		t.Fatalf("one click joined")
	}
	now = now.Add(200 * time.Millisecond)
	do(func() { m.join.rowClicked("127.0.0.1:1", false) })
	if len(joins) != 1 || joins[0].Addr != "127.0.0.1:1" {
		t.Fatalf("a double click did not join: %+v", joins)
	}
	m.join.spectate = true
	m.join.rowClicked("127.0.0.1:2", true) // Enter on the row
	if m.Screen() != "password" || len(joins) != 1 {
		t.Fatalf("a locked server: screen %s, joins %+v", m.Screen(), joins)
	}
	do(func() { m.pass.input.SetText("hunter2") })
	do(func() { m.pass.input.Submit() })
	frames(m, 1)
	if len(joins) != 2 || joins[1] != (JoinOptions{Player: "player", Addr: "127.0.0.1:2", Password: "hunter2", Spectate: true}) {
		t.Fatalf("joins: %+v", joins)
	}
}

// The menu is drawn in the game's colours with its title.
func TestDrawsTitle(t *testing.T) {
	m := newMenu(Options{DefaultName: "x"})
	var accent, bg int
	frames(m, 2)
	onLoop(func(s *ebiten.Image) {
		m.Update()
		m.Draw(s)
		b := s.Bounds()
		px := make([]byte, 4*b.Dx()*b.Dy())
		s.ReadPixels(px)
		for i := 0; i < len(px); i += 4 {
			c := color.RGBA{px[i], px[i+1], px[i+2], 0xff}
			switch c {
			case palette.Me:
				accent++
			case palette.BG:
				bg++
			}
		}
	})
	if accent < 500 || bg < 1280*720/2 {
		t.Errorf("%d title pixels, %d background pixels", accent, bg)
	}
}

// TestScreenshots writes a PNG of each page into $TICKSHOT_MENU_SHOTS
// (skipped without it): how README's picture is made.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("TICKSHOT_MENU_SHOTS")
	if dir == "" {
		t.Skip("set TICKSHOT_MENU_SHOTS to a directory")
	}
	list := []Server{{Addr: "192.168.1.20:27015", Name: "alice's game", Map: "arena", Players: 3, MaxPlayers: 16, Ping: 2 * time.Millisecond},
		{Addr: "192.168.1.31:27015", Name: "LAN party", Map: "range", Players: 7, MaxPlayers: 8, Password: true, Ping: 5 * time.Millisecond}}
	inet := []Server{{Addr: "203.0.113.7:27015", Name: "Frankfurt FFA #1", Map: "arena", Players: 9, Bots: 2, MaxPlayers: 16},
		{Addr: "198.51.100.3:27015", Name: "duel night", Map: "range", Players: 1, MaxPlayers: 2, Password: true},
		{Addr: "192.0.2.44:27015", Name: "bots only", Map: "arena", Bots: 4, MaxPlayers: 8}}
	con := newConsole()
	con.cvars["cl_master"] = "http://master.example:8300"
	m := newMenu(Options{Dir: t.TempDir(), DefaultName: "bob", Console: con, Maps: []string{"arena", "range"}, CanSpectate: true,
		Servers:  func() []Server { return list },
		Internet: func(context.Context, string) ([]Server, error) { return inet, nil },
		Status: func(_ context.Context, addr string) (Server, error) {
			for _, s := range inet {
				if s.Addr == addr {
					s.Ping = time.Duration(len(addr)) * 3 * time.Millisecond
					return s, nil
				}
			}
			return Server{}, os.ErrNotExist
		}})
	for _, s := range []screen{scrMain, scrHost, scrJoin, scrSettings, scrInternet} {
		do(func() { m.show(s) })
		if s == scrInternet {
			do(func() { m.inet.setFavourite("192.0.2.44:27015", true) })
			time.Sleep(200 * time.Millisecond) // the fetch and pings, in the background
		}
		frames(m, 3)
		onLoop(func(sc *ebiten.Image) {
			m.Update()
			m.Draw(sc)
			f, err := os.Create(filepath.Join(dir, m.Screen()+".png"))
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			if err := png.Encode(f, sc); err != nil {
				t.Error(err)
			}
		})
	}
}

// The host page's choices reach Host: map, bots (never more than the
// slots), slots, tick rate within the limits, name and password.
func TestHostOptions(t *testing.T) {
	var got []HostOptions
	m := newMenu(Options{DefaultName: "ann", Maps: []string{"arena", "range"}, MaxPlayersLimit: 8, MinTickRate: 20, MaxTickRate: 100,
		HostPassword: true, Host: func(o HostOptions) { got = append(got, o) }})
	do(func() { m.show(scrHost) })
	do(func() { m.Host() })
	if len(got) != 1 || got[0] != (HostOptions{Player: "ann", Hostname: "ann's game", Map: "arena", Bots: 3, MaxPlayers: 8, TickRate: 64}) {
		t.Fatalf("defaults: %+v", got)
	}
	h := m.host
	do(func() { h.mapIdx = 1 })
	do(func() { h.hostname.SetText(`  LAN "party"  `) })
	do(func() { h.password.SetText("hunter2") })
	do(func() { h.maxPlayers = nextOf([]int{2, 4, 8, 12}, 8, h.maxPlayersLimit) }) // wraps to 2 under the limit 8
	do(func() { h.bots = min(h.bots, h.maxPlayers) })
	do(func() { h.tickRate = nextOf([]int{20, 32, 64, 100, 128}, 100, h.maxTickRate) })
	do(func() { m.Host() })
	want := HostOptions{Player: "ann", Hostname: "LAN party", Map: "range", Bots: 2, MaxPlayers: 2, TickRate: 20, Password: "hunter2"}
	if got[1] != want {
		t.Errorf("host options %+v, want %+v", got[1], want)
	}
}
