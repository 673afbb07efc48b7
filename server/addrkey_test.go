package server

import (
	"fmt"
	"testing"
	"time"
)

// TestAddrKey: the per-address limits count IPv4 by address and IPv6 by
// /64, so one host handed a /64 cannot take a fresh address per
// connection to get around them.
func TestAddrKey(t *testing.T) {
	for _, c := range []struct{ remote, key string }{
		{"192.0.2.7:5000", "192.0.2.7"},
		{"[::ffff:192.0.2.7]:5000", "192.0.2.7"},
		{"[2001:db8:1:2::1]:5000", "2001:db8:1:2::/64"},
		{"[2001:db8:1:2:ffff:ffff:ffff:ffff]:5001", "2001:db8:1:2::/64"},
		{"[2001:db8:1:3::1]:5000", "2001:db8:1:3::/64"},
		{"[fe80::1%eth0]:5000", "fe80::/64"},
		{"[::1]:5000", "::1"},
		{"127.0.0.2:5000", "127.0.0.2"},
		{"pipe", ""},
	} {
		if got := remoteIP(c.remote); got != c.key {
			t.Errorf("remoteIP(%q) = %q, want %q", c.remote, got, c.key)
		}
	}
	for key, want := range map[string]bool{"::1": true, "127.0.0.2": true, "2001:db8:1:2::/64": false, "192.0.2.7": false, "": false} {
		if got := isLoopbackKey(key); got != want {
			t.Errorf("isLoopbackKey(%q) = %v, want %v", key, got, want)
		}
	}
	if a, b := directClient("[2001:db8:1:2::1]:1").key, directClient("[2001:db8:1:2::99]:2").key; a != b {
		t.Errorf("rcon guesses from one /64 counted apart: %q and %q", a, b)
	}
}

// TestJoinLimitGroupsIPv6By64: joins from many addresses of one /64 share
// one join-rate bucket; another /64 has its own.
func TestJoinLimitGroupsIPv6By64(t *testing.T) {
	var l joinLimiter
	now := time.Unix(1000, 0)
	admitted := 0
	for i := range 40 {
		remote := fmt.Sprintf("[2001:db8:1:2:%x::1]:1", i+1)
		if l.allow(remoteIP(remote), now) {
			admitted++
		}
	}
	if admitted > JoinBurst {
		t.Errorf("%d of 40 joins from one /64 admitted at once, want at most the burst %d", admitted, JoinBurst)
	}
	if !l.allow(remoteIP("[2001:db8:9:9::1]:1"), now) {
		t.Error("a join from another /64 was refused")
	}
}
