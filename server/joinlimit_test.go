package server_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/server"
)

// TestJoinRateLimit: 4 connections from one (non-loopback) address join
// and leave as fast as they can for 2 s; the server admits at most
// JoinBurst joins and then JoinsPerSecond, refusing the rest with Reject
// "joining too fast; wait a second", while joins from loopback are not
// limited and the address may join again after a pause. (Before the limit
// every join was admitted: well over a hundred.) The clients connect to
// the machine's own non-loopback address so that the server sees them
// come from it.
func TestJoinRateLimit(t *testing.T) {
	_, loopback, addr := startLANServer(t, server.Config{MaxPlayers: 16})
	ip, _, _ := net.SplitHostPort(addr)

	join := func(to, name string) (*netclient.Client, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return netclient.Connect(ctx, netclient.Websocket, to, netclient.Config{Name: name})
	}
	var admitted, tooFast atomic.Int64
	var otherMu sync.Mutex
	var other []string
	start := time.Now()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// 2 s, longer (up to 20 s) until a join was refused: a busy
			// machine may join too slowly at first to meet the limit. The
			// limit is judged over the time really elapsed.
			for el := time.Since(start); el < 2*time.Second || (tooFast.Load() == 0 && el < 20*time.Second); el = time.Since(start) {
				c, err := join(addr, "churn")
				switch {
				case err == nil:
					admitted.Add(1)
					c.Close("churn")
					<-c.Closed()
				case strings.Contains(err.Error(), server.JoinTooFastReason):
					tooFast.Add(1)
				case strings.Contains(err.Error(), "too many players from your address"):
					// sv_maxplayers_per_ip: a leaver not yet dropped.
				default:
					otherMu.Lock()
					other = append(other, err.Error())
					otherMu.Unlock()
					return
				}
			}
		}()
	}
	// Meanwhile the host's own clients join and leave without a limit.
	for i := range 2 * server.JoinBurst {
		c, err := join(loopback, "local")
		if err != nil {
			t.Fatalf("loopback join %d refused: %v", i, err)
		}
		c.Close("done")
		<-c.Closed()
	}
	wg.Wait()
	elapsed := time.Since(start)
	t.Logf("from %s in %v: %d joins admitted (%.1f/s), %d refused as too fast", ip, elapsed.Round(time.Millisecond),
		admitted.Load(), float64(admitted.Load())/elapsed.Seconds(), tooFast.Load())
	if len(other) > 0 {
		t.Fatalf("unexpected join failures: %q", other)
	}
	if most := int64(server.JoinBurst + server.JoinsPerSecond*elapsed.Seconds() + 2); admitted.Load() > most {
		t.Errorf("%d joins admitted from one address in %v, want at most %d (burst %d, %d/s)",
			admitted.Load(), elapsed.Round(time.Millisecond), most, server.JoinBurst, server.JoinsPerSecond)
	}
	if admitted.Load() < server.JoinBurst {
		t.Errorf("only %d joins admitted, want at least the burst of %d", admitted.Load(), server.JoinBurst)
	}
	if tooFast.Load() == 0 {
		t.Errorf("no join was refused as %q", server.JoinTooFastReason)
	}
	// After a pause the address joins again.
	time.Sleep(time.Second / server.JoinsPerSecond * 3 / 2)
	c, err := join(addr, "patient")
	if err != nil {
		t.Fatalf("join after a pause refused: %v", err)
	}
	c.Close("done")
}
