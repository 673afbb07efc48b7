package demo

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
)

// hostileRSSEnv names, in the child process of TestHostileDemoPeakRSS, the
// demo it loads and plays.
const hostileRSSEnv = "TICKSHOT_DEMO_RSS_FILE"

// raceBuild is set in a -race build (race_test.go).
var raceBuild bool

// writeHostileDemo writes a demo of the record limit made of the smallest
// records a reader decodes into the most memory: the Accept, then config
// records of 30 bytes each (issue 21: a 120 MiB file of them made playdemo
// peak at 2 972 MiB). It returns the file's size.
func writeHostileDemo(t *testing.T, path string) int64 {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	r := &Recorder{f: f, w: bufio.NewWriterSize(f, 1<<20)}
	start := time.Unix(1700000000, 0)
	acc := proto.MustEncode(&proto.Accept{PlayerID: 3, TickRate: 64, Map: "arena", Tick: 100, UpdateRate: 20})
	r.begin(netclient.DemoStart{Accept: acc, AcceptAt: start, Start: start, PlayerID: 3, TickRate: 64, Map: "arena",
		Name: "hostile", Config: netclient.DefaultConfig("hostile")})
	cfg := netclient.DefaultConfig("hostile")
	for r.Records < MaxRecords {
		r.Config(cfg)
	}
	if err := r.w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestHostileDemoPeakRSS: a demo of the record limit made of tiny records
// loads and plays to its end in a process whose peak resident memory
// (VmHWM of /proc/self/status, the kernel's high-water mark) stays under
// 4× the file's size. The demo runs in a child process (this test binary
// again), so that nothing else of the test run counts.
func TestHostileDemoPeakRSS(t *testing.T) {
	if path := os.Getenv(hostileRSSEnv); path != "" {
		hostileChild(t, path)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("peak RSS is read from /proc/self/status (Linux only)")
	}
	if raceBuild {
		t.Skip("the race detector's shadow memory counts in the RSS (-race)")
	}
	if testing.Short() {
		t.Skip("writes a 120 MiB demo (-short)")
	}
	path := filepath.Join(t.TempDir(), "hostile.dem")
	size := writeHostileDemo(t, path)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileDemoPeakRSS$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), hostileRSSEnv+"="+path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("child: %v\n%s", err, out.String())
	}
	var peak, records int64
	for _, l := range strings.Split(out.String(), "\n") {
		if _, err := fmt.Sscanf(strings.TrimSpace(l), "peak RSS %d kB, %d records", &peak, &records); err == nil {
			break
		}
	}
	if peak == 0 {
		t.Fatalf("the child said no peak:\n%s", out.String())
	}
	mib := func(n int64) float64 { return float64(n) / (1 << 20) }
	t.Logf("demo of %d records, %.1f MiB: loaded and played in %v at a peak RSS of %.1f MiB (%.2f× the file)",
		records, mib(size), time.Since(t0).Round(time.Millisecond), mib(peak<<10), float64(peak<<10)/float64(size))
	if records != MaxRecords {
		t.Errorf("the child played %d records, want the limit %d", records, MaxRecords)
	}
	if peak<<10 >= 4*size {
		t.Errorf("peak RSS %.1f MiB, want under 4× the file's %.1f MiB", mib(peak<<10), mib(size))
	}
}

// hostileChild loads and plays the demo at path, then prints the
// process's peak RSS.
func hostileChild(t *testing.T, path string) {
	d, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlayer(d, netclient.DefaultConfig(""))
	if err != nil {
		t.Fatal(err)
	}
	for !p.Done() {
		if err := p.Advance(time.Second); err != nil {
			t.Fatal(err)
		}
	}
	p.Close()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Printf("peak RSS %d kB, %d records\n", kb, d.Len())
			return
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
}
