//go:build !js

package master

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

// TestListFitsWhatClientsRead: a full list (DefaultMaxServers) of the
// longest entries a master lists (names of '<', which JSON writes as 6
// bytes each, 253-byte hosts) is served cut to MaxListBytes, the most a
// client reads, so that Fetch still parses it; the servers kept are the
// head of the list (most players), and a list that fits is served whole.
func TestListFitsWhatClientsRead(t *testing.T) {
	m := New(Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	host := strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 61)
	now := time.Now()
	for i := range DefaultMaxServers {
		e := Entry{Name: strings.Repeat("<", 60) + fmt.Sprint(i), Addr: fmt.Sprintf("%s:%d", host, 1+i), Map: strings.Repeat("&", 64),
			Players: i, MaxPlayers: 1 << 16, Protocol: 1, Region: strings.Repeat(">", MaxRegionLen)}
		m.servers[e.Addr] = &listed{e: e, key: netip.AddrFrom4([4]byte{10, 0, byte(i >> 8), byte(i)}), checked: now}
	}
	all, _ := json.Marshal(List{Servers: m.Servers()})
	if len(all) <= MaxListBytes {
		t.Fatalf("the whole list is %d bytes: the test wants one over MaxListBytes (%d)", len(all), MaxListBytes)
	}
	ts := httptest.NewServer(m.Handler())
	defer ts.Close()
	got, err := Fetch(context.Background(), nil, ts.URL)
	if err != nil {
		t.Fatalf("a full list of long entries (%d bytes whole): %v", len(all), err)
	}
	c := m.current()
	if len(c.json) > MaxListBytes || len(got) == 0 || len(got) >= DefaultMaxServers {
		t.Fatalf("served %d bytes, %d servers: want at most %d bytes, cut short of %d", len(c.json), len(got), MaxListBytes, DefaultMaxServers)
	}
	for i, e := range got {
		if want := DefaultMaxServers - 1 - i; e.Players != want {
			t.Fatalf("entry %d has %d players, want %d: the cut must keep the head of the list", i, e.Players, want)
		}
	}
	t.Logf("%d bytes whole, served %d of %d servers in %d bytes", len(all), len(got), DefaultMaxServers, len(c.json))

	short := m.Servers()[:10]
	if f := fitList(short, MaxListBytes); len(f) != 10 {
		t.Errorf("a list of 10 cut to %d", len(f))
	}
	one, _ := json.Marshal(List{Servers: short[:1]})
	if f := fitList(short, len(one)); len(f) != 1 {
		t.Errorf("a budget of exactly one entry's list kept %d", len(f))
	}
	if f := fitList(short, len(one)-1); len(f) != 0 {
		t.Errorf("a budget one byte short of one entry kept %d", len(f))
	}
}
