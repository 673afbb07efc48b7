package server_test

import (
	"context"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/server"
)

// TestChurnNeverRefusesFreeSlot joins and leaves a 4-slot server as fast as
// possible from 3 goroutines over real websockets: never more than 3 of
// its own clients are connected at once, so every join must be admitted as
// a player — neither refused as "server is full" nor parked as a
// spectator because a player who had already left still held a slot.
func TestChurnNeverRefusesFreeSlot(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 4, Bots: 0})
	const workers, joins = 3, 60
	var wg sync.WaitGroup
	errs := make(chan error, workers*joins)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range joins {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				c, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.Config{Name: fmt.Sprintf("churn%d", w)})
				cancel()
				if err != nil {
					errs <- fmt.Errorf("worker %d join %d refused with at most %d of 4 slots held: %v", w, i, workers, err)
					return
				}
				if c.View().Spectating {
					errs <- fmt.Errorf("worker %d join %d made a spectator with at most %d of 4 slots held", w, i, workers)
				}
				c.Close("churn")
				<-c.Closed() // left: the Disconnect is on the wire
			}
		}()
	}
	wg.Wait()
	close(errs)
	n := 0
	for err := range errs {
		if n++; n <= 5 {
			t.Error(err)
		}
	}
	if n > 5 {
		t.Errorf("... %d failures in all", n)
	}
}

// observer is a netclient that ticks at the server's rate in its own
// goroutine, standing still, counting the snapshots and bytes it receives
// and the server tick of the newest snapshot.
type observer struct {
	tickRate int
	mu       sync.Mutex
	seen     obsCount     // at its last Poll
	rows     atomic.Int64 // scoreboard rows
	errc     chan error
	stop     chan struct{}
	done     chan struct{}
}

type obsCount struct {
	snaps int
	bytes uint64
	tick  uint32
}

func (o *observer) count() obsCount {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.seen
}

func startObserver(t *testing.T, addr string, cfg netclient.Config, lagMs float64) *observer {
	t.Helper()
	c := testserver.Connect(t, addr, cfg)
	c.SetFakeConditions(proto.FakeConditions{LagMs: lagMs})
	o := &observer{tickRate: c.View().TickRate, errc: make(chan error, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(o.done)
		tk := time.NewTicker(time.Second / time.Duration(c.View().TickRate))
		defer tk.Stop()
		last := time.Now()
		for {
			select {
			case <-o.stop:
				return
			case now := <-tk.C:
				if err := c.Poll(); err != nil {
					o.errc <- err
					return
				}
				c.Tick(now.Sub(last), netclient.Input{})
				last = now
				o.mu.Lock()
				o.seen = obsCount{c.View().Stats.SnapshotsReceived, c.ConnStats().BytesIn, c.View().SnapshotTick}
				o.mu.Unlock()
				o.rows.Store(int64(len(c.View().Scores)))
			}
		}
	}()
	t.Cleanup(func() { close(o.stop); <-o.done })
	return o
}

// rates returns what o received while during ran: snapshots and kB per
// second of the server's clock (its ticks, as the snapshots carry them:
// a busy machine may run fewer ticks in a wall second, and the server
// sends per tick).
func (o *observer) rates(during func()) (snapsPerSec, kBPerSec float64) {
	c0 := o.count()
	during()
	c1 := o.count()
	secs := float64(c1.tick-c0.tick) / float64(o.tickRate)
	if secs <= 0 {
		return 0, 0
	}
	return float64(c1.snaps-c0.snaps) / secs, float64(c1.bytes-c0.bytes) / secs / 1000
}

// churn joins and leaves the server at addr as fast as it can from
// workers goroutines until stop closes; it returns the joins admitted.
func churn(addr string, workers int, stop <-chan struct{}) *atomic.Int64 {
	var joins atomic.Int64
	for w := range workers {
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				c, err := netclient.Connect(ctx, netclient.Websocket, addr, netclient.Config{Name: fmt.Sprintf("churn%d", w)})
				cancel()
				if err != nil {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				joins.Add(1)
				c.Close("churn")
				<-c.Closed()
			}
		}()
	}
	return &joins
}

// TestChurnDoesNotStarveSnapshots: while 6 connections from one address
// (loopback, so that the per-address join limit does not apply and only
// the snapshot's event budget is tested) join and leave as fast as they
// can, each join and leave a notice for every player, an observer with
// rate 20000 keeps receiving about its cl_updaterate of snapshots, and one
// with the default rate keeps its download near what it was before the
// churn. (Before the event budget the first's download sat at its rate and
// its snapshots fell to 12/s, the second's grew 15-fold.) Run with -v for
// the figures.
func TestChurnDoesNotStarveSnapshots(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 16, Bots: 8})
	testChurn(t, addr, addr, 6, 50)
}

// TestChurnFromOneAddress is the same with 4 connections from the
// machine's own non-loopback address, as a stranger would churn: the join
// limit (joinlimit.go) admits a few joins a second and the observers'
// downloads hardly change.
func TestChurnFromOneAddress(t *testing.T) {
	_, addr, lan := startLANServer(t, server.Config{MaxPlayers: 16, Bots: 8})
	testChurn(t, addr, lan, 4, 0.5)
}

// startLANServer runs a server on every interface until the test ends and
// returns its loopback address and its address on the machine's own
// non-loopback IPv4 address (connections there come from that address);
// it skips the test when the machine has none.
func startLANServer(t *testing.T, cfg server.Config) (srv *server.Server, loopback, lan string) {
	t.Helper()
	ip := lanIP()
	if ip == "" {
		t.Skip("no non-loopback IPv4 address on this machine")
	}
	cfg.Addr, cfg.Seed = ":0", 42
	srv = testserver.Start(t, cfg)
	_, port, _ := net.SplitHostPort(srv.Addr())
	loopback, lan = net.JoinHostPort("127.0.0.1", port), net.JoinHostPort(ip, port)
	waitFor(t, 3*time.Second, "first status", func() bool {
		st, err := getStatus(lan)
		return err == nil && st.Tick > 0
	})
	return srv, loopback, lan
}

// testChurn measures two observers on the server at addr (8 bots) before
// and while workers connections join and leave through churnAddr, and
// checks that the churn neither starves their snapshots nor swells their
// downloads; the churn must reach minCycles joins/s.
func testChurn(t *testing.T, addr, churnAddr string, workers int, minCycles float64) {
	slowCfg := netclient.DefaultConfig("slow")
	slowCfg.Rate = 20000
	slow := startObserver(t, addr, slowCfg, 150)
	normal := startObserver(t, addr, netclient.DefaultConfig("normal"), 150)
	time.Sleep(500 * time.Millisecond) // settled: acks flowing, scoreboards sent
	var quietSlow, quietNormal, quietSlowKB, quietNormalKB float64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		quietSlow, quietSlowKB = slow.rates(func() { time.Sleep(2 * time.Second) })
	}()
	quietNormal, quietNormalKB = normal.rates(func() { time.Sleep(2 * time.Second) })
	wg.Wait()

	stop := make(chan struct{})
	joins := churn(churnAddr, workers, stop)
	time.Sleep(500 * time.Millisecond) // the churn's events pile up
	var churnSlow, churnNormal, churnSlowKB, churnNormalKB float64
	j0, start := joins.Load(), time.Now()
	wg.Add(1)
	go func() {
		defer wg.Done()
		churnSlow, churnSlowKB = slow.rates(func() { time.Sleep(3 * time.Second) })
	}()
	churnNormal, churnNormalKB = normal.rates(func() { time.Sleep(3 * time.Second) })
	wg.Wait()
	cycles := float64(joins.Load()-j0) / time.Since(start).Seconds()
	close(stop)
	// The scoreboards stay the truth: once the churn stops, both list the
	// 8 bots and the 2 observers.
	waitFor(t, 5*time.Second, "scoreboards of 10 players after the churn", func() bool {
		return slow.rows.Load() == 10 && normal.rows.Load() == 10
	})

	t.Logf("per second of server ticks; quiet: rate 20000 %.1f snapshots/s %.1f kB/s; default rate %.1f snapshots/s %.1f kB/s",
		quietSlow, quietSlowKB, quietNormal, quietNormalKB)
	t.Logf("churn %.0f joins/s: rate 20000 %.1f snapshots/s %.1f kB/s; default rate %.1f snapshots/s %.1f kB/s",
		cycles, churnSlow, churnSlowKB, churnNormal, churnNormalKB)
	for _, o := range []*observer{slow, normal} {
		select {
		case err := <-o.errc:
			t.Fatalf("an observer was disconnected: %v", err)
		default:
		}
	}
	if cycles < minCycles {
		// A machine too loaded to churn fast enough cannot tell a
		// bounded download from an unbounded one.
		t.Skipf("the churn made only %.0f joins/s, under %.0f: too few to tell (a loaded machine)", cycles, minCycles)
	}
	if churnSlow < 15 {
		t.Errorf("rate 20000 observer: %.1f snapshots/s under churn, want about 20 (quiet: %.1f)", churnSlow, quietSlow)
	}
	if churnNormal < 15 {
		t.Errorf("default-rate observer: %.1f snapshots/s under churn, want about 20 (quiet: %.1f)", churnNormal, quietNormal)
	}
	// At most 8 notices of ~20 bytes per snapshot, 20 snapshots/s: 3.2
	// kB/s more, and the scoreboard's new names.
	if limit := 2*quietNormalKB + 8; churnNormalKB > limit {
		t.Errorf("default-rate observer: %.1f kB/s under churn, want at most %.1f (quiet: %.1f)", churnNormalKB, limit, quietNormalKB)
	}
	if limit := 2*quietSlowKB + 8; churnSlowKB > limit {
		t.Errorf("rate 20000 observer: %.1f kB/s under churn, want at most %.1f (quiet: %.1f; its rate is 20 kB/s)", churnSlowKB, limit, quietSlowKB)
	}
}
