//go:build unix && !js

package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grandcat/zeroconf"

	"tickshot/client/netclient"
	"tickshot/net/lan"
	"tickshot/net/proto"
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

// TestServersCommandCleansHostileNames: a LAN announcement (made here with
// zeroconf, beside a fake /status) whose name and map carry a bidi override
// (U+202E draws "evil" as "live"), an escape sequence and a newline is
// listed by `tickshot-server servers` with those removed, in the table and
// in JSON; and a real server started with such a --name is listed too,
// under its cleaned name (it was not listed at all).
func TestServersCommandCleansHostileNames(t *testing.T) {
	_, headless := binaries(t)
	const hostile, clean = "\u202eevil\x1b[31m\n host  \u200bCafé", "evil[31m host Café"
	status := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]any{"name": hostile, "map": "\u202earena", "maxplayers": 8,
			"protocol": proto.ProtocolVersion, "players": []any{}})
	}))
	defer status.Close()
	_, portStr, _ := net.SplitHostPort(status.Listener.Addr().String())
	port, _ := strconv.Atoi(portStr)
	lo, err := net.InterfaceByName("lo")
	if err != nil {
		t.Skip("no interface called lo:", err)
	}
	zs, err := zeroconf.RegisterProxy("hostile "+portStr, lan.ServiceType, lan.Domain, port, "hostile-"+portStr,
		[]string{"127.0.0.1"}, []string{"txtvers=1", "name=" + hostile, "map=\u202earena"}, []net.Interface{*lo})
	if err != nil {
		t.Fatal(err)
	}
	defer zs.Shutdown()
	named, _ := startServerProcess(t, headless, "--name", "\u202eCLI LAN evil")
	connectRetry(t, named, netclient.DefaultConfig("lister"))

	res := runBin(t, headless, nil, "servers", "--json", "--timeout", "2s")
	var list []serverJSON
	if err := json.Unmarshal([]byte(res.stdout), &list); res.code != 0 || err != nil {
		t.Fatalf("servers --json: %v\n%s", err, res)
	}
	var sawFake, sawNamed bool
	for _, s := range list {
		switch s.Addr {
		case status.Listener.Addr().String():
			sawFake = true
			if s.Name != clean || s.Map != "arena" {
				t.Errorf("the hostile announcement is listed as %q on %q: want %q on arena", s.Name, s.Map, clean)
			}
		case named:
			sawNamed = true
			if s.Name != "CLI LAN evil" {
				t.Errorf("the server started with --name U+202E \"CLI LAN evil\" is listed as %q", s.Name)
			}
		}
	}
	if !sawFake || !sawNamed {
		t.Errorf("want both the hostile announcement at %s (%v) and the server at %s (%v) in %s",
			status.Listener.Addr(), sawFake, named, sawNamed, res.stdout)
	}

	res = runBin(t, headless, nil, "servers", "--timeout", "2s")
	if res.code != 0 || !strings.Contains(res.stdout, clean) {
		t.Errorf("servers: want a row named %q, got %s", clean, res)
	}
	if i := strings.IndexFunc(res.stdout, func(r rune) bool { return r != '\n' && proto.Invisible(r) }); i >= 0 {
		t.Errorf("the table carries an invisible character at byte %d:\n%q", i, res.stdout)
	}
}
