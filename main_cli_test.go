//go:build !js

package main

// These tests run the built binaries as a user would: the headless
// tickshot-server (no display needed) and the windowed tickshot, the latter
// also without a display. Run them alone with
//   go test -tags headless -run 'TestCLI|TestWithDefaultPort' .
// (no display needed), or under xvfb-run with the window tests.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tickshot/internal/cli"
)

var built struct {
	once     sync.Once
	dir      string
	full     string // tickshot, with the window
	headless string // tickshot-server
	err      error
}

// binaries builds tickshot-server (CGO_ENABLED=0, -tags headless) and, if
// the window tests have not already, tickshot, once per test run.
func binaries(t *testing.T) (full, headless string) {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "tickshot-cli-test")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		built.headless = filepath.Join(dir, "tickshot-server")
		cmd := exec.Command("go", "build", "-tags", "headless", "-o", built.headless, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = errors.New("go build -tags headless: " + err.Error() + "\n" + string(out))
			return
		}
		built.full = binPath
		if built.full == "" {
			built.full = filepath.Join(dir, "tickshot")
			if out, err := exec.Command("go", "build", "-o", built.full, ".").CombinedOutput(); err != nil {
				built.err = errors.New("go build: " + err.Error() + "\n" + string(out))
			}
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.full, built.headless
}

// removeBuilt deletes what binaries built (TestMain calls it).
func removeBuilt() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// result is one run of a binary.
type result struct {
	code           int
	stdout, stderr string
}

func (r result) String() string {
	return "exit " + strconv.Itoa(r.code) + "\nstdout:\n" + r.stdout + "\nstderr:\n" + r.stderr
}

// runBin runs bin with args and env (nil: this process's), for at most 20 s.
func runBin(t *testing.T, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s %s: still running after 20 s\n%s\n%s", bin, strings.Join(args, " "), out.String(), errb.String())
	}
	r := result{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return r
}

// noDisplayEnv is this process's environment without DISPLAY (nor
// WAYLAND_DISPLAY), plus extra.
func noDisplayEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// crashed reports whether output looks like a Go panic or a GLFW failure.
func crashed(s string) bool {
	return strings.Contains(s, "panic") || strings.Contains(s, "goroutine ") || strings.Contains(s, "glfw")
}

// TestCLIHelpListsEverySubcommand: --help, -h and help print the commands,
// each on one line, with status 0, from tickshot-server and from tickshot,
// the latter also without a display. tickshot-server lists only the
// commands it runs, and refuses a window command in one line that names
// the build with the window.
func TestCLIHelpListsEverySubcommand(t *testing.T) {
	full, headless := binaries(t)
	type run struct {
		name   string
		bin    string
		env    []string
		window bool // runs the commands that need the window
	}
	runs := []run{{"tickshot-server", headless, nil, false}, {"tickshot without a display", full, noDisplayEnv(), true}}
	if os.Getenv("DISPLAY") != "" {
		runs = append(runs, run{"tickshot", full, nil, true})
	}
	for _, r := range runs {
		for _, arg := range []string{"--help", "-h", "help"} {
			res := runBin(t, r.bin, r.env, arg)
			if res.code != 0 || crashed(res.stdout+res.stderr) {
				t.Errorf("%s %s: want the help and status 0, got %s", r.name, arg, res)
				continue
			}
			for _, c := range cli.Commands {
				line := regexp.MustCompile(`(?m)^  ` + c.Name + `( .*)?$`)
				want := 1
				if c.Window && !r.window {
					want = 0
				}
				if n := len(line.FindAllString(res.stdout, -1)); n != want {
					t.Errorf("%s %s: %d lines for the %q command, want %d:\n%s", r.name, arg, n, c.Name, want, res.stdout)
				}
			}
		}
	}
	for _, c := range cli.Commands {
		if !c.Window {
			continue
		}
		for _, args := range [][]string{{c.Name}, {c.Name, "--help"}, {"help", c.Name}} {
			res := runBin(t, headless, nil, args...)
			if res.code != 2 || res.stdout != "" || strings.Count(res.stderr, "\n") != 1 || crashed(res.stderr) ||
				!strings.Contains(res.stderr, "needs the game window") || strings.Contains(res.stderr, "unknown command") {
				t.Errorf("tickshot-server %s: want status 2 and one line saying it needs the game window, got %s", strings.Join(args, " "), res)
			}
		}
	}
	// The commands are all there: the help lists what run dispatches.
	var names []string
	for _, c := range cli.Commands {
		names = append(names, c.Name)
	}
	for _, want := range []string{"play", "server", "connect", "bot", "servers", "hitreg", "loadtest", "help"} {
		if !strings.Contains(" "+strings.Join(names, " ")+" ", " "+want+" ") {
			t.Errorf("the help does not list %q", want)
		}
	}
	// Each command's own help works without a display through tickshot-server.
	for _, cmd := range []string{"server", "bot", "servers", "hitreg", "loadtest"} {
		for _, args := range [][]string{{cmd, "--help"}, {"help", cmd}} {
			res := runBin(t, headless, nil, args...)
			if res.code != 0 || !strings.Contains(res.stderr, "Usage: tickshot "+cmd) || !strings.Contains(res.stderr, "Flags:") {
				t.Errorf("tickshot-server %s: want the command's usage and flags, status 0; got %s", strings.Join(args, " "), res)
			}
		}
	}
}

// TestCLIWithoutDisplay: the windowed build without a display says so in
// one line, points to tickshot-server and exits 1, without a panic trace;
// whether DISPLAY is unset or names no X server.
func TestCLIWithoutDisplay(t *testing.T) {
	full, _ := binaries(t)
	envs := map[string][]string{"DISPLAY unset": noDisplayEnv(), "DISPLAY=:917 (no X server)": noDisplayEnv("DISPLAY=:917")}
	for name, env := range envs {
		for _, args := range [][]string{{}, {"play"}, {"connect", "localhost"}, {"server"}, {"server", "--help"},
			{"hitreg", "--loss", "150"}, {"help", "bot"}, {"--bots", "2"}} {
			res := runBin(t, full, env, args...)
			what := name + ": tickshot " + strings.Join(args, " ")
			if res.code != 1 || res.stdout != "" {
				t.Errorf("%s: want status 1 and nothing on stdout, got %s", what, res)
			}
			if strings.Count(res.stderr, "\n") != 1 || !strings.HasSuffix(res.stderr, "\n") {
				t.Errorf("%s: want one line on stderr, got %q", what, res.stderr)
			}
			if crashed(res.stderr) || !strings.Contains(res.stderr, "no display") || !strings.Contains(res.stderr, "tickshot-server") {
				t.Errorf("%s: want \"no display\" and a pointer to tickshot-server, no panic; got %q", what, res.stderr)
			}
		}
	}
	// A command that needs no window names what to run instead.
	res := runBin(t, full, noDisplayEnv(), "server", "--maxplayers", "8")
	if !strings.Contains(res.stderr, "`tickshot-server server --maxplayers 8`") {
		t.Errorf("want the same command line for tickshot-server, got %q", res.stderr)
	}
}

// TestCLIRefusesBadValues: out-of-range values and stray arguments exit
// with status 2 and one line naming the flag (or the argument).
func TestCLIRefusesBadValues(t *testing.T) {
	full, headless := binaries(t)
	tests := []struct {
		args []string
		want string // in the message
	}{
		{[]string{"server", "--maxplayers", "0"}, "--maxplayers 0"},
		{[]string{"server", "--maxplayers", "1025"}, "--maxplayers 1025"},
		{[]string{"server", "--tickrate", "0"}, "--tickrate 0"},
		{[]string{"server", "--tickrate", "500"}, "--tickrate 500"},
		{[]string{"server", "--bots", "-1"}, "--bots -1"},
		{[]string{"server", "--bots", "20"}, "--bots 20"}, // more than the 16 slots
		{[]string{"server", "--map", "nowhere"}, "--map \"nowhere\""},
		{[]string{"server", "--cvar", "sv_unlag=5"}, "--cvar sv_unlag=5"},
		{[]string{"server", "--cvar", "sv_nothing=1"}, "--cvar sv_nothing=1"},
		{[]string{"server", "--addr", "27015"}, "--addr \"27015\""},
		{[]string{"server", "--log", "loud"}, "--log \"loud\""},
		{[]string{"server", "--maxconns", "0"}, "--maxconns 0"},
		{[]string{"server", "--max-downloads", "0"}, "--max-downloads 0"},
		{[]string{"server", "--http-idle-timeout", "0s"}, "--http-idle-timeout 0s"},
		{[]string{"server", "extra"}, "\"extra\""},
		{[]string{"hitreg", "--loss", "150"}, "--loss 150"},
		{[]string{"hitreg", "--loss", "100"}, "--loss 100"},
		{[]string{"hitreg", "--rtt", "-100"}, "--rtt -100"},
		{[]string{"hitreg", "--jitter", "-1"}, "--jitter -1"},
		{[]string{"hitreg", "--tickrate", "0"}, "--tickrate 0"},
		{[]string{"hitreg", "--shots", "0"}, "--shots 0"},
		{[]string{"hitreg", "--unlag", "2"}, "--unlag 2"},
		{[]string{"hitreg", "--rtt", "NaN"}, "--rtt NaN"},
		{[]string{"hitreg", "now"}, "\"now\""},
		{[]string{"hitreg", "--weapon", "rocket launcher"}, "--weapon \"rocket launcher\""}, // not hitscan
		{[]string{"hitreg", "--weapon", "bfg"}, "--weapon \"bfg\""},
		{[]string{"bot", "--server", "localhost", "--count", "0"}, "--count 0"},
		{[]string{"bot", "--server", "localhost", "--fakeloss", "150"}, "--fakeloss 150"},
		{[]string{"bot", "--server", "localhost", "--fakelag", "-5"}, "--fakelag -5"},
		{[]string{"bot", "--server", "localhost", "--duration", "-1s"}, "--duration -1s"},
		{[]string{"bot", "--server", "localhost", "--updaterate", "0"}, "--updaterate 0"},
		{[]string{"bot", "--server", "localhost", "more"}, "\"more\""},
		{[]string{"bot"}, "--server"},
		{[]string{"loadtest", "--clients", "1", "--bots", "-1"}, "--bots"},
		{[]string{"loadtest", "--clients", "1", "--tickrate", "0"}, "--tickrate"},
		{[]string{"loadtest", "--clients", "1", "extra"}, "\"extra\""},
		{[]string{"loadtest", "--lite", "--clients", "1025"}, "--clients must be 0..1024 with --lite, got 1025"},
		{[]string{"loadtest", "--clients", "600"}, "--clients must be 0..512 (0..1024 with --lite), got 600"},
		{[]string{"loadtest", "--lite", "--clients", "4", "--transport", "webrtc"}, "--lite clients speak the websocket only"},
		{[]string{"loadtest", "--lite", "--clients", "4", "--server", "127.0.0.1:1", "--map", "arena"}, "--map applies only to the in-process server"},
		{[]string{"server", "--password", strings.Repeat("p", 49)}, "--password (hidden) is out of range"},
		{[]string{"servers", "--timeout", "0s"}, "--timeout 0s"},
		{[]string{"servers", "--timeout", "2h"}, "--timeout 2h0m0s"},
		{[]string{"servers", "extra"}, "\"extra\""},
		{[]string{"master", "--check-timeout", "5s"}, "--check-timeout 5s"}, // past the registering server's wait for the answer
		{[]string{"master", "--max-servers", "0"}, "--max-servers 0"},
		{[]string{"help", "nothing"}, "\"nothing\""},
		{[]string{"nothing"}, "\"nothing\""},
	}
	for _, tc := range tests {
		res := runBin(t, headless, nil, tc.args...)
		checkRefused(t, "tickshot-server", tc.args, tc.want, res)
	}
	// The windowed commands check theirs before opening a window.
	if os.Getenv("DISPLAY") == "" {
		t.Log("no DISPLAY: play and connect's checks are tested under xvfb-run")
		return
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"play", "--bots", "-1"}, "--bots -1"},
		{[]string{"play", "--bots", "100"}, "--bots 100"},
		{[]string{"play", "--tickrate", "0"}, "--tickrate 0"},
		{[]string{"play", "--map", "nowhere"}, "--map \"nowhere\""},
		{[]string{"play", "--sv", "sv_unlag=3"}, "--sv sv_unlag=3"},
		{[]string{"play", "--updaterate", "5"}, "--updaterate 5"},
		{[]string{"play", "--interp", "-1"}, "--interp -1"},
		{[]string{"play", "--width", "10"}, "--width 10"},
		{[]string{"play", "--name", ""}, "--name \"\""},
		{[]string{"play", "stray"}, "\"stray\""},
		{[]string{"--bots", "-3"}, "--bots -3"},
		{[]string{"connect"}, "HOST"},
		{[]string{"connect", "localhost", "other"}, "\"other\""},
		{[]string{"connect", "--name", "x", "localhost", "other"}, "\"other\""},
		{[]string{"connect", "localhost", "--updaterate", "1000"}, "--updaterate 1000"},
	} {
		res := runBin(t, full, nil, tc.args...)
		checkRefused(t, "tickshot", tc.args, tc.want, res)
	}
	// A client cvar is checked by the game itself (status 1): its message
	// stays as it is, not dressed as a connection failure.
	res := runBin(t, full, nil, "play", "--nosound", "--cvar", "nosuch=1")
	if res.code != 1 || !strings.Contains(res.stderr, "tickshot play: --cvar nosuch=1: unknown") || strings.Contains(res.stderr, "connection") {
		t.Errorf("play --cvar nosuch=1: want status 1 and the cvar's own message, got %s", res)
	}
}

func checkRefused(t *testing.T, prog string, args []string, want string, res result) {
	t.Helper()
	what := prog + " " + strings.Join(args, " ")
	if res.code != 2 {
		t.Errorf("%s: want status 2, got %s", what, res)
		return
	}
	first, _, _ := strings.Cut(res.stderr, "\n")
	if !strings.Contains(first, want) || crashed(res.stderr) {
		t.Errorf("%s: want a message naming %s, got %q", what, want, res.stderr)
	}
}

// TestWithDefaultPort: bot --server and connect take a host without a port
// as the default port 27015.
func TestWithDefaultPort(t *testing.T) {
	for in, want := range map[string]string{
		"localhost":        "localhost:27015",
		"localhost:1234":   "localhost:1234",
		"192.0.2.10":       "192.0.2.10:27015",
		"[::1]":            "[::1]:27015",
		"[::1]:5":          "[::1]:5",
		"ws://example/ws":  "ws://example/ws",
		"wss://example/ws": "wss://example/ws",
	} {
		if got := withDefaultPort(in); got != want {
			t.Errorf("withDefaultPort(%q) = %q, want %q", in, got, want)
		}
	}
}
