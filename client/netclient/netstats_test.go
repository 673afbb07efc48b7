package netclient_test

// NetStats over real websockets on loopback with a real server: what the
// net_graph shows (ping, loss, choke, jitter) must be what fake network
// conditions and the rate setting actually do.

import (
	"slices"
	"testing"
	"tickshot/internal/tool/testserver"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
)

// nsServer runs a real server on a free loopback port until the test ends.

// nsDrive runs the clients as a game loop would, at 64 frames a second
// (Poll, Advance by the real elapsed time, Command with no input), for d.
// every, when set, is called after each frame.
func nsDrive(t *testing.T, d time.Duration, every func(), cs ...*netclient.Client) {
	t.Helper()
	tk := time.NewTicker(time.Second / 64)
	defer tk.Stop()
	last := time.Now()
	end := last.Add(d)
	for now := range tk.C {
		for _, c := range cs {
			if err := c.Poll(); err != nil {
				t.Fatalf("poll: %v", err)
			}
			c.Advance(now.Sub(last))
			c.Command(netclient.Input{})
		}
		last = now
		if every != nil {
			every()
		}
		if !now.Before(end) {
			return
		}
	}
}

// nsWaitSnapshot drives c until its first snapshot.
func nsWaitSnapshot(t *testing.T, c *netclient.Client) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !c.View().HaveSnapshot {
		if time.Now().After(deadline) {
			t.Fatal("no snapshot within 5 s")
		}
		nsDrive(t, 0, nil, c)
	}
}

// nsMedianPing settles for settle, then takes the median of Stats.PingMs
// (the round trip the server measures from its own send times) over
// measure. It also returns the median time a snapshot waited in the client
// before the frame that acknowledged it: the client runs at 64 frames/s in
// step with the server's 64 ticks/s, so this wait sits at a fixed phase,
// and a lag that is not a whole number of frames (100 ms = 6.4) moves it by
// a fraction of a frame. Medians, not means: on a busy machine a stalled
// goroutine adds tens of ms to a few samples, which would move a mean.
func nsMedianPing(t *testing.T, c *netclient.Client, settle, measure time.Duration) (ping, wait float64) {
	t.Helper()
	nsDrive(t, settle, nil, c)
	var pings, waits []float64
	head := c.Net().GraphHead
	nsDrive(t, measure, func() {
		pings = append(pings, float64(c.View().Stats.PingMs))
		if c.Net().GraphHead != head {
			// The ack of the newest snapshot went out in this frame's Command.
			head = c.Net().GraphHead
			waits = append(waits, float64(time.Since(c.Net().GraphAt(0).At))/float64(time.Millisecond))
		}
	}, c)
	if len(pings) == 0 || len(waits) == 0 {
		t.Fatal("no frames or no snapshots")
	}
	slices.Sort(pings)
	slices.Sort(waits)
	return pings[len(pings)/2], waits[len(waits)/2]
}

func within(got, want, tolPct float64) bool {
	d := got - want
	if d < 0 {
		d = -d
	}
	return d <= want*tolPct/100
}

// (a) net_fakelag on the client delays the snapshots it receives, so the
// round trip the server measures grows by the lag; on both sides by twice it.
func TestNetStatsFakeLagRTT(t *testing.T) {
	cfg := netclient.DefaultConfig("rtt")
	cfg.UpdateRate = 64 // an RTT sample every tick

	srv := nsServer(t, server.Config{})
	c := nsConnect(t, srv.Addr(), cfg)
	nsWaitSnapshot(t, c)
	base, baseW := nsMedianPing(t, c, time.Second, 1500*time.Millisecond)

	c.SetFakeConditions(proto.FakeConditions{LagMs: 100})
	clientLag, clientW := nsMedianPing(t, c, time.Second, 1500*time.Millisecond)

	srv2 := nsServer(t, server.Config{Fake: proto.FakeConditions{LagMs: 100}})
	c2 := nsConnect(t, srv2.Addr(), cfg)
	nsWaitSnapshot(t, c2)
	serverLag, serverW := nsMedianPing(t, c2, time.Second, 1500*time.Millisecond)
	c2.SetFakeConditions(proto.FakeConditions{LagMs: 100})
	bothLag, bothW := nsMedianPing(t, c2, 1200*time.Millisecond, 1500*time.Millisecond)

	t.Logf("RTT (server-measured, median Stats.PingMs; in brackets the part a snapshot waited for the client's next frame):")
	t.Logf("  baseline          %6.1f ms [%4.1f]", base, baseW)
	t.Logf("  client lag 100    %6.1f ms [%4.1f]  rise %+6.1f, %+6.1f without the frame wait", clientLag, clientW, clientLag-base, clientLag-clientW-(base-baseW))
	t.Logf("  server lag 100    %6.1f ms [%4.1f]  rise %+6.1f, %+6.1f without the frame wait", serverLag, serverW, serverLag-base, serverLag-serverW-(base-baseW))
	t.Logf("  both 100          %6.1f ms [%4.1f]  rise %+6.1f, %+6.1f without the frame wait", bothLag, bothW, bothLag-base, bothLag-bothW-(base-baseW))
	if base > 50 {
		t.Errorf("baseline RTT on loopback %.1f ms: the measurement itself is slow", base)
	}
	const frame = 1000.0 / 64
	for _, m := range []struct {
		what       string
		ping, wait float64
		want       float64
	}{
		{"net_fakelag 100 on the client", clientLag, clientW, 100},
		{"net_fakelag 100 on the server", serverLag, serverW, 100},
		{"net_fakelag 100 on both sides", bothLag, bothW, 200},
	} {
		// The transport's share of the round trip rises by the lag, ±10 %.
		if rise := (m.ping - m.wait) - (base - baseW); !within(rise, m.want, 10) {
			t.Errorf("%s: RTT less the client's frame wait rose by %.1f ms, want %.0f ±10%%", m.what, rise, m.want)
		}
		// The RTT itself, within 10 % and, at worst, the frame phase shift.
		if rise := m.ping - base; rise < m.want*0.9-frame || rise > m.want*1.1+frame {
			t.Errorf("%s: RTT rose by %.1f ms, want %.0f ±10%% ± one client frame", m.what, rise, m.want)
		}
	}
}

// (b) net_fakeloss 20 on the client: the loss the client computes from the
// snapshots' sequence numbers is about 20 %.
func TestNetStatsFakeLoss(t *testing.T) {
	srv := nsServer(t, server.Config{})
	cfg := netclient.DefaultConfig("loss")
	cfg.UpdateRate = 64
	c := nsConnect(t, srv.Addr(), cfg)
	nsWaitSnapshot(t, c)
	nsDrive(t, 300*time.Millisecond, nil, c)
	if c.Net().Loss.LossPct() != 0 || c.Net().Loss.Total != 0 {
		t.Fatalf("loss %.1f%% (%d lost) before any fake loss on loopback", c.Net().Loss.LossPct(), c.Net().Loss.Total)
	}
	c.SetFakeConditions(proto.FakeConditions{LossPct: 20})
	start := c.View().Stats.SnapshotsReceived
	deadline := time.Now().Add(10 * time.Second)
	for c.View().Stats.SnapshotsReceived-start < 300 {
		if time.Now().After(deadline) {
			t.Fatalf("only %d snapshots in 10 s", c.View().Stats.SnapshotsReceived-start)
		}
		nsDrive(t, 100*time.Millisecond, nil, c)
	}
	got := c.Net().Loss.LossPct()
	received := c.View().Stats.SnapshotsReceived - start
	lost := c.Net().Loss.Total
	allTime := 100 * float64(lost) / float64(lost+received)
	t.Logf("net_fakeloss 20: LossPct (last 256) %.1f%%; all time %d lost of %d = %.1f%%; graph gaps %d",
		got, lost, lost+received, allTime, graphLost(c))
	// 256 Bernoulli(0.2) trials: σ = 2.5 %, so 12..28 is beyond 3σ.
	if got < 12 || got > 28 {
		t.Errorf("LossPct = %.1f%%, want about 20 (12..28)", got)
	}
	if lost != c.View().Stats.SnapshotsLost {
		t.Errorf("Net.Loss.Total = %d but Stats.SnapshotsLost = %d: two counts of the same gaps differ", lost, c.View().Stats.SnapshotsLost)
	}
	// While the graph still holds every sample, its gaps are all the losses.
	if g := graphLost(c); (c.Net().GraphN < netclient.GraphLen && g != lost) || g > lost {
		t.Errorf("net_graph samples show %d lost, the tracker %d", g, lost)
	}
	if c.View().Stats.DroppedSnapshots != 0 {
		t.Errorf("%d snapshots arrived out of order", c.View().Stats.DroppedSnapshots)
	}
}

// graphLost sums the loss gaps of the net_graph's samples.
func graphLost(c *netclient.Client) int {
	n := 0
	for i := 0; i < c.Net().GraphN; i++ {
		n += c.Net().GraphAt(i).Lost
	}
	return n
}

// (c) choke: with rate 2500 and 64 snapshots/s asked for, the server holds
// snapshots back; with the default rate it never does. Everything is
// counted against the server's own clock, its tick (the snapshots carry
// it), not the wall clock: on a busy machine the server may run fewer than
// 64 ticks in a wall second, and it sends (and chokes) per tick.
func TestNetStatsChoke(t *testing.T) {
	// Bots make snapshots big enough to exceed 2500 bytes/s at 64/s: a
	// dozen, on the small range map where all are always in view (delta
	// snapshots of a few players fit in 2500 bytes/s).
	srv := nsServer(t, server.Config{Bots: 12, Map: "range"})
	slowCfg := netclient.DefaultConfig("slow")
	slowCfg.Rate, slowCfg.UpdateRate = 2500, 64
	fastCfg := netclient.DefaultConfig("fast")
	fastCfg.UpdateRate = 64
	slow := nsConnect(t, srv.Addr(), slowCfg)
	fast := nsConnect(t, srv.Addr(), fastCfg)
	nsWaitSnapshot(t, slow)
	nsWaitSnapshot(t, fast)
	nsDrive(t, 500*time.Millisecond, nil, slow, fast) // past the first full snapshots
	slow0, fast0 := nsCountOf(slow), nsCountOf(fast)
	// 160 server ticks (2.5 s at 64 ticks/s; longer on a busy machine).
	var sl, fa nsDelta
	for deadline := time.Now().Add(20 * time.Second); sl.ticks < 160 || fa.ticks < 160; {
		if time.Now().After(deadline) {
			t.Fatalf("the server ran only %d and %d ticks in 20 s", sl.ticks, fa.ticks)
		}
		nsDrive(t, 250*time.Millisecond, nil, slow, fast)
		sl, fa = nsCountOf(slow).since(slow0), nsCountOf(fast).since(fast0)
	}
	slowBytes := nsGraphBytes(t, slow, sl.recv)

	t.Logf("rate 2500: over %d server ticks %d snapshots arrived, %d lost, %d choked (%d B); ChokePct %.1f%%",
		sl.ticks, sl.recv, sl.lost, sl.choke, slowBytes, slow.Net().ChokePct())
	t.Logf("default rate: over %d server ticks %d snapshots arrived, %d lost, %d choked; ChokePct %.1f%%",
		fa.ticks, fa.recv, fa.lost, fa.choke, fast.Net().ChokePct())
	if sl.lost != 0 || fa.lost != 0 {
		t.Errorf("snapshots lost on loopback without fake loss: %d (rate 2500), %d (default rate)", sl.lost, fa.lost)
	}
	// At cl_updaterate 64 and 64 ticks/s a snapshot is due every tick: each
	// is sent or choked (Source counts each choked packet), so what arrived
	// plus what the snapshots say was choked is every tick the server ran.
	if sl.recv+sl.choke != sl.ticks {
		t.Errorf("rate 2500: %d snapshots sent + %d choked over %d server ticks; want one or the other each tick",
			sl.recv, sl.choke, sl.ticks)
	}
	share := 100 * float64(sl.choke) / float64(sl.ticks)
	if share <= 30 || slow.Net().ChokePct() <= 30 {
		t.Errorf("rate 2500 at cl_updaterate 64: %.1f%% of the due snapshots choked (ChokePct %.1f%%); want > 30%%",
			share, slow.Net().ChokePct())
	}
	// ChokePct (the last 256 snapshots) tells the share held back.
	if slow.Net().ChokePct() < share-12 || slow.Net().ChokePct() > share+12 {
		t.Errorf("rate 2500: ChokePct %.1f%% but %.0f%% of the due snapshots were held back", slow.Net().ChokePct(), share)
	}
	// The server keeps to the rate per server second (rate/tickrate a
	// tick): at most the rate over the ticks run, its quarter-second bank
	// and the one snapshot that went into debt.
	if most := 2500*sl.ticks/64 + 2500/4 + slow.Net().In.Last(); slowBytes > most {
		t.Errorf("rate 2500: %d snapshot bytes over %d server ticks, want at most %d", slowBytes, sl.ticks, most)
	}
	if fast.Net().ChokePct() != 0 || fast.Net().ChokeTotal != 0 {
		t.Errorf("default rate: ChokePct %.1f%%, ChokeTotal %d; want 0", fast.Net().ChokePct(), fast.Net().ChokeTotal)
	}
	if fa.recv+fa.lost != fa.ticks {
		t.Errorf("default rate at cl_updaterate 64: %d snapshots over %d server ticks, want one a tick", fa.recv+fa.lost, fa.ticks)
	}
	// The graph marks the chokes.
	marks := 0
	for i := 0; i < slow.Net().GraphN; i++ {
		marks += slow.Net().GraphAt(i).Choked
	}
	if marks == 0 {
		t.Error("no choke marks in the net_graph samples")
	}
}

// nsCount is what a client has counted of its snapshots: the newest
// snapshot's server tick, snapshots applied, lost (gaps in Seq) and choked
// (the snapshots' Choke fields).
type nsCount struct {
	tick              uint32
	recv, lost, choke int
}

func nsCountOf(c *netclient.Client) nsCount {
	return nsCount{tick: c.View().SnapshotTick, recv: c.View().Stats.SnapshotsReceived, lost: c.Net().Loss.Total, choke: c.Net().ChokeTotal}
}

// nsDelta is what a client counted between two nsCounts: ticks is how
// many ticks the server ran in between, by its own clock.
type nsDelta struct{ ticks, recv, lost, choke int }

func (c nsCount) since(c0 nsCount) nsDelta {
	return nsDelta{ticks: int(c.tick - c0.tick), recv: c.recv - c0.recv, lost: c.lost - c0.lost, choke: c.choke - c0.choke}
}

// nsGraphBytes sums the sizes of the newest n snapshots in c's net_graph.
func nsGraphBytes(t *testing.T, c *netclient.Client, n int) int {
	t.Helper()
	if n > c.Net().GraphN {
		t.Fatalf("the net_graph holds %d samples, not the newest %d", c.Net().GraphN, n)
	}
	sum := 0
	for i := 0; i < n; i++ {
		sum += c.Net().GraphAt(i).Size
	}
	return sum
}

// (d) net_fakejitter delays messages by random amounts but keeps their
// order: snapshots are applied in increasing tick order, none is dropped as
// stale and none is missing; the jitter shows in Net.Jitter.
func TestNetStatsJitterKeepsOrder(t *testing.T) {
	srv := nsServer(t, server.Config{})
	cfg := netclient.DefaultConfig("jitter")
	cfg.UpdateRate = 20 // 50 ms apart: held in order, 0..100 ms delays bunch less
	c := nsConnect(t, srv.Addr(), cfg)
	nsWaitSnapshot(t, c)
	nsDrive(t, 500*time.Millisecond, nil, c)
	calm := c.Net().Jitter.Ms()

	// 100 ms of jitter: far beyond what a busy machine adds to loopback
	// (a calm jitter of 12 ms was measured with -race beside two busy
	// loops, where 30 ms of fake jitter hardly showed).
	c.SetFakeConditions(proto.FakeConditions{JitterMs: 100})
	c0 := nsCountOf(c)
	nsDrive(t, 2*time.Second, nil, c)
	jittery := c.Net().Jitter.Ms()
	// Switching the fake conditions off live must not reorder the queue either.
	c.SetFakeConditions(proto.FakeConditions{})
	nsDrive(t, 300*time.Millisecond, nil, c)
	d := nsCountOf(c).since(c0)

	t.Logf("jitter: %.2f ms on loopback, %.2f ms with net_fakejitter 100; %d snapshots applied over %d server ticks",
		calm, jittery, d.recv, d.ticks)
	if c.View().Stats.DroppedSnapshots != 0 {
		t.Errorf("%d snapshots arrived after a newer one (out of order)", c.View().Stats.DroppedSnapshots)
	}
	if c.Net().Loss.Total != 0 || c.View().Stats.SnapshotsLost != 0 {
		t.Errorf("gaps in Seq without fake loss: tracker %d, stats %d", c.Net().Loss.Total, c.View().Stats.SnapshotsLost)
	}
	// None missing: one every 3.2 server ticks (cl_updaterate 20 at 64
	// ticks/s), by the server's clock, which a busy machine may run slow.
	if want := float64(d.ticks) * 20 / 64; float64(d.recv) < want-1 || float64(d.recv) > want+1 || d.ticks < 64 {
		t.Errorf("%d snapshots applied over %d server ticks at cl_updaterate 20, want %.0f", d.recv, d.ticks, want)
	}
	// Uniform 0..100 ms delays (kept in order) give an RFC 3550 jitter of
	// about 30 ms; loopback alone well under that.
	if jittery < 15 || jittery > 100 {
		t.Errorf("Net.Jitter with net_fakejitter 100: %.2f ms, want 15..100", jittery)
	}
	if jittery < calm+10 {
		t.Errorf("jitter did not rise: %.2f ms on loopback, %.2f ms with net_fakejitter 100", calm, jittery)
	}
}

func nsServer(t *testing.T, cfg server.Config) *server.Server {
	t.Helper()
	return testserver.Start(t, cfg)
}

func nsConnect(t *testing.T, addr string, cfg netclient.Config) *netclient.Client {
	t.Helper()
	return testserver.Connect(t, addr, cfg)
}
