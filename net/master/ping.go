//go:build !js

package master

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"time"

	"tickshot/net/lan"
	"tickshot/net/proto"
)

// Ping defaults.
const (
	// PingConcurrency is the most /status requests Ping has in flight.
	PingConcurrency = 16
	// PingTimeout bounds one server's /status (lan.StatusTimeout).
	PingTimeout = lan.StatusTimeout
)

// Ping fetches the /status of every entry (lan.GetStatus), at most
// concurrency at once (PingConcurrency when 0), each within timeout
// (PingTimeout when 0), and returns the servers that answered, nearest
// first, with their details as their own /status says now and Ping its
// round trip (connection set-up included), and the entries that did not
// answer (stopped since their last register, or unreachable from here).
func Ping(ctx context.Context, entries []Entry, concurrency int, timeout time.Duration) (answered []lan.Server, silent []Entry) {
	if concurrency <= 0 {
		concurrency = PingConcurrency
	}
	if timeout <= 0 {
		timeout = PingTimeout
	}
	client := &http.Client{Timeout: timeout, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	defer client.CloseIdleConnections()
	got := make([]lan.Server, len(entries))
	ok := make([]bool, len(entries))
	sem := make(chan struct{}, concurrency)
	var wg sync.WaitGroup
	for i, e := range entries {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			s, err := lan.GetStatus(ctx, client, e.Addr)
			s.Name, s.Map = proto.CleanName(s.Name, 64), proto.CleanName(s.Map, 64)
			got[i], ok[i] = s, err == nil
		}()
	}
	wg.Wait()
	for i, e := range entries {
		if ok[i] {
			answered = append(answered, got[i])
		} else {
			silent = append(silent, e)
		}
	}
	sort.SliceStable(answered, func(i, j int) bool { return answered[i].Ping < answered[j].Ping })
	return answered, silent
}
