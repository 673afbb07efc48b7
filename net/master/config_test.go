//go:build !js

package master

import (
	"testing"
	"time"
)

// TestCheckTimeoutCapped: a CheckTimeout past MaxCheckTimeout is cut to
// it, so a register (a Host lookup and a /status fetch) is answered
// within the registering server's RegisterTimeout.
func TestCheckTimeoutCapped(t *testing.T) {
	if 2*MaxCheckTimeout >= RegisterTimeout {
		t.Fatalf("two checks of %v do not fit a register's %v", MaxCheckTimeout, RegisterTimeout)
	}
	for give, want := range map[time.Duration]time.Duration{0: DefaultCheckTimeout, time.Second: time.Second, time.Minute: MaxCheckTimeout} {
		c := Config{CheckTimeout: give}
		c.fill()
		if c.CheckTimeout != want {
			t.Errorf("CheckTimeout %v filled as %v, want %v", give, c.CheckTimeout, want)
		}
		if m := New(Config{CheckTimeout: give}); m.client.Timeout != want {
			t.Errorf("CheckTimeout %v: the check's client waits %v, want %v", give, m.client.Timeout, want)
		}
	}
}
