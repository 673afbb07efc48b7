package server

import (
	"fmt"
	"testing"
	"time"
)

// TestAddrLog: one line per address per addrLogEvery carrying the count
// since the last, addresses apart, and the map bounded under a flood of
// addresses.
func TestAddrLog(t *testing.T) {
	var l addrLog
	now := time.Unix(1000, 0)
	if n := l.note("a", now); n != 1 {
		t.Fatalf("first event: %d, want a line for 1", n)
	}
	for i := range 100 {
		if n := l.note("a", now.Add(time.Duration(i)*time.Millisecond)); n != 0 {
			t.Fatalf("event %d within the interval logged (%d)", i, n)
		}
	}
	if n := l.note("b", now); n != 1 {
		t.Errorf("another address: %d, want its own line", n)
	}
	if n := l.note("a", now.Add(addrLogEvery)); n != 101 {
		t.Errorf("after the interval: %d, want the 101 since the last line", n)
	}
	for i := range 3 * addrLogMaxTracked {
		l.note(fmt.Sprint("flood", i), now.Add(time.Duration(i)*time.Microsecond))
	}
	if len(l.addrs.m) > addrLogMaxTracked {
		t.Errorf("%d addresses remembered, bound %d", len(l.addrs.m), addrLogMaxTracked)
	}
}

// TestDirectClient: only a direct loopback peer is exempt; a name that is
// not host:port (a pipe) has no address.
func TestDirectClient(t *testing.T) {
	for remote, want := range map[string]clientAddr{
		"127.0.0.1:5":     {key: "127.0.0.1", exempt: true},
		"[::1]:5":         {key: "::1", exempt: true},
		"203.0.113.7:5":   {key: "203.0.113.7"},
		"[2001:db8::1]:5": {key: "2001:db8::/64"},
		"pipe":            {},
	} {
		if got := directClient(remote); got != want {
			t.Errorf("directClient(%q) = %+v, want %+v", remote, got, want)
		}
	}
}
