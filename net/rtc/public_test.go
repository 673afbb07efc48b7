//go:build !js

package rtc

import (
	"strings"
	"testing"

	"tickshot/net/transport"
)

// TestAddPublic: after AddPublic (a router's address learnt by port
// mapping) the server's answer carries that address beside its own, and a
// player on this host still opens the data channel on the local one.
func TestAddPublic(t *testing.T) {
	h := host(t)
	if err := h.AddPublic([]string{"not-an-ip"}); err == nil {
		t.Error("AddPublic took a name that is not an IP address")
	}
	if err := h.AddPublic([]string{"203.0.113.7"}); err != nil {
		t.Fatal(err)
	}
	if got := h.Added(); len(got) != 1 || got[0] != "203.0.113.7" {
		t.Errorf("Added() = %v", got)
	}
	c, s, _ := pair(t, h, ModeAuto, transport.Options{}, transport.Options{})
	up(t, c, s)
	s.mu.Lock()
	p, _ := s.pc.(pionPeer)
	s.mu.Unlock()
	if p.pc == nil {
		t.Fatal("the server side has no pion peer connection")
	}
	sdp := p.pc.LocalDescription().SDP
	if !strings.Contains(sdp, " 203.0.113.7 ") || !strings.Contains(sdp, " 127.0.0.1 ") {
		t.Errorf("answer candidates want 203.0.113.7 beside 127.0.0.1:\n%s", candidates(sdp))
	}
}

// candidates are the a=candidate lines of sdp.
func candidates(sdp string) string {
	var out []string
	for _, l := range strings.Split(sdp, "\n") {
		if strings.HasPrefix(l, "a=candidate") {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "\n")
}
