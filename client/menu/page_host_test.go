//go:build !headless

package menu

import (
	"slices"
	"strings"
	"testing"
)

// The host page's buttons step within the limits: slots under the
// limit, never fewer than the bots, the tick rate between its bounds.
func TestHostChoiceSteps(t *testing.T) {
	c := newHostChoice(Options{Maps: []string{"arena", "range"}, MaxPlayersLimit: 8, MinTickRate: 32, MaxTickRate: 100})
	if c.maxPlayers != 8 || c.bots != 3 || c.tickRate != 64 || c.mapIdx != 0 {
		t.Fatalf("defaults %+v", c)
	}
	c.nextMap()
	c.nextMap()
	if c.mapIdx != 0 {
		t.Errorf("two maps, two steps: map %d, want 0", c.mapIdx)
	}
	for range 6 {
		c.nextBots()
	}
	if c.bots != 0 {
		t.Errorf("3 bots, 6 steps among 0..8: %d, want 0", c.bots)
	}
	c.bots = 8
	c.nextMaxPlayers() // 8 → 2: the sizes above the limit are skipped
	if c.maxPlayers != 2 || c.bots != 2 {
		t.Errorf("after 8 slots: %d slots, %d bots; want 2 and 2", c.maxPlayers, c.bots)
	}
	big := newHostChoice(Options{Maps: []string{"expanse"}, MaxPlayersLimit: 1024})
	for big.maxPlayers != 1024 {
		big.nextMaxPlayers()
	}
	var bots []int
	for range 14 {
		big.nextBots()
		bots = append(bots, big.bots)
	}
	if want := []int{4, 5, 6, 7, 8, 12, 16, 24, 32, 48, 64, 128, 256, 512}; !slices.Equal(bots, want) {
		t.Errorf("bots of 1024 slots step %v, want %v", bots, want)
	}
	big.nextBots()
	big.nextBots()
	if big.bots != 0 {
		t.Errorf("after 1024 bots: %d, want 0", big.bots)
	}
	var rates []int
	for range 4 {
		c.nextTickRate()
		rates = append(rates, c.tickRate)
	}
	if want := []int{100, 32, 64, 100}; !slices.Equal(rates, want) {
		t.Errorf("tick rates %v, want %v (128 above the most, 20 raised to the least)", rates, want)
	}
}

// The server's name is cleaned, defaults to the player's game and is cut
// to 64 bytes.
func TestHostChoiceOptions(t *testing.T) {
	c := newHostChoice(Options{Maps: []string{"arena"}})
	o := c.options("ann", `  LAN "party"  `, "pw")
	if o != (HostOptions{Player: "ann", Hostname: "LAN party", Map: "arena", Bots: 3, MaxPlayers: 16, TickRate: 64, Password: "pw"}) {
		t.Errorf("options %+v", o)
	}
	if o := c.options("ann", "   ", ""); o.Hostname != "ann's game" {
		t.Errorf("an empty name gives %q", o.Hostname)
	}
	if o := c.options("ann", strings.Repeat("x", 70), ""); len(o.Hostname) != 64 {
		t.Errorf("a 70-byte name gives %d bytes", len(o.Hostname))
	}
}
