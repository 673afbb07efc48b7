package soak

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const tick64 = time.Second / 64

// series makes n samples 30 s apart from f(i).
func series(n int, f func(i int) Sample) []Sample {
	out := make([]Sample, n)
	for i := range out {
		out[i] = f(i)
		out[i].Elapsed = time.Duration(i) * 30 * time.Second
	}
	return out
}

// flat is a healthy 10-minute run: 21 samples whose RSS wobbles by ±1.5 MiB
// (garbage collection), goroutines by ±3 (HTTP keep-alives), and tick p99
// well under the 15.6 ms tick.
func flat(i int) Sample {
	wob := []int{0, 1, -1, 2, -2, 1, 0, -1, 3, -3}[i%10]
	return Sample{RSSBytes: uint64(40<<20 + wob*(1<<19)), Goroutines: 90 + wob, TickP99Us: 900 + float64(100*wob), Players: 32}
}

func TestJudgeFlatPasses(t *testing.T) {
	s := series(21, flat)
	v := Judge(s, tick64, 32, DefaultTolerance)
	if !v.OK() {
		t.Fatalf("a flat run failed: %v", v.Failures)
	}
	if v.RSSFirst < 39<<20 || v.RSSFirst > 41<<20 || v.GoroutinesFirst < 87 || v.GoroutinesFirst > 93 {
		t.Errorf("first-third medians RSS %d, goroutines %d, want about 40 MiB and 90", v.RSSFirst, v.GoroutinesFirst)
	}
	if v.RSSAllowed != 4<<20+0 && v.RSSAllowed != uint64(0.10*float64(v.RSSFirst)) {
		t.Errorf("RSS allowed %d", v.RSSAllowed)
	}
	// One garbage-collection peak in the last third does not fail it: the
	// judge compares medians.
	s[19].RSSBytes += 30 << 20
	s[20].Goroutines += 50
	if v := Judge(s, tick64, 32, DefaultTolerance); !v.OK() {
		t.Errorf("one peak in the last third failed the run: %v", v.Failures)
	}
}

func TestJudgeRSSLeakFails(t *testing.T) {
	// 1 MiB a minute (512 KiB per 30 s sample) over 10 minutes.
	s := series(21, func(i int) Sample {
		x := flat(i)
		x.RSSBytes += uint64(i) << 19
		return x
	})
	v := Judge(s, tick64, 32, DefaultTolerance)
	if v.OK() || !strings.Contains(strings.Join(v.Failures, "\n"), "RSS grew") {
		t.Fatalf("a 1 MiB/min leak passed (medians %d → %d, allowed %d): %v", v.RSSFirst, v.RSSLast, v.RSSAllowed, v.Failures)
	}
	if len(v.Failures) != 1 {
		t.Errorf("only RSS should fail: %v", v.Failures)
	}
	// The tolerance scales with the size: 10 % of 400 MiB is more than 4 MiB,
	// and a 6 MiB drift there passes.
	big := series(21, func(i int) Sample {
		x := flat(i)
		x.RSSBytes = 400<<20 + uint64(i)*(300<<10)
		return x
	})
	if v := Judge(big, tick64, 32, DefaultTolerance); !v.OK() {
		t.Errorf("6 MiB drift on 400 MiB failed: %v", v.Failures)
	}
}

func TestJudgeGoroutineLeakFails(t *testing.T) {
	// One goroutine per 30 s (a goroutine per disconnect, say).
	s := series(21, func(i int) Sample {
		x := flat(i)
		x.Goroutines += i
		return x
	})
	v := Judge(s, tick64, 32, DefaultTolerance)
	if v.OK() || !strings.Contains(strings.Join(v.Failures, "\n"), "goroutines grew") || len(v.Failures) != 1 {
		t.Fatalf("a goroutine leak: %v (medians %d → %d)", v.Failures, v.GoroutinesFirst, v.GoroutinesLast)
	}
}

func TestJudgeSlowTickAndDroppedPlayerFail(t *testing.T) {
	s := series(21, flat)
	s[7].TickP99Us = 16000 // over the 15 625 µs of a 64/s tick
	s[12].Players = 31
	v := Judge(s, tick64, 32, DefaultTolerance)
	got := strings.Join(v.Failures, "\n")
	if len(v.Failures) != 2 || !strings.Contains(got, "at 3m30s the tick time p99 was 16000 µs") || !strings.Contains(got, "at 6m0s the server had 31 players") {
		t.Fatalf("failures: %v", v.Failures)
	}
	if v.TickP99WorstUs != 16000 || v.TickIntervalUs != 15625 {
		t.Errorf("worst p99 %.0f, interval %.0f", v.TickP99WorstUs, v.TickIntervalUs)
	}
	// At 20 ticks/s (50 ms) the same p99 passes.
	s[12].Players = 32
	if v := Judge(s, time.Second/20, 32, DefaultTolerance); !v.OK() {
		t.Errorf("16 ms p99 at a 50 ms tick failed: %v", v.Failures)
	}
}

func TestJudgeTooFewSamples(t *testing.T) {
	if v := Judge(series(2, flat), tick64, 32, DefaultTolerance); v.OK() {
		t.Error("two samples passed")
	}
	// Three samples (a 1-minute smoke run at 30 s) are judged: the first
	// against the last.
	s := series(3, flat)
	if v := Judge(s, tick64, 32, DefaultTolerance); !v.OK() {
		t.Errorf("3 flat samples: %v", v.Failures)
	}
	s[2].RSSBytes += 20 << 20
	if v := Judge(s, tick64, 32, DefaultTolerance); v.OK() {
		t.Error("3 samples, the last 20 MiB up, passed")
	}
}

func TestWriteTable(t *testing.T) {
	s := series(3, flat)
	var b strings.Builder
	WriteTable(&b, s, Judge(s, tick64, 32, DefaultTolerance))
	out := b.String()
	for _, want := range []string{"| t | server RSS, MiB |", "| 0s | 40.0 | 90 | 900 | 32 |", "| 1m0s |", "soak: PASS"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestParseVmRSS(t *testing.T) {
	text := "Name:\ttickshot\nVmPeak:\t  812345 kB\nVmRSS:\t   41236 kB\nRssAnon:\t 30000 kB\n"
	got, err := parseVmRSS(strings.NewReader(text))
	if err != nil || got != 41236*1024 {
		t.Errorf("parseVmRSS = %d, %v; want %d", got, err, 41236*1024)
	}
	for _, bad := range []string{"Name:\tx\n", "VmRSS:\t12 MB\n", "VmRSS:\tlots kB\n"} {
		if _, err := parseVmRSS(strings.NewReader(bad)); err == nil {
			t.Errorf("parseVmRSS(%q) gave no error", bad)
		}
	}
	if rss, err := ReadRSS(os.Getpid()); err != nil || rss < 1<<20 {
		t.Errorf("ReadRSS(self) = %d, %v", rss, err)
	}
}

// TestShortSoak is a real soak in miniature: the headless server binary
// built from this tree, 2 bots and 2 network clients over loopback
// websockets, 3 samples 1 s apart. Every sample must carry the server's
// RSS, its goroutine count (from /status) and tick p99, with all 4 players.
func TestShortSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the server binary")
	}
	bin := filepath.Join(t.TempDir(), "tickshot-soak")
	// The module's root package by its import path: the build does not
	// depend on where this test sits in the tree.
	build := exec.Command("go", "build", "-tags", "headless", "-o", bin, "tickshot")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var log strings.Builder
	opt := Options{ServerBin: bin, Bots: 2, Clients: 2, TickRate: 64, Duration: 2 * time.Second, Interval: time.Second, Warmup: 500 * time.Millisecond, Progress: &log}
	samples, err := Run(ctx, opt)
	t.Log(log.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(samples) != 3 {
		t.Fatalf("%d samples, want 3", len(samples))
	}
	for i, s := range samples {
		if s.RSSBytes < 4<<20 || s.RSSBytes > 1<<30 || s.Goroutines < 4 || s.TickP99Us <= 0 || s.Players != 4 {
			t.Errorf("sample %d: %+v", i, s)
		}
		// On the interval's schedule, never early, and never so late as
		// to slip into the next interval (a busy machine delays a sample).
		if want := time.Duration(i) * time.Second; s.Elapsed < want || s.Elapsed >= want+opt.Interval {
			t.Errorf("sample %d at %v, want %v", i, s.Elapsed, want)
		}
	}
	v := Judge(samples, opt.TickInterval(), 4, DefaultTolerance)
	var b strings.Builder
	WriteTable(&b, samples, v)
	t.Log("\n" + b.String())
}
