//go:build !headless

package menu

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func addrsOf(list []inetServer) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.Addr)
	}
	return out
}

// The internet list sorts by ping (unmeasured, then silent servers last),
// players (humans first, then with bots) or name; the filters hide full,
// empty and locked servers; favourites, then recent servers, stay on top
// in the order chosen.
func TestArrangeSortsFiltersAndPins(t *testing.T) {
	ms := time.Millisecond
	list := []inetServer{
		{Server: Server{Addr: "a:1", Name: "alpha", Players: 1, MaxPlayers: 8, Ping: 80 * ms}, pinged: true},
		{Server: Server{Addr: "b:1", Name: "Bravo", Players: 3, Bots: 1, MaxPlayers: 4, Ping: 20 * ms}, pinged: true},
		{Server: Server{Addr: "c:1", Name: "charlie", Bots: 4, MaxPlayers: 8}, down: true},
		{Server: Server{Addr: "d:1", Name: "delta", Players: 3, MaxPlayers: 8, Password: true}},
		{Server: Server{Addr: "e:1", Name: "echo", MaxPlayers: 8, Ping: 5 * ms}, pinged: true},
	}
	orig := slices.Clone(list)
	for _, c := range []struct {
		by           inetSort
		filter       inetFilter
		favs, recent []string
		want         []string
	}{
		{byPing, inetFilter{}, nil, nil, []string{"e:1", "b:1", "a:1", "d:1", "c:1"}},
		{byPlayers, inetFilter{}, nil, nil, []string{"b:1", "d:1", "a:1", "c:1", "e:1"}},
		{byName, inetFilter{}, nil, nil, []string{"a:1", "b:1", "c:1", "d:1", "e:1"}},
		{byPing, inetFilter{notFull: true}, nil, nil, []string{"e:1", "a:1", "d:1", "c:1"}},
		{byPing, inetFilter{notEmpty: true}, nil, nil, []string{"b:1", "a:1", "d:1"}},
		{byPing, inetFilter{noPassword: true}, nil, nil, []string{"e:1", "b:1", "a:1", "c:1"}},
		{byPing, inetFilter{}, []string{"c:1", "a:1"}, []string{"d:1", "a:1"}, []string{"a:1", "c:1", "d:1", "e:1", "b:1"}},
		{byName, inetFilter{notEmpty: true}, []string{"c:1"}, []string{"d:1"}, []string{"d:1", "a:1", "b:1"}},
	} {
		if got := addrsOf(arrange(list, c.by, c.filter, c.favs, c.recent)); !slices.Equal(got, c.want) {
			t.Errorf("sort %v, filter %+v, favourites %v, recent %v: %v, want %v", c.by, c.filter, c.favs, c.recent, got, c.want)
		}
	}
	if !slices.Equal(addrsOf(list), addrsOf(orig)) {
		t.Errorf("arrange reordered its input: %v", addrsOf(list))
	}
	for _, c := range []struct {
		s    inetServer
		want []string
	}{
		{list[1], []string{"Bravo", "4/4 (1 bot)", "20 ms"}},
		{list[2], []string{"charlie", "4/8 (4 bots)", " -"}},
		{list[3], []string{"delta", "3/8", "..."}},
		{inetServer{Server: Server{Name: strings.Repeat("x", 30)}}, []string{strings.Repeat("x", 21) + "…"}},
	} {
		txt := inetRowText(c.s)
		for _, w := range c.want {
			if !strings.Contains(txt, w) {
				t.Errorf("row %q lacks %q", txt, w)
			}
		}
	}
}

// The fetcher merges the masters' lists (a failing master is reported,
// a server listed twice shown once, names cleaned), then reads every
// server's /status at most pingWorkers at a time: a server that does not
// answer within the deadline is marked down, the others take what their
// /status says (at their listed address) and its round trip as the ping. A refresh drops the
// round before.
func TestInternetFetcherMergesAndPings(t *testing.T) {
	var running, most atomic.Int32
	var mu sync.Mutex
	pinged := map[string]int{}
	f := &inetFetcher{
		fetch: func(ctx context.Context, master string) ([]Server, error) {
			switch master {
			case "http://m1":
				var out []Server
				for i := range 20 {
					out = append(out, Server{Addr: "10.0.0." + string(rune('a'+i)) + ":1", Name: "s"})
				}
				return append(out, Server{Addr: "silent:1"}), nil
			case "http://m2":
				return []Server{{Addr: "10.0.0.a:1", Name: "dup"}, {Addr: "extra:1", Name: "\u202eevil\x1b[2J"}}, nil
			}
			return nil, errors.New("master " + master + ": refused")
		},
		status: func(ctx context.Context, addr string) (Server, error) {
			n := running.Add(1)
			defer running.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			mu.Lock()
			pinged[addr]++
			mu.Unlock()
			if addr == "silent:1" {
				<-ctx.Done()
				return Server{}, ctx.Err()
			}
			time.Sleep(20 * time.Millisecond)
			switch addr {
			case "10.0.0.a:1":
				return Server{}, errors.New("refused")
			case "extra:1":
				return Server{Name: "\u202eevil\x1b[2J", MaxPlayers: 8}, nil
			}
			return Server{Addr: "elsewhere:1", Name: "now", Players: 2, MaxPlayers: 8, Ping: 7 * time.Millisecond}, nil
		},
	}
	seen := 0
	f.refresh([]string{"http://m1", "http://bad", "http://m2"})
	var r inetResult
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if got, ok := f.take(&seen); ok {
			r = got
		}
		if !r.fetching && len(r.servers) > 0 && r.pinging == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the round did not end: %+v", r)
		}
	}
	if len(r.servers) != 22 || len(r.errs) != 1 || !strings.Contains(r.errs[0], "http://bad") {
		t.Fatalf("%d servers, errors %q; want 22 (one listed twice) and the failing master named", len(r.servers), r.errs)
	}
	for _, s := range r.servers {
		switch {
		case s.Addr == "silent:1" || s.Addr == "10.0.0.a:1":
			if !s.down || s.pinged || s.Name != map[string]string{"silent:1": "silent:1", "10.0.0.a:1": "s"}[s.Addr] {
				t.Errorf("%s: %+v, want down, as its first master listed it (a name cleaned to nothing shows the address)", s.Addr, s)
			}
		case s.Addr == "extra:1":
			if !s.pinged || strings.ContainsAny(s.Name, "\u202e\x1b") || s.Name == "" {
				t.Errorf("a hostile name from /status reached the rows: %q", s.Name)
			}
		case !s.pinged || s.Ping != 7*time.Millisecond || s.Name != "now" || s.Players != 2:
			t.Errorf("%s: %+v, want its /status: pinged 7 ms, 2 players", s.Addr, s)
		}
		if pinged[s.Addr] != 1 {
			t.Errorf("%s pinged %d times", s.Addr, pinged[s.Addr])
		}
	}
	if m := most.Load(); m > pingWorkers || m < 2 {
		t.Errorf("%d pings at once, want 2..%d", m, pingWorkers)
	}
	if _, ok := f.take(&seen); ok {
		t.Errorf("take reported a change with none")
	}
	f.update(f.round-1, func(r *inetResult) { r.servers = nil })
	if _, ok := f.take(&seen); ok {
		t.Errorf("an old round's result was taken")
	}
}

// newInternetMenu is a Menu whose masters are fake: master lists servers
// for cl_master's URL, and every ping takes 3 ms.
func newInternetMenu(t *testing.T, servers []Server, joins *[]JoinOptions) (*Menu, *fakeConsole, string) {
	t.Helper()
	dir := t.TempDir()
	con := newConsole()
	con.cvars["cl_master"] = ""
	m := newMenu(Options{Dir: dir, Console: con, CanSpectate: true, DefaultName: "ann",
		Internet: func(_ context.Context, url string) ([]Server, error) {
			if url != "http://127.0.0.1:8300" {
				return nil, errors.New("no master at " + url)
			}
			return slices.Clone(servers), nil
		},
		Status: func(_ context.Context, addr string) (Server, error) {
			for _, s := range servers {
				if s.Addr == addr {
					s.Ping = 3 * time.Millisecond
					return s, nil
				}
			}
			return Server{}, errors.New("no server at " + addr)
		},
		Join: func(o JoinOptions) { *joins = append(*joins, o) }})
	return m, con, dir
}

// waitRows runs frames until the internet tab shows n rows and its pings
// are done.
func waitRows(t *testing.T, m *Menu, n int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); len(m.inet.rows) != n || m.inet.found.fetching || m.inet.found.pinging > 0; {
		if time.Now().After(end) {
			t.Fatalf("%d rows, want %d: %q", len(m.inet.rows), n, m.inet.status.Label)
		}
		frames(m, 1)
		time.Sleep(10 * time.Millisecond)
	}
}

// The Internet tab: without cl_master it says how to set one; a master
// URL typed in its field is saved (through the console and config.cfg)
// and listed; a star pins a server and is kept in favourites.txt; a
// double click joins (and the server becomes a recent one); a locked
// server asks for its password, whose Cancel comes back to the tab.
func TestInternetTab(t *testing.T) {
	var joins []JoinOptions
	servers := []Server{{Addr: "127.0.0.1:1", Name: "busy", Map: "arena", Players: 5, MaxPlayers: 8},
		{Addr: "127.0.0.1:2", Name: "quiet", Map: "range", MaxPlayers: 8},
		{Addr: "127.0.0.1:3", Name: "locked", Map: "arena", Players: 1, MaxPlayers: 4, Password: true}}
	m, con, dir := newInternetMenu(t, servers, &joins)
	do(func() { m.show(scrJoin) })
	do(func() { m.show(scrInternet) })
	if m.Screen() != "internet" || m.inet.status.Label != noMaster || len(m.inet.rows) != 0 {
		t.Fatalf("without cl_master: screen %s, %d rows, %q", m.Screen(), len(m.inet.rows), m.inet.status.Label)
	}
	if !strings.Contains(noMaster, "docs/HOSTING.md") {
		t.Errorf("the no-master sentence does not point at docs/HOSTING.md: %q", noMaster)
	}
	do(func() { m.inet.master.SetText("  http://127.0.0.1:8300 ") })
	do(func() { m.inet.master.Submit() })
	waitRows(t, m, 3)
	if con.cvars["cl_master"] != "http://127.0.0.1:8300" {
		t.Errorf("cl_master = %q", con.cvars["cl_master"])
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "config.cfg")); !strings.Contains(string(b), `cl_master "http://127.0.0.1:8300"`) {
		t.Errorf("config.cfg lacks cl_master:\n%s", b)
	}
	if got := addrsOf(m.inet.shown); !slices.Equal(got, []string{"127.0.0.1:1", "127.0.0.1:3", "127.0.0.1:2"}) {
		t.Errorf("rows %v, want by ping then name", got)
	}
	do(func() { m.inet.sortB.Click() })
	frames(m, 1)
	if m.inet.by != byPlayers || addrsOf(m.inet.shown)[0] != "127.0.0.1:1" || !strings.Contains(m.inet.sortB.Text().Label, "players") {
		t.Errorf("sort button: by %v, rows %v, label %q", m.inet.by, addrsOf(m.inet.shown), m.inet.sortB.Text().Label)
	}
	do(func() { m.inet.setFavourite("127.0.0.1:2", true) })
	if got := addrsOf(m.inet.shown); got[0] != "127.0.0.1:2" {
		t.Errorf("a favourite is not pinned first: %v", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "favourites.txt")); strings.TrimSpace(string(b)) != "127.0.0.1:2" {
		t.Errorf("favourites.txt = %q", b)
	}
	do(func() { m.inet.rowClicked("127.0.0.1:1", false) })
	if len(joins) != 0 {
		t.Fatal("one click joined")
	}
	do(func() { m.inet.rowClicked("127.0.0.1:1", false) })
	if len(joins) != 1 || joins[0] != (JoinOptions{Player: "ann", Addr: "127.0.0.1:1"}) {
		t.Fatalf("a double click joined %+v", joins)
	}
	do(func() { m.show(scrMain) })
	do(func() { m.show(scrInternet) })
	waitRows(t, m, 3)
	if got := addrsOf(m.inet.shown); !slices.Equal(got, []string{"127.0.0.1:2", "127.0.0.1:1", "127.0.0.1:3"}) {
		t.Errorf("after joining: rows %v, want the favourite, then the recent server, first", got)
	}
	do(func() { m.inet.rowClicked("127.0.0.1:3", true) })
	if m.Screen() != "password" || len(joins) != 1 {
		t.Fatalf("a locked server: screen %s, joins %+v", m.Screen(), joins)
	}
	do(func() { m.pass.input.SetText("hunter2") })
	do(func() { m.pass.input.Submit() })
	frames(m, 1)
	if len(joins) != 2 || joins[1] != (JoinOptions{Player: "ann", Addr: "127.0.0.1:3", Password: "hunter2"}) {
		t.Fatalf("joins: %+v", joins)
	}
	do(func() { m.inet.rowClicked("127.0.0.1:3", true) })
	if m.Screen() != "password" || m.passBack != scrInternet {
		t.Fatalf("the password page goes back to %v, want the internet tab", m.passBack)
	}
	do(func() { m.show(m.passBack) })
	if m.Screen() != "internet" {
		t.Errorf("back from the password page: %s", m.Screen())
	}
}

// A master listing more than maxRows servers: the first maxRows in the
// list's order are shown, and the line under the list says so.
func TestInternetTabShowsAtMostMaxRows(t *testing.T) {
	var servers []Server
	for i := range maxRows + 50 {
		servers = append(servers, Server{Addr: fmt.Sprintf("10.0.%d.%d:27015", i/256, i%256), Name: fmt.Sprintf("s%04d", i), MaxPlayers: 8})
	}
	var joins []JoinOptions
	m, con, _ := newInternetMenu(t, servers, &joins)
	con.cvars["cl_master"] = "http://127.0.0.1:8300"
	do(func() { m.show(scrInternet) })
	waitRows(t, m, maxRows)
	if m.inet.shown[0].Name != "s0000" || !strings.Contains(m.inet.status.Label, fmt.Sprintf("%d servers listed, the first %d shown", maxRows+50, maxRows)) {
		t.Errorf("first row %q, status %q", m.inet.shown[0].Name, m.inet.status.Label)
	}
}
