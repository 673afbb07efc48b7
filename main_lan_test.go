//go:build unix && !js

package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/lan"
)

// TestServersCommand runs three real tickshot-server processes, one with
// --lan=false, one with --password, joins each with a client, and lists the
// LAN with `tickshot-server servers`: the announced ones are there with
// their name, map, players and bots and whether a password is needed (never
// the password), in JSON and in the table; the one with --lan=false is not.
func TestServersCommand(t *testing.T) {
	_, headless := binaries(t)
	addr, _ := startServerProcess(t, headless, "--name", "CLI LAN test", "--map", "range", "--bots", "1", "--maxplayers", "5")
	quiet, _ := startServerProcess(t, headless, "--name", "CLI LAN quiet", "--lan=false")
	locked, _ := startServerProcess(t, headless, "--name", "CLI LAN locked", "--password", "hunter2")
	connectRetry(t, addr, netclient.DefaultConfig("lister"))
	connectRetry(t, quiet, netclient.DefaultConfig("lister"))
	withPw := netclient.DefaultConfig("lister")
	withPw.Password = "hunter2"
	connectRetry(t, locked, withPw)

	res := runBin(t, headless, nil, "servers", "--json", "--timeout", "2s")
	if res.code != 0 {
		t.Fatalf("servers --json: %s", res)
	}
	var list []serverJSON
	if err := json.Unmarshal([]byte(res.stdout), &list); err != nil {
		t.Fatalf("servers --json printed no JSON array: %v\n%s", err, res)
	}
	if strings.Contains(res.stdout, "hunter2") {
		t.Errorf("the list shows a password:\n%s", res.stdout)
	}
	var found *serverJSON
	sawLocked := false
	for i, s := range list {
		if s.Addr == addr {
			found = &list[i]
		}
		if s.Addr == locked {
			sawLocked = true
			if !s.Password || s.Name != "CLI LAN locked" || s.Players != 1 {
				t.Errorf("the server started with --password is listed as %+v: want password true, 1 player", s)
			}
		}
		if s.Addr == quiet || s.Name == "CLI LAN quiet" {
			t.Errorf("the server started with --lan=false is listed: %+v", s)
		}
	}
	if found == nil || !sawLocked {
		t.Fatalf("%s or %s is not in the list: %s", addr, locked, res.stdout)
	}
	if found.Name != "CLI LAN test" || found.Map != "range" || found.Players != 1 || found.Bots != 1 || found.MaxPlayers != 5 ||
		found.Password || found.PingMs <= 0 {
		t.Errorf("listed as %+v: want name \"CLI LAN test\", map range, 1 player, 1 bot, 5 slots, no password, a ping", *found)
	}

	res = runBin(t, headless, nil, "servers", "--timeout", "1500ms")
	if res.code != 0 || !strings.Contains(res.stdout, "NAME") {
		t.Fatalf("servers: want a table, got %s", res)
	}
	for _, line := range strings.Split(res.stdout, "\n") {
		if strings.Contains(line, addr) {
			for _, want := range []string{"CLI LAN test", "range", "2/5 (1 bot)", " ms", "no"} {
				if !strings.Contains(line, want) {
					t.Errorf("table row %q lacks %q", line, want)
				}
			}
			return
		}
	}
	t.Errorf("the table has no row for %s:\n%s", addr, res.stdout)
}

// TestServersCommandEmpty: on a network where nobody announces (a new
// network namespace with only loopback up), `servers` says so and exits 0.
func TestServersCommandEmpty(t *testing.T) {
	_, headless := binaries(t)
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare(1)")
	}
	if err := exec.Command("unshare", "-n", "true").Run(); err != nil {
		t.Skipf("cannot make a network namespace here: %v", err)
	}
	res := runBin(t, "unshare", nil, "-n", "sh", "-c", `ip link set lo up 2>/dev/null || ifconfig lo up; exec "$0" servers --timeout 1s`, headless)
	if res.code != 0 || !strings.Contains(res.stdout, "no servers found") {
		t.Errorf("servers on an empty network: want \"no servers found\" and status 0, got %s", res)
	}
	res = runBin(t, "unshare", nil, "-n", "sh", "-c", `ip link set lo up 2>/dev/null || ifconfig lo up; exec "$0" servers --json --timeout 1s`, headless)
	if res.code != 0 || strings.TrimSpace(res.stdout) != "[]" {
		t.Errorf("servers --json on an empty network: want [] and status 0, got %s", res)
	}
}

// TestServersListDropsAFrozenServer: a server process that stops answering
// (SIGSTOP: no goodbye, no /status, no mDNS) leaves a live list (the list
// promises 10 s: lan.Expiry and a query round; an idle machine keeps it,
// and the test logs it), and comes back once it runs again. The waits are
// longer, so that a busy machine does not fail them.
func TestServersListDropsAFrozenServer(t *testing.T) {
	_, headless := binaries(t)
	addr, srv := startServerProcess(t, headless, "--name", "CLI LAN frozen")
	connectRetry(t, addr, netclient.DefaultConfig("watcher"))
	b, err := lan.NewBrowser()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	listed := func() bool {
		for _, s := range b.Servers() {
			if s.Addr == addr {
				return true
			}
		}
		return false
	}
	wait := func(want bool, limit time.Duration) time.Duration {
		t.Helper()
		t0 := time.Now()
		for listed() != want {
			if time.Since(t0) > limit {
				t.Fatalf("listed %v after %v, want %v; list %+v", !want, limit, want, b.Servers())
			}
			time.Sleep(50 * time.Millisecond)
		}
		return time.Since(t0)
	}
	wait(true, 15*time.Second)
	if err := srv.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Signal(syscall.SIGCONT)
	gone := wait(false, lan.Expiry+15*time.Second)
	if err := srv.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	back := wait(true, 20*time.Second)
	t.Logf("gone %v after SIGSTOP, back %v after SIGCONT", gone.Round(time.Millisecond), back.Round(time.Millisecond))
}
