//go:build !headless

package menu

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ebitenui/ebitenui/widget"

	"tickshot/client/config"
	"tickshot/net/proto"
)

// The LAN list is sorted by name, then address; its key changes with the
// servers and their locks, not with players or ping.
func TestServerListSortAndKey(t *testing.T) {
	list := sortServers([]Server{{Addr: "b:2", Name: "zed"}, {Addr: "b:1", Name: "alpha"}, {Addr: "a:1", Name: "alpha"}})
	var addrs []string
	for _, s := range list {
		addrs = append(addrs, s.Addr)
	}
	if want := []string{"a:1", "b:1", "b:2"}; !slices.Equal(addrs, want) {
		t.Errorf("sorted %v, want %v", addrs, want)
	}
	key := listKey(list)
	busier := slices.Clone(list)
	busier[0].Players, busier[0].Ping = 5, 40*time.Millisecond
	if listKey(busier) != key {
		t.Errorf("players and ping changed the list's key")
	}
	locked := slices.Clone(list)
	locked[2].Password = true
	if listKey(locked) == key || listKey(list[:2]) == key {
		t.Errorf("a lock or a server gone kept the list's key")
	}
	for n, want := range map[int]string{0: "Looking for servers on your network... (none yet)",
		1: "1 server found: double-click it, or Tab to it and press Enter.",
		3: "3 servers found: double-click one, or Tab to it and press Enter."} {
		if got := listStatus(n); got != want {
			t.Errorf("listStatus(%d) = %q", n, got)
		}
	}
}

// Two clicks on one row within half a second make a double click; on
// another row, or later, a single one.
func TestRowClicks(t *testing.T) {
	var c rowClicks
	t0 := time.Unix(100, 0)
	for i, step := range []struct {
		addr   string
		at     time.Duration
		double bool
	}{{"a", 0, false}, {"a", 200 * time.Millisecond, true}, {"b", 300 * time.Millisecond, false},
		{"a", 400 * time.Millisecond, false}, {"a", 900 * time.Millisecond, false}, {"a", 1300 * time.Millisecond, true}} {
		if got := c.click(step.addr, t0.Add(step.at)); got != step.double {
			t.Errorf("click %d on %s at %v: double %v, want %v", i, step.addr, step.at, got, step.double)
		}
	}
}

// The join page alone, without a Menu: the rows follow the LAN list,
// keep their widgets while the same servers are listed (only their text
// changes), and a locked server asks for its password instead of
// joining.
func TestJoinScreenRows(t *testing.T) {
	list := []Server{{Addr: "10.0.0.2:1", Name: "b", Map: "arena", MaxPlayers: 8}, {Addr: "10.0.0.1:1", Name: "a", Map: "range", MaxPlayers: 4}}
	now := time.Unix(100, 0)
	var joins []JoinOptions
	var asked []string
	var j *joinScreen
	do(func() {
		k := newKit()
		p := &prefs{cfg: config.New(), warn: func(string) {}}
		p.cfg.Name = "ann"
		var root *widget.Container
		j, root = newJoinScreen(k, p, func() []Server { return slices.Clone(list) }, false,
			func(o JoinOptions) { joins = append(joins, o) }, func(addr, _ string) { asked = append(asked, addr) }, func(screen) {})
		k.validate(root)
		j.now = func() time.Time { return now }
		j.refreshServers(true)
	})
	if len(j.rows) != 2 || j.servers[0].Addr != "10.0.0.1:1" {
		t.Fatalf("%d rows, first %q", len(j.rows), j.servers[0].Addr)
	}
	row := j.rows["10.0.0.2:1"]
	list[0].Players = 3
	do(func() { j.refreshServers(false) })
	if j.rows["10.0.0.2:1"].Text().Label == rowText(list[0]) {
		t.Errorf("the list was read again within %v", pollEvery)
	}
	now = now.Add(pollEvery)
	do(func() { j.refreshServers(false) })
	if j.rows["10.0.0.2:1"] != row || j.rows["10.0.0.2:1"].Text().Label != rowText(list[0]) {
		t.Errorf("the same servers rebuilt the row, or its text did not follow: %q", j.rows["10.0.0.2:1"].Text().Label)
	}
	list[0].Password = true
	now = now.Add(pollEvery)
	do(func() { j.refreshServers(false) })
	if j.rows["10.0.0.2:1"] == row {
		t.Errorf("a server now locked kept its row (and its lockless image)")
	}
	do(func() { j.joinAddr(" 10.0.0.2:1 ") })
	do(func() { j.joinAddr("10.0.0.1:1") })
	if !slices.Equal(asked, []string{"10.0.0.2:1"}) || len(joins) != 1 ||
		joins[0] != (JoinOptions{Player: "ann", Addr: "10.0.0.1:1"}) {
		t.Errorf("asked a password of %v, joined %+v", asked, joins)
	}
	do(func() { j.joinAddr("  ") })
	if len(joins) != 1 || j.status.Label == listStatus(2) {
		t.Errorf("an empty address joined, or said nothing: %q", j.status.Label)
	}
}

// A LAN server named with a bidi override (U+202E, which drew "evil" as
// "live"), an escape sequence and blank letters is shown cleaned in its
// row, and sorted by the cleaned name; one whose name cleans to nothing
// shows its address.
func TestJoinScreenCleansHostileNames(t *testing.T) {
	list := []Server{{Addr: "10.0.0.9:1", Name: "\u202eevil\x1b[2J \u3164 den", Map: "\u202darena\u202c", MaxPlayers: 8},
		{Addr: "10.0.0.3:1", Name: "\u200b\u202e\u3164", Map: "range", MaxPlayers: 4},
		{Addr: "10.0.0.1:1", Name: "b plain", Map: "range", MaxPlayers: 4}}
	var j *joinScreen
	do(func() {
		k := newKit()
		p := &prefs{cfg: config.New(), warn: func(string) {}}
		var root *widget.Container
		j, root = newJoinScreen(k, p, func() []Server { return slices.Clone(list) }, false,
			func(JoinOptions) {}, func(string, string) {}, func(screen) {})
		k.validate(root)
		j.refreshServers(true)
	})
	var names []string
	for _, s := range j.servers {
		names = append(names, s.Name)
	}
	if want := []string{"10.0.0.3:1", "b plain", "evil[2J den"}; !slices.Equal(names, want) {
		t.Errorf("listed %q, want %q", names, want)
	}
	label := j.rows["10.0.0.9:1"].Text().Label
	if !strings.HasPrefix(label, "evil[2J den ") || !strings.Contains(label, "arena") || strings.ContainsFunc(label, proto.Invisible) {
		t.Errorf("row %q: want it to start with \"evil[2J den\", name arena, and carry no invisible character", label)
	}
}
