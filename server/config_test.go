package server_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"tickshot/server"
)

// everyKind is a server.cfg with one line of every kind the file takes:
// the Config fields, a map cycle, cvars of each type (bool, int, float,
// enum), comments of both styles, trailing comments and quoting.
const everyKind = `// a comment line
# another comment line

hostname "Friday frag #1"   // quoted, with a # inside the quotes
sv_password "let me in"
rcon_password secret42      # a trailing shell-style comment
maxplayers 10
sv_tickrate 32
bot_quota 2
map range
mapcycle range arena
sv_trusted_proxy 127.0.0.1 10.0.0.0/8
sv_trusted_proxy ::1
sv_unlag 0
sv_maxunlag 0.5
mp_fraglimit 7
mp_gamemode tdm
bot_difficulty 2.5
	mp_timelimit   3   // leading tabs and spaces
`

// TestConfigFileEveryLine: a file with every kind of line is applied, and a
// server started from it reads the values back: its cvars through the
// server console, the rest through /status's data and the console.
func TestConfigFileEveryLine(t *testing.T) {
	var cfg server.Config
	if err := server.ParseConfig("server.cfg", everyKind, &cfg); err != nil {
		t.Fatalf("ParseConfig: %v", err)
	}
	if cfg.Hostname != "Friday frag #1" || cfg.Password != "let me in" || cfg.RconPassword != "secret42" ||
		cfg.MaxPlayers != 10 || cfg.TickRate != 32 || cfg.Bots != 2 || cfg.Map != "range" ||
		strings.Join(cfg.MapCycle, ",") != "range,arena" || fmt.Sprint(cfg.TrustedProxies) != "[127.0.0.1/32 10.0.0.0/8 ::1/128]" {
		t.Fatalf("fields: hostname %q password %q rcon %q maxplayers %d tickrate %d bots %d map %q cycle %v proxies %v",
			cfg.Hostname, cfg.Password, cfg.RconPassword, cfg.MaxPlayers, cfg.TickRate, cfg.Bots, cfg.Map, cfg.MapCycle, cfg.TrustedProxies)
	}
	srv, _ := startServer(t, cfg)
	for _, want := range []string{"sv_unlag = 0", "sv_maxunlag = 0.5", "mp_fraglimit = 7", "mp_gamemode = tdm",
		"bot_difficulty = 2.5", "mp_timelimit = 3"} {
		name := strings.Fields(want)[0]
		if got := srv.Exec(name); got != want {
			t.Errorf("console %s: %q, want %q", name, got, want)
		}
	}
	st := srv.CurrentStatus()
	if st.Name != "Friday frag #1" || st.Map != "range" || st.TickRate != 32 || st.MaxPlayers != 10 {
		t.Errorf("status: name %q map %q tickrate %d maxplayers %d", st.Name, st.Map, st.TickRate, st.MaxPlayers)
	}
	bots := 0
	for _, p := range st.Players {
		if p.Bot {
			bots++
		}
	}
	if bots != 2 {
		t.Errorf("%d bots running, want bot_quota 2", bots)
	}
}

// TestConfigFileRefusesBadLines: an unknown cvar and values out of range
// are refused with the file name and line number, every bad line of the
// file at once, and lines around them do not hide them.
func TestConfigFileRefusesBadLines(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"unknown cvar", "hostname x\n\n// comment\nsv_unlag 1\nmp_fraglimit 5\n\nsv_foo 1\n", `server.cfg:7: unknown cvar "sv_foo"`},
		{"unknown with no value", "sv_bar\n", `server.cfg:1: unknown cvar "sv_bar"`},
		{"cvar out of range", "mp_fraglimit 20\nmp_fraglimit 5000\n", `server.cfg:2: mp_fraglimit: 5000 is outside 0..1000`},
		{"float cvar not a number", "sv_maxunlag fast\n", `server.cfg:1: sv_maxunlag: "fast" is not a number (range 0..1)`},
		{"enum cvar", "mp_gamemode ctf\n", `server.cfg:1: mp_gamemode: "ctf" is not one of dm, tdm`},
		{"maxplayers", "maxplayers 0\n", `server.cfg:1: maxplayers: 0 is outside 1..1024`},
		{"tickrate", "\nsv_tickrate 1000\n", `server.cfg:2: sv_tickrate: 1000 is outside 20..128`},
		{"bots above maxplayers", "bot_quota 9\nmaxplayers 4\n", `server.cfg:1: bot_quota 9 is more than maxplayers (4)`},
		{"unknown map", "map dust2\n", `server.cfg:1: no map "dust2" (available: arena, bunker, expanse, foundry, lab, plaza, range, sprawl)`},
		{"unknown map in cycle", "mapcycle arena dust2\n", `server.cfg:1: no map "dust2" (available: arena, bunker, expanse, foundry, lab, plaza, range, sprawl)`},
		{"empty cycle", "mapcycle\n", `server.cfg:1: mapcycle takes one or more map names`},
		{"no trusted proxy", "sv_trusted_proxy\n", `server.cfg:1: sv_trusted_proxy takes one or more IP addresses or CIDR prefixes`},
		{"trusted proxy by name", "sv_trusted_proxy 127.0.0.1 localhost\n", `server.cfg:1: sv_trusted_proxy: trusted proxy "localhost": want an IP address or CIDR prefix`},
		{"two values", "hostname my server\n", `server.cfg:1: hostname takes one value, got 2 (put a value with spaces in double quotes)`},
		{"long hostname", "hostname " + strings.Repeat("h", 65) + "\n", `server.cfg:1: hostname: at most 64 bytes`},
		{"hostname bidi override", "hostname \"evil\u202e\"\n", `server.cfg:1: hostname: at most 64 bytes of printable text (no control or invisible characters such as U+202E)`},
		{"password control char", "sv_password \"a\x01b\"\n", `server.cfg:1: sv_password: at most 48 bytes of printable text`},
	} {
		var cfg server.Config
		err := server.ParseConfig("server.cfg", c.text, &cfg)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to start with %q", c.name, err, c.want)
		}
	}
	// Every bad line is reported, in file order.
	var cfg server.Config
	err := server.ParseConfig("x.cfg", "sv_foo 1\nmp_fraglimit 20\nmaxplayers 1025\n", &cfg)
	if err == nil || err.Error() != "x.cfg:1: unknown cvar \"sv_foo\"\nx.cfg:3: maxplayers: 1025 is outside 1..1024" {
		t.Errorf("two bad lines: %v", err)
	}
}

// TestExampleConfigIsValid: the example shipped in docs parses without an
// error and sets what README says it does (a map cycle of three maps).
func TestExampleConfigIsValid(t *testing.T) {
	var cfg server.Config
	if err := server.LoadConfigFile("../docs/server.cfg.example", &cfg); err != nil {
		t.Fatal(err)
	}
	if strings.Join(cfg.MapCycle, " ") != "arena bunker plaza" || cfg.Hostname == "" || len(cfg.Cvars) < 5 {
		t.Errorf("example: cycle %v, hostname %q, %d cvars", cfg.MapCycle, cfg.Hostname, len(cfg.Cvars))
	}
	if _, err := os.Stat("../docs/server.cfg.example"); err != nil {
		t.Fatal(err)
	}
}
