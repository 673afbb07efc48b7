//go:build linux

package netem

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
	"time"
)

// skipUnavailable skips the test where no link can run, or fails it when
// RequireEnv insists.
func skipUnavailable(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		if os.Getenv(RequireEnv) == "1" {
			t.Fatalf("%s=1 but %v", RequireEnv, err)
		}
		t.Skip(err)
	}
}

// start starts a link for a test, skipping where this machine cannot run
// one, and closes it at the test's end.
func start(t *testing.T, cfg Config) *Link {
	t.Helper()
	skipUnavailable(t)
	if cfg.Lifetime == 0 {
		cfg.Lifetime = time.Minute
	}
	l, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return l
}

// udpPair opens a UDP socket on each side: a on A, b on B (port 9000).
func udpPair(t *testing.T, l *Link) (a, b *net.UDPConn) {
	t.Helper()
	err := l.Do(B, func() (err error) {
		b, err = net.ListenUDP("udp4", &net.UDPAddr{IP: l.Addr(B).AsSlice(), Port: 9000})
		return err
	})
	if err == nil {
		err = l.Do(A, func() (err error) {
			a, err = net.DialUDP("udp4", nil, &net.UDPAddr{IP: l.Addr(B).AsSlice(), Port: 9000})
			return err
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close(); b.Close() })
	return a, b
}

// A UDP echo across the link takes the configured delays: each direction's
// recorded delays (read off one device to written into the other) lie
// within its delay ± jitter plus the emulator's own lateness, and the round
// trip the echo measures is the two recorded means plus little.
func TestUDPEchoTakesTheDelay(t *testing.T) {
	l := start(t, Config{AtoB: Dir{DelayMs: 30, JitterMs: 5}, BtoA: Dir{DelayMs: 20}, Seed: 1})
	a, b := udpPair(t, l)
	go func() { // echo on B
		buf := make([]byte, 1500)
		for {
			n, from, err := b.ReadFromUDP(buf)
			if err != nil {
				return
			}
			b.WriteToUDP(buf[:n], from)
		}
	}()
	const n = 60
	var rtts []float64
	buf := make([]byte, 1500)
	for i := 0; i < n; i++ {
		msg := binary.BigEndian.AppendUint32(nil, uint32(i))
		sent := time.Now()
		if _, err := a.Write(msg); err != nil {
			t.Fatal(err)
		}
		a.SetReadDeadline(time.Now().Add(5 * time.Second))
		m, err := a.Read(buf)
		if err != nil {
			t.Fatalf("echo %d: %v", i, err)
		}
		if !bytes.Equal(buf[:m], msg) {
			t.Fatalf("echo %d: got %x, want %x", i, buf[:m], msg)
		}
		rtts = append(rtts, float64(time.Since(sent))/float64(time.Millisecond))
	}
	// The writer counts a packet just after writing it: the echo may be
	// read before its count.
	ab, ba := l.Counters(A), l.Counters(B)
	for wait := time.Now().Add(2 * time.Second); ba.Forwarded < n && time.Now().Before(wait); {
		time.Sleep(time.Millisecond)
		ab, ba = l.Counters(A), l.Counters(B)
	}
	if ab.Forwarded != n || ba.Forwarded != n || ab.Dropped()+ba.Dropped() != 0 {
		t.Fatalf("forwarded %d A→B and %d B→A, dropped %d, want %d each way and none", ab.Forwarded, ba.Forwarded, ab.Dropped()+ba.Dropped(), n)
	}
	// The emulator never sends a packet early; how late it is, it records.
	if ab.DelayMinMs < 25 || ab.DelayMaxMs > 35+ab.LateMaxMs+1 || ba.DelayMinMs < 20 || ba.DelayMaxMs > 20+ba.LateMaxMs+1 {
		t.Errorf("recorded delays A→B %.1f..%.1f ms (late up to %.1f), B→A %.1f..%.1f ms (late up to %.1f); want 25..35 and 20 ms plus lateness",
			ab.DelayMinMs, ab.DelayMaxMs, ab.LateMaxMs, ba.DelayMinMs, ba.DelayMaxMs, ba.LateMaxMs)
	}
	sort.Float64s(rtts)
	med, recorded := rtts[n/2], ab.MeanDelayMs()+ba.MeanDelayMs()
	t.Logf("echo RTT median %.1f ms (min %.1f, max %.1f); recorded one-way means %.1f + %.1f ms", med, rtts[0], rtts[n-1], ab.MeanDelayMs(), ba.MeanDelayMs())
	// The kernel's and the echo's own share of the round trip is small
	// beside the delays; a busy machine adds its wake-ups, bounded loosely.
	if rtts[0] < 45 || med < recorded-6 || med > recorded+30 {
		t.Errorf("echo RTT min %.1f, median %.1f ms; want at least 45 and the recorded %.1f ms give or take (-6, +30)", rtts[0], med, recorded)
	}
}

// sendSeq sends n numbered datagrams from a to b, paced so that no socket
// buffer overflows, and returns which numbers arrived.
func sendSeq(t *testing.T, a, b *net.UDPConn, n int) []bool {
	t.Helper()
	got := make([]bool, n)
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 64)
		for {
			b.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
			m, err := b.Read(buf)
			if err != nil {
				return
			}
			if i := binary.BigEndian.Uint32(buf[:m]); m == 4 && int(i) < n {
				got[i] = true
			}
		}
	}()
	for i := 0; i < n; i++ {
		if _, err := a.Write(binary.BigEndian.AppendUint32(nil, uint32(i))); err != nil {
			t.Fatal(err)
		}
		if i%50 == 49 {
			time.Sleep(2 * time.Millisecond)
		}
	}
	<-done
	return got
}

// Random loss drops about the configured share, exactly the packets the
// emulator counts as lost; Gilbert–Elliott loss of the same share drops
// them in runs of about the configured length, random loss in runs near 1.
func TestLossAndBursts(t *testing.T) {
	const n = 6000
	for _, tc := range []struct {
		name        string
		d           Dir
		runLo, runH float64
	}{
		{"random 5%", Dir{LossPct: 5}, 1, 1.2},
		{"burst 5% x 4", Dir{Burst: BurstLoss(5, 4)}, 2.5, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := start(t, Config{AtoB: tc.d, Seed: 11})
			a, b := udpPair(t, l)
			got := sendSeq(t, a, b, n)
			lost, nRuns := 0, 0
			for i, ok := range got {
				if !ok {
					lost++
					if i == 0 || got[i-1] {
						nRuns++
					}
				}
			}
			c := l.Counters(A)
			if c.Packets != n || uint64(lost) != c.Dropped() || c.Overflow != 0 {
				t.Fatalf("%d of %d lost at the receiver; the emulator read %d and dropped %d (overflow %d)", lost, n, c.Packets, c.Dropped(), c.Overflow)
			}
			pct, run := 100*float64(lost)/n, float64(lost)/float64(max(nRuns, 1))
			t.Logf("lost %.2f %% in %d runs of %.2f on average", pct, nRuns, run)
			if pct < 3 || pct > 8 {
				t.Errorf("lost %.2f %%, want 5 (3..8)", pct)
			}
			if run < tc.runLo || run > tc.runH {
				t.Errorf("mean run of losses %.2f, want %.1f..%.1f", run, tc.runLo, tc.runH)
			}
		})
	}
}

// Kernel TCP crosses a delayed, lossy, reordering link intact: every byte
// arrives in order and the emulator saw losses the stack repaired.
func TestTCPAcrossLossyLink(t *testing.T) {
	d := Dir{DelayMs: 10, JitterMs: 3, LossPct: 3, ReorderPct: 2}
	l := start(t, Config{AtoB: d, BtoA: d, Seed: 5})
	var ln net.Listener
	if err := l.Do(B, func() (err error) { ln, err = net.Listen("tcp4", l.Addr(B).String()+":9001"); return err }); err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	data := make([]byte, 256<<10)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	sums := make(chan [32]byte, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			sums <- [32]byte{}
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(30 * time.Second))
		h := sha256.New()
		io.Copy(h, c)
		sums <- [32]byte(h.Sum(nil))
	}()
	var c net.Conn
	err := l.Do(A, func() (err error) {
		c, err = net.DialTimeout("tcp4", l.Addr(B).String()+":9001", 10*time.Second)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := c.Write(data); err != nil {
		t.Fatal(err)
	}
	c.Close()
	if got := <-sums; got != sha256.Sum256(data) {
		t.Fatal("the bytes B received differ from those A sent")
	}
	ab := l.Counters(A)
	t.Logf("A→B: %d packets, %d lost, %d reordered", ab.Packets, ab.Dropped(), ab.Reordered)
	if ab.Lost == 0 || ab.Reordered == 0 {
		t.Errorf("A→B lost %d and reordered %d packets, want some of each", ab.Lost, ab.Reordered)
	}
}

// Commands run inside a side see its address; Close kills what still
// runs there and removes both namespaces; the link closes by itself at
// the end of its lifetime; Start removes a dead run's namespace.
func TestCommandsAndCleanup(t *testing.T) {
	skipUnavailable(t)
	// A leftover of a crashed run: a pid no process has (above pid_max).
	stale := nsPrefix + "999999999-1-a"
	if err := ip("netns", "add", stale); err != nil {
		t.Fatal(err)
	}
	l, err := Start(context.Background(), Config{Lifetime: time.Minute})
	if err != nil {
		ip("netns", "del", stale)
		t.Fatal(err)
	}
	if namespaceExists(stale) {
		ip("netns", "del", stale)
		t.Error("Start left a dead run's namespace")
	}
	out, err := l.Command(context.Background(), A, "ip", "-4", "-o", "addr", "show", "dev", Device).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "198.18.0.1/30") {
		t.Errorf("ip addr inside A: %v: %s", err, out)
	}
	sleeper := l.Command(context.Background(), B, "sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- sleeper.Wait() }()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-waited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Errorf("the sleeper ended with %v, want killed", err)
		}
	case <-time.After(5 * time.Second):
		t.Error("Close left a process running in the namespace")
	}
	for s := A; s <= B; s++ {
		if namespaceExists(l.Namespace(s)) {
			t.Errorf("namespace %s still there after Close", l.Namespace(s))
		}
	}

	l, err = Start(context.Background(), Config{Lifetime: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-l.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the link outlived its lifetime")
	}
	if err := l.Close(); err != nil {
		t.Error(err)
	}
	if namespaceExists(l.Namespace(A)) {
		t.Error("a link closed by its lifetime left its namespace")
	}
	// Tests run one at a time: every earlier link of this process is closed.
	entries, _ := os.ReadDir(netnsDir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("%s%d-", nsPrefix, os.Getpid())) {
			t.Errorf("namespace %s left behind", e.Name())
		}
	}
}
