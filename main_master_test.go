//go:build unix && !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tickshot/net/master"
)

// TestInternetServers runs the internet list as users do, with the built
// tickshot-server: a master (`master --addr`), two game servers started
// with --master (one with bots and --region), and `servers --internet`:
// the servers register at start, the master lists them with what their
// /status says, and the list shows them, pinged, in JSON (with the region)
// and in the LAN list's table. Without --master it lists the masters of
// the game's cl_master, and with none is refused with a sentence; SIGTERM
// stops the master with status 0.
func TestInternetServers(t *testing.T) {
	_, headless := binaries(t)
	url := "http://127.0.0.1:" + strconv.Itoa(pickPort(t))
	mcmd := exec.Command(headless, "master", "--addr", strings.TrimPrefix(url, "http://"))
	var mlog bytes.Buffer
	mcmd.Stdout, mcmd.Stderr = &mlog, &mlog
	if err := mcmd.Start(); err != nil {
		t.Fatal(err)
	}
	mdone := make(chan error, 1)
	go func() { mdone <- mcmd.Wait() }()
	defer func() {
		_ = mcmd.Process.Kill()
		if t.Failed() {
			t.Logf("master log:\n%s", mlog.String())
		}
	}()
	a, _ := startServerProcess(t, headless, "--name", "CLI internet a", "--bots", "2", "--maxplayers", "6",
		"--master", url, "--region", "eu-west", "--lan=false")
	b, _ := startServerProcess(t, headless, "--name", "CLI internet b", "--map", "range", "--master", url, "--lan=false")

	deadline := time.Now().Add(20 * time.Second)
	for {
		l, err := master.Fetch(context.Background(), nil, url)
		if err == nil && len(l) == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the master does not list both servers after 20 s: %+v, %v", l, err)
		}
		time.Sleep(100 * time.Millisecond)
	}

	res := runBin(t, headless, nil, "servers", "--internet", "--master", url, "--json")
	if res.code != 0 {
		t.Fatalf("servers --internet --json: %s", res)
	}
	var list []internetServerJSON
	if err := json.Unmarshal([]byte(res.stdout), &list); err != nil || len(list) != 2 {
		t.Fatalf("servers --internet --json: want a JSON array of 2: %v\n%s", err, res)
	}
	for _, s := range list {
		switch s.Addr {
		case a:
			if s.Name != "CLI internet a" || s.Bots != 2 || s.MaxPlayers != 6 || s.Region != "eu-west" || s.PingMs <= 0 || s.Password {
				t.Errorf("%s listed as %+v: want its name, 2 bots, 6 slots, region eu-west, a ping", a, s)
			}
		case b:
			if s.Name != "CLI internet b" || s.Map != "range" || s.Region != "" || s.PingMs <= 0 {
				t.Errorf("%s listed as %+v: want its name, map range, no region, a ping", b, s)
			}
		default:
			t.Errorf("listed a server that was not started: %+v", s)
		}
	}

	res = runBin(t, headless, nil, "servers", "--internet", "--master", url)
	if res.code != 0 || !strings.Contains(res.stdout, "NAME") {
		t.Fatalf("servers --internet: want a table, got %s", res)
	}
	row := ""
	for _, line := range strings.Split(res.stdout, "\n") {
		if strings.Contains(line, a) {
			row = line
		}
	}
	for _, want := range []string{"CLI internet a", "2/6 (2 bots)", " ms", "no"} {
		if !strings.Contains(row, want) {
			t.Errorf("table row %q for %s lacks %q:\n%s", row, a, want, res.stdout)
		}
	}

	// Without --master: the masters of the game's cl_master (config.cfg,
	// saved by the menu's Internet tab), a dead one beside the live one
	// said on stderr; with none saved, a sentence and status 2.
	saved := t.TempDir()
	if err := os.MkdirAll(filepath.Join(saved, "tickshot"), 0o755); err != nil {
		t.Fatal(err)
	}
	dead := "http://127.0.0.1:" + strconv.Itoa(pickPort(t))
	if err := os.WriteFile(filepath.Join(saved, "tickshot", "config.cfg"), []byte(`cl_master "`+dead+` `+url+`"`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = runBin(t, headless, append(os.Environ(), "XDG_CONFIG_HOME="+saved), "servers", "--internet", "--json")
	if err := json.Unmarshal([]byte(res.stdout), &list); res.code != 0 || err != nil || len(list) != 2 || !strings.Contains(res.stderr, dead) {
		t.Errorf("servers --internet with cl_master %q: want both servers and the dead master named on stderr, got %s", dead+" "+url, res)
	}
	res = runBin(t, headless, append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir()), "servers", "--internet")
	if res.code != 2 || !strings.Contains(res.stderr, "--internet needs --master URL") {
		t.Errorf("servers --internet without --master nor cl_master: want status 2 and a sentence, got %s", res)
	}
	res = runBin(t, headless, nil, "server", "--master", "master.example")
	if res.code != 2 || !strings.Contains(res.stderr, "want an URL such as http://") {
		t.Errorf("server --master without a scheme: want status 2 naming the form, got %s", res)
	}

	_ = mcmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-mdone:
		if err != nil || !strings.Contains(mlog.String(), "master server stopped") {
			t.Errorf("master after SIGTERM: %v, want status 0 and its last line\n%s", err, mlog.String())
		}
	case <-time.After(10 * time.Second):
		t.Errorf("the master still runs 10 s after SIGTERM")
	}
}
