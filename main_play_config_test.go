//go:build !js && !headless

package main

import (
	"bytes"
	"flag"
	"io"
	"strings"
	"testing"

	"tickshot/server"
)

// TestPlayServerConfig: play --server-config refuses a bad file with its
// file:line before any window opens (exit 2), and a good one configures
// the local server with the flags given on the command line winning.
func TestPlayServerConfig(t *testing.T) {
	bad := writeCfg(t, "listen.cfg", "maxplayers 6\nmp_nonsense 1\n")
	var out, errb bytes.Buffer
	if code := run([]string{"play", "--server-config", bad, "--lan=false"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), bad+`:2: unknown cvar "mp_nonsense"`) {
		t.Errorf("bad file: exit %d, stderr %q", code, errb.String())
	}

	good := writeCfg(t, "listen.cfg", "hostname \"LAN party\"\nmaxplayers 6\nbot_quota 5\nmapcycle range arena\nmp_fraglimit 3\n")
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	bots := fs.Int("bots", 3, "")
	fs.String("map", "", "")
	if err := fs.Parse([]string{"--bots", "1"}); err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{Bots: *bots, Hostname: "alice's game", TickRate: 64}
	if err := playServerConfig(fs, good, &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Bots != 1 || cfg.MaxPlayers != 6 || cfg.Hostname != "LAN party" || cfg.Map != "" ||
		strings.Join(cfg.MapCycle, " ") != "range arena" || len(cfg.Cvars) != 1 || cfg.Cvars[0] != [2]string{"mp_fraglimit", "3"} {
		t.Errorf("listen server config: bots %d maxplayers %d hostname %q map %q cycle %v cvars %v",
			cfg.Bots, cfg.MaxPlayers, cfg.Hostname, cfg.Map, cfg.MapCycle, cfg.Cvars)
	}
}
