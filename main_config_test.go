//go:build !js

package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tickshot/server"
)

// writeCfg writes text to a file called name in a test directory.
func writeCfg(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestServerConfigFileRefused: `server --config FILE` with an unknown cvar
// or a value out of range exits with status 2 before listening, naming the
// file and line; a missing file is refused too.
func TestServerConfigFileRefused(t *testing.T) {
	bad := writeCfg(t, "server.cfg", "hostname ok\nmp_fraglimit 10\n\n// fine so far\nsv_unlag 1\nbot_quota 1\nsv_foo 1\n")
	var out, errb bytes.Buffer
	if code := run([]string{"server", "--config", bad, "--addr", "127.0.0.1:0", "--lan=false"}, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2; stderr %q", code, errb.String())
	}
	if want := bad + `:7: unknown cvar "sv_foo"`; !strings.Contains(errb.String(), want) {
		t.Errorf("stderr %q, want it to contain %q", errb.String(), want)
	}
	errb.Reset()
	rng := writeCfg(t, "range.cfg", "mp_timelimit 601\n")
	if code := run([]string{"server", "--config", rng, "--addr", "127.0.0.1:0", "--lan=false"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), rng+":1: mp_timelimit: 601 is outside 0..600") {
		t.Errorf("out of range: exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"server", "--config", filepath.Join(t.TempDir(), "none.cfg"), "--lan=false"}, &out, &errb); code != 2 ||
		!strings.Contains(errb.String(), "none.cfg") {
		t.Errorf("missing file: exit %d, stderr %q", code, errb.String())
	}
}

// TestServerFlagsOverrideConfigFile: flags given on the command line win
// over the file (--cvar after the file's cvars), what they do not give
// comes from the file, and the flags' defaults do not hide the file.
func TestServerFlagsOverrideConfigFile(t *testing.T) {
	p := writeCfg(t, "server.cfg", "hostname \"from file\"\nmaxplayers 10\nbot_quota 4\nmp_fraglimit 20\nsv_unlag 0\nmapcycle range arena\nrcon_password filepw\n")
	fs := newFlags("server", "", io.Discard)
	sf := addServerFlags(fs, server.DefaultAddr, 0)
	if err := fs.Parse([]string{"--config", p, "--maxplayers", "6", "--cvar", "mp_fraglimit=9", "--rcon-password", "flagpw"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := sf.resolve(fs, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.MaxPlayers != 6 || cfg.Bots != 4 || cfg.Hostname != "from file" || cfg.RconPassword != "flagpw" ||
		cfg.Map != "" || strings.Join(cfg.MapCycle, " ") != "range arena" || cfg.TickRate != server.DefaultTickRate {
		t.Errorf("config: maxplayers %d bots %d hostname %q rcon %q map %q cycle %v tickrate %d",
			cfg.MaxPlayers, cfg.Bots, cfg.Hostname, cfg.RconPassword, cfg.Map, cfg.MapCycle, cfg.TickRate)
	}
	last := map[string]string{}
	for _, kv := range cfg.Cvars {
		last[kv[0]] = kv[1]
	}
	if last["mp_fraglimit"] != "9" || last["sv_unlag"] != "0" {
		t.Errorf("cvars in order %v: want mp_fraglimit 9 (the flag) and sv_unlag 0 (the file)", cfg.Cvars)
	}
	// --map and --mapcycle on the command line beat the file's cycle.
	fs = newFlags("server", "", io.Discard)
	sf = addServerFlags(fs, server.DefaultAddr, 0)
	_ = fs.Parse([]string{"--config", p, "--map", "arena", "--mapcycle", "arena,range"})
	if cfg, err = sf.resolve(fs, io.Discard); err != nil || cfg.Map != "arena" || strings.Join(cfg.MapCycle, " ") != "arena range" {
		t.Errorf("--map/--mapcycle: map %q cycle %v err %v", cfg.Map, cfg.MapCycle, err)
	}
}
