package server_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/internal/tool/testserver"
	"tickshot/net/proto"
	"tickshot/server"
)

// play polls and ticks c at 64 Hz until stop returns true or d passes; it
// fails the test on a connection error and reports whether stop held.
func play(t *testing.T, c *netclient.Client, d time.Duration, stop func() bool) bool {
	t.Helper()
	const dt = time.Second / 64
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(dt) {
		if err := c.Poll(); err != nil {
			t.Fatalf("client: %v", err)
		}
		c.Tick(dt, netclient.Input{})
		if stop() {
			return true
		}
	}
	return false
}

// onSpawnOf reports whether the client's authoritative position is one of
// m's spawn points (a player that has not moved since the map change).
func onSpawnOf(c *netclient.Client, m *game.Map) bool {
	s := c.View().ServerState
	for _, p := range m.Spawns {
		if math.Hypot(s.X-p.X, s.Y-p.Y) < 1 {
			return true
		}
	}
	return false
}

// TestMapCycleAdvancesAtMatchEnd: with mapcycle arena range and a match of
// 0.3 s, the server loads range when the intermission after the first match
// ends, and a real client joined over a websocket ends up on range: its map,
// the walls its prediction runs against, and its own position on one of
// range's spawns, agreeing with the server, and it saw the EvChangeLevel
// and the new match.
func TestMapCycleAdvancesAtMatchEnd(t *testing.T) {
	srv, addr := startServer(t, server.Config{MapCycle: []string{"arena", "range"}, Bots: 1,
		Cvars: [][2]string{{"mp_timelimit", "0.005"}, {"mp_chattime", "5"}}}) // 0.3 s matches, 5 s intermissions
	if st := srv.CurrentStatus(); st.Map != "arena" {
		t.Fatalf("started on %q, want the cycle's first map arena", st.Map)
	}
	c := testserver.Connect(t, addr, netclient.DefaultConfig("cycler"))
	if c.View().Map.Name != "arena" {
		t.Fatalf("client joined on %q", c.View().Map.Name)
	}
	var sawChange, sawStartAfter bool
	rng, err := game.LoadMap("range")
	if err != nil {
		t.Fatal(err)
	}
	ok := play(t, c, 15*time.Second, func() bool {
		for _, e := range c.Match().TakeEvents() {
			switch {
			case e.Kind == proto.EvChangeLevel && e.Text == "range":
				sawChange = true
			case e.Kind == proto.EvMatchStart && sawChange:
				sawStartAfter = true
			}
		}
		return sawStartAfter && c.View().Map.Name == "range" && onSpawnOf(c, rng)
	})
	if !ok {
		t.Fatalf("after 15 s: client map %q, EvChangeLevel seen %v, EvMatchStart after it %v, on a range spawn %v; server map %q",
			c.View().Map.Name, sawChange, sawStartAfter, onSpawnOf(c, rng), srv.CurrentStatus().Map)
	}
	if len(c.View().World.Walls) != len(rng.Walls) || c.View().World.Walls[0] != rng.Walls[0] {
		t.Errorf("the client predicts against %d walls, range has %d", len(c.View().World.Walls), len(rng.Walls))
	}
	if got := strings.Join(c.Match().TakePrints(), "\n"); !strings.Contains(got, "changelevel: map range") {
		t.Errorf("client console: %q, want it told of the map change", got)
	}
	play(t, c, time.Second, func() bool { return srv.CurrentStatus().Map == "range" })
	if st := srv.CurrentStatus(); st.Map != "range" {
		t.Errorf("server status map %q, want range", st.Map)
	}
}

// TestChangelevelOverRcon: "rcon changelevel range" switches the map at
// once, answers so, and moves a connected client there; an unknown map is
// refused with a reply that names it and the maps there are, and changes
// nothing.
func TestChangelevelOverRcon(t *testing.T) {
	const pw = "rcon-pw"
	srv, addr := startServer(t, server.Config{RconPassword: pw, Map: "arena"})
	c := testserver.Connect(t, addr, netclient.DefaultConfig("admin"))
	play(t, c, 5*time.Second, func() bool { return c.View().HaveSnapshot })

	reply := func(cmd string) string {
		c.Match().TakePrints()
		c.SendCommand("rcon "+cmd, pw)
		var got []string
		play(t, c, 5*time.Second, func() bool {
			for _, p := range c.Match().TakePrints() {
				if strings.HasPrefix(p, "changelevel:") && !strings.HasPrefix(p, "changelevel: map ") {
					got = append(got, p)
				}
			}
			return len(got) > 0
		})
		return strings.Join(got, "\n")
	}

	if got, want := reply("changelevel nowhere"), `changelevel: no map "nowhere" (available: arena, bunker, expanse, foundry, lab, plaza, range, sprawl)`; got != want {
		t.Errorf("unknown map: reply %q, want %q", got, want)
	}
	play(t, c, 300*time.Millisecond, func() bool { return false })
	if c.View().Map.Name != "arena" || srv.CurrentStatus().Map != "arena" {
		t.Errorf("after a refused changelevel: client on %q, server on %q; want arena", c.View().Map.Name, srv.CurrentStatus().Map)
	}

	sent := time.Now()
	if got, want := reply("changelevel range"), "changelevel: switching to range"; got != want {
		t.Errorf("changelevel range: reply %q, want %q", got, want)
	}
	rng, _ := game.LoadMap("range")
	if !play(t, c, 5*time.Second, func() bool { return c.View().Map.Name == "range" && onSpawnOf(c, rng) }) {
		t.Errorf("client on %q after changelevel range", c.View().Map.Name)
	}
	t.Logf("rcon changelevel to the client on range at a range spawn: %v", time.Since(sent).Round(time.Millisecond))
	if got := srv.Exec("changelevel"); !strings.HasPrefix(got, "usage: changelevel MAP") {
		t.Errorf("changelevel without a map: %q", got)
	}
}

// TestChangelevelSurvivesLongLoss: a client that receives nothing for
// longer than an event's lifetime (server.EventLifetime) while the map
// changes still learns the new map once snapshots reach it again: the
// newest EvChangeLevel is resent until the client acks a snapshot after it.
func TestChangelevelSurvivesLongLoss(t *testing.T) {
	srv, addr := startServer(t, server.Config{Map: "arena"})
	c := testserver.Connect(t, addr, netclient.DefaultConfig("deaf"))
	play(t, c, 5*time.Second, func() bool { return c.View().HaveSnapshot })
	c.SetFakeConditions(proto.FakeConditions{LossPct: 100})
	if got := srv.Exec("changelevel range"); got != "changelevel: switching to range" {
		t.Fatalf("changelevel: %q", got)
	}
	play(t, c, (server.EventLifetime+1)*time.Second, func() bool { return false })
	if c.View().Map.Name != "arena" {
		t.Fatalf("client on %q while it received nothing", c.View().Map.Name)
	}
	c.SetFakeConditions(proto.FakeConditions{})
	if !play(t, c, 5*time.Second, func() bool { return c.View().Map.Name == "range" }) {
		t.Errorf("client still on %q after the loss ended", c.View().Map.Name)
	}
}
