//go:build !js

package lan

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/grandcat/zeroconf"
)

// A hostile host on the LAN that answers with thousands of instances, each
// with hundreds of addresses, neither grows the browser without bound nor
// starts a poll per instance: the browser keeps at most MaxServers
// entries, tries at most MaxCandidates addresses of each, and a real
// server announced before the flood stays listed.
func TestBrowserSurvivesAnnouncementFlood(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, `{"name":"real","map":"arena","maxplayers":8,"protocol":1,"players":[]}`)
	}))
	defer srv.Close()
	host, portStr, _ := net.SplitHostPort(srv.Listener.Addr().String())
	var port int
	fmt.Sscan(portStr, &port)

	ctx, cancel := context.WithCancel(context.Background())
	b := &Browser{ctx: ctx, cancel: cancel, entries: map[string]*entry{}, http: &http.Client{Timeout: 2 * time.Second}} // generous: a loaded machine must not fail the real poll
	defer b.Close()
	real := zeroconf.NewServiceEntry("real", ServiceType, Domain)
	real.Port = port
	real.AddrIPv4 = []net.IP{net.ParseIP(host)}
	real.Text = []string{"name=real"}
	b.saw(real)

	goroutines := runtime.NumGoroutine()
	// Addresses nobody listens on (TEST-NET-1, RFC 5737): a poll of each
	// would wait for its timeout.
	var many []net.IP
	for i := 0; i < 300; i++ {
		many = append(many, net.IPv4(192, 0, 2, byte(i%250+1)).To4())
	}
	for i := 0; i < 5000; i++ {
		e := zeroconf.NewServiceEntry(fmt.Sprintf("flood-%d", i), ServiceType, Domain)
		e.Port = 27015
		e.AddrIPv4 = many
		b.saw(e)
	}
	b.mu.Lock()
	n := len(b.entries)
	maxAddrs := 0
	for _, en := range b.entries {
		maxAddrs = max(maxAddrs, len(en.addrs))
	}
	_, kept := b.entries["real"]
	b.mu.Unlock()
	if n > 256 {
		t.Errorf("%d entries after a flood of 5000 instances, want at most 256 (MaxServers %d)", n, MaxServers)
	}
	if maxAddrs > 4 {
		t.Errorf("an entry keeps %d addresses, want at most 4 (MaxCandidates %d)", maxAddrs, MaxCandidates)
	}
	if !kept {
		t.Error("the server announced before the flood was dropped")
	}
	// A poll is one goroutine per entry, and each of its candidate
	// addresses may leave an HTTP dial and its timer running a moment after
	// the poll gave up on it: bounded by the entries and MaxCandidates, not
	// by the instances announced (5000) or their addresses (300 each).
	if g, limit := runtime.NumGoroutine()-goroutines, MaxServers*(1+2*MaxCandidates); g > limit {
		t.Errorf("%d goroutines started by the flood, want at most %d (per entry a poll, and a dial and a timer per candidate address)", g, limit)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		for _, s := range b.Servers() {
			if s.Name == "real" {
				return
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("the real server is not listed during the flood: %d servers listed", len(b.Servers()))
}
