//go:build !headless

package menu

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"tickshot/net/proto"
)

// The internet list's fetching.
const (
	// fetchTimeout bounds one master's answer.
	fetchTimeout = 5 * time.Second
	// pingTimeout bounds one server's ping (its /status): a server that
	// does not answer within it is shown as not answering.
	pingTimeout = 2 * time.Second
	// pingWorkers is how many pings run at once.
	pingWorkers = 8
)

// inetServer is one row of the internet list: a server as a master lists
// it, then as its own /status says (players now, the ping) once read.
type inetServer struct {
	Server
	// pinged: Server.Ping is measured; down: the ping failed.
	pinged, down bool
}

// inetResult is what the fetcher has found so far in its newest round.
type inetResult struct {
	servers  []inetServer
	errs     []string // the masters that failed, in words
	fetching bool     // the masters have not all answered
	pinging  int      // pings not yet answered
}

// inetFetcher fetches the internet list in the background, never in a
// frame: every master's list (names cleaned as the LAN list's, merged by
// address, the first master's entry kept), then each server's /status
// for its ping and counts now, pingWorkers at a time. A refresh cancels
// the round before it; the page takes the newest result.
type inetFetcher struct {
	fetch  func(ctx context.Context, master string) ([]Server, error) // Options.Internet
	status func(ctx context.Context, addr string) (Server, error)     // Options.Status (nil: no pings)

	mu      sync.Mutex
	cancel  context.CancelFunc
	round   int // counts refreshes: a round's late results are dropped
	version int // counts changes of res
	res     inetResult
}

// refresh starts a new round over masters (URLs), cancelling the last.
func (f *inetFetcher) refresh(masters []string) {
	ctx, cancel := context.WithCancel(context.Background())
	f.mu.Lock()
	if f.cancel != nil {
		f.cancel()
	}
	f.cancel = cancel
	f.round++
	round := f.round
	f.res = inetResult{fetching: true}
	f.version++
	f.mu.Unlock()
	go f.run(ctx, round, masters)
}

// stop cancels the round running (the page was left).
func (f *inetFetcher) stop() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancel != nil {
		f.cancel()
		f.cancel = nil
	}
}

// take returns the newest result when it changed since the version seen
// (which it updates), copied for the caller.
func (f *inetFetcher) take(seen *int) (inetResult, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.version == *seen {
		return inetResult{}, false
	}
	*seen = f.version
	r := f.res
	r.servers, r.errs = slices.Clone(r.servers), slices.Clone(r.errs)
	return r, true
}

// update changes the result of round (when it is still the newest).
func (f *inetFetcher) update(round int, change func(r *inetResult)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if round == f.round {
		change(&f.res)
		f.version++
	}
}

// run is one round: the masters' lists, then the pings.
func (f *inetFetcher) run(ctx context.Context, round int, masters []string) {
	var list []inetServer
	var errs []string
	seen := map[string]bool{}
	for _, m := range masters {
		mctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		servers, err := f.fetch(mctx, m)
		cancel()
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		for _, s := range cleanServers(servers) {
			if !seen[s.Addr] {
				seen[s.Addr] = true
				list = append(list, inetServer{Server: s})
			}
		}
	}
	pinging := 0
	if f.status != nil {
		pinging = len(list)
	}
	f.update(round, func(r *inetResult) { *r = inetResult{servers: list, errs: errs, pinging: pinging} })
	if f.status == nil {
		return
	}
	sem := make(chan struct{}, pingWorkers)
	for _, s := range list {
		go func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			pctx, cancel := context.WithTimeout(ctx, pingTimeout)
			now, err := f.status(pctx, s.Addr)
			cancel()
			f.update(round, func(r *inetResult) {
				r.pinging--
				for i := range r.servers {
					if v := &r.servers[i]; v.Addr == s.Addr {
						v.pinged, v.down = err == nil, err != nil
						if err == nil {
							now.Addr = s.Addr
							v.Server = cleanServers([]Server{now})[0]
						}
					}
				}
			})
		}()
	}
}

// inetSort is the internet list's order.
type inetSort int

const (
	byPing    inetSort = iota // fastest first; not yet measured, then not answering, last
	byPlayers                 // most humans first, then most players with bots
	byName                    // by name, ignoring case
	sortCount
)

func (s inetSort) String() string { return [sortCount]string{"ping", "players", "name"}[s] }

// inetFilter hides servers: full ones, empty ones (no humans), ones that
// want a password.
type inetFilter struct{ notFull, notEmpty, noPassword bool }

// keep reports whether s passes the filter. Bots take slots.
func (f inetFilter) keep(s Server) bool {
	return !(f.notFull && s.Players+s.Bots >= s.MaxPlayers) && !(f.notEmpty && s.Players == 0) && !(f.noPassword && s.Password)
}

// pin is a row's group: favourites first, then recent servers, then the
// rest, each group in the list's order.
type pin int

const (
	pinFavourite pin = iota
	pinRecent
	pinNone
)

// arrange returns the rows of list that pass filter, favourites (by
// address) pinned first, then recent servers, each group sorted by by (a
// new slice; list is left as it was).
func arrange(list []inetServer, by inetSort, filter inetFilter, favourites, recent []string) []inetServer {
	group := func(s inetServer) pin {
		switch {
		case slices.Contains(favourites, s.Addr):
			return pinFavourite
		case slices.Contains(recent, s.Addr):
			return pinRecent
		}
		return pinNone
	}
	var out []inetServer
	for _, s := range list {
		if filter.keep(s.Server) {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b inetServer) int {
		return cmp.Or(cmp.Compare(group(a), group(b)), compareBy(by, a, b),
			strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)), strings.Compare(a.Addr, b.Addr))
	})
	return out
}

// compareBy compares two rows by one order alone (0 when it cannot tell
// them apart).
func compareBy(by inetSort, a, b inetServer) int {
	switch by {
	case byPing:
		rank := func(s inetServer) int {
			switch {
			case s.pinged:
				return 0
			case !s.down:
				return 1 // not yet measured
			}
			return 2
		}
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a.Ping, b.Ping))
	case byPlayers:
		return cmp.Or(cmp.Compare(b.Players, a.Players), cmp.Compare(b.Players+b.Bots, a.Players+a.Bots))
	}
	return 0
}

// inetRowText is a row of the internet list: name, map, players/max with
// the bots, ping ("..." while measured, "-" when it did not answer).
func inetRowText(s inetServer) string {
	ping := "..."
	switch {
	case s.pinged:
		ping = fmt.Sprintf("%d ms", s.Ping.Milliseconds())
	case s.down:
		ping = "-"
	}
	return fmt.Sprintf("%-22s %-10s %-14s %7s", clip(s.Name, 22), clip(s.Map, 10), proto.PlayersText(s.Players, s.Bots, s.MaxPlayers), ping)
}

// clip shortens s to n runes, the last an ellipsis when cut.
func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// masterURLs splits cl_master's value into its URLs.
func masterURLs(v string) []string { return strings.Fields(v) }
