package loadtest

import (
	"context"
	"fmt"
	"sync"
	"time"

	"tickshot/internal/tool/liteclient"
	"tickshot/server"
)

// The --lite load test (issue 23, item 6): clients that speak only the
// wire protocol (package liteclient: join, ack, send scripted usercmds,
// decode snapshots), without prediction, interpolation or the bot brain,
// so that 1 024 of them fit in one process beside the server on a 2-core
// machine. They
// connect over real sockets (the websocket, as the server serves it, on
// loopback), join LiteJoinStagger apart with at most LiteHandshakes
// handshakes in flight, and are stepped at the tick rate by a few driver
// goroutines (liteGroup clients each) instead of a ticker each.
const (
	// MaxLiteClients is the most --lite clients (the big arena's 1 024
	// players; the server's own cap, server.MaxPlayersLimit, decides in
	// process).
	MaxLiteClients = 1024
	// LiteJoinStagger is the pause between two --lite clients' connection
	// attempts: 1 024 join in about 2 s.
	LiteJoinStagger = 2 * time.Millisecond
	// LiteBigMap is the in-process server's map for a --lite run of more
	// than LiteBigMapFrom clients when no --map is given: the big arena,
	// at the same player density as arena at 64 players and sprawl at 256.
	LiteBigMap     = "expanse"
	LiteBigMapFrom = 256

	// LiteHandshakes is the most --lite clients between their connect and
	// their Accept at once: half the server's cap on connections waiting
	// for their Hello from one address (loopback is counted there too,
	// unlike the join rate and sv_maxplayers_per_ip, which exempt it).
	LiteHandshakes = server.MaxPreHelloPerIP / 2
	// liteGroup is how many --lite clients one driver goroutine steps.
	liteGroup = 64
	// liteJoinTimeout bounds one --lite client's dial and handshake.
	liteJoinTimeout = 15 * time.Second
)

// DefaultMap is the in-process server's map when none is given: "" (the
// server's default, arena), or LiteBigMap for a --lite run of more than
// LiteBigMapFrom clients.
func DefaultMap(lite bool, clients int) string {
	if lite && clients > LiteBigMapFrom {
		return LiteBigMap
	}
	return ""
}

// liteClient is one --lite player as the coordinator and its driver see
// it; mu guards everything.
type liteClient struct {
	memberBase
	seed uint64
	conn *liteclient.Client // nil until joined
}

func (cl *liteClient) state() (bool, error) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.conn != nil && cl.conn.Stats().Snapshots > 0, cl.err
}

func (cl *liteClient) mark() counters {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.conn.ResetPeak()
	return liteCounters(cl.conn)
}

func (cl *liteClient) read() counters {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return liteCounters(cl.conn)
}

// step runs the client at now: what arrived is decoded and acked, and
// the scripted usercmds due (one per server tick) are sent.
func (cl *liteClient) step(now time.Time) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.conn == nil || cl.err != nil {
		return
	}
	if err := cl.conn.Poll(now); err != nil {
		cl.err = err
		return
	}
	cl.conn.Tick(now)
}

// startLite joins opt.Clients --lite clients to addr in the background:
// joined gets one error (nil: joined) per client, and the drivers step
// them at tickRate until ctx ends (wg counts every goroutine).
func startLite(ctx context.Context, opt Options, addr string, tickRate int, joined chan<- error, wg *sync.WaitGroup) []member {
	clients := make([]*liteClient, opt.Clients)
	members := make([]member, opt.Clients)
	for i := range clients {
		clients[i] = &liteClient{memberBase: memberBase{label: fmt.Sprintf("lite%d", i+1)}, seed: opt.Seed + uint64(i)*7919 + 1}
		members[i] = clients[i]
	}
	for g := 0; g < len(clients); g += liteGroup {
		group := clients[g:min(g+liteGroup, len(clients))]
		wg.Add(1)
		go func() {
			defer wg.Done()
			driveLite(ctx, group, tickRate)
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		sem := make(chan struct{}, LiteHandshakes)
		for i, cl := range clients {
			if i > 0 {
				if err := Sleep(ctx, LiteJoinStagger); err != nil {
					joined <- err
					continue
				}
			}
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				joined <- ctx.Err()
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				conn, err := joinLite(ctx, addr, cl.label, cl.seed, opt)
				<-sem
				if err != nil {
					err = fmt.Errorf("could not join %s: %w", addr, err)
					cl.mu.Lock()
					cl.err = err
					cl.mu.Unlock()
					joined <- fmt.Errorf("client %s %w", cl.label, err)
					return
				}
				cl.mu.Lock()
				cl.conn = conn
				cl.mu.Unlock()
				joined <- nil
				<-ctx.Done()
				cl.mu.Lock()
				conn.Close("load test over")
				cl.mu.Unlock()
			}()
		}
	}()
	return members
}

// driveLite steps group at tickRate until ctx ends.
func driveLite(ctx context.Context, group []*liteClient, tickRate int) {
	t := time.NewTicker(time.Second / time.Duration(tickRate))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			for _, cl := range group {
				cl.step(now)
			}
		}
	}
}
