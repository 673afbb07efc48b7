//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"tickshot/server"
)

// defaultHealthURL is what `healthcheck` asks without --url: the server's
// /status on the default port of this host, as a container's HEALTHCHECK
// runs it beside the server.
const defaultHealthURL = "http://127.0.0.1:27015/status"

// cmdHealthcheck asks a server's /status twice, --stall apart, and exits 0
// when it answers 200 with a Tickshot status (JSON with a map and a tick
// rate) whose tick advanced in between, else 1: a hung tick loop still
// serves its last published /status, which one read cannot tell.
// It exists for container images without curl (distroless, scratch): the
// Dockerfile's HEALTHCHECK runs it in exec form. Docker's own rule is that
// a health command exits 0 healthy, 1 unhealthy.
func cmdHealthcheck(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("healthcheck", "Usage: tickshot healthcheck [--url URL] [--timeout D] [--stall D]\n\n"+
		"Asks a running server's /status twice, --stall apart: exit 0 when it answers 200\n"+
		"with a Tickshot status (map and tick rate) whose tick advanced, 1 otherwise, with\n"+
		"the reason on stderr. For container\n"+
		"HEALTHCHECKs where there is no curl (the image runs on distroless):\n"+
		"  HEALTHCHECK CMD [\"/tickshot-server\", \"healthcheck\"]", stderr)
	rawURL := fs.String("url", defaultHealthURL, "the server's /status URL (http or https)")
	timeout := fs.Duration("timeout", 2*time.Second, "give up on a read after this long: connect, request and answer together (e.g. 500ms)")
	stall := fs.Duration("stall", 600*time.Millisecond, "read /status again after this long and require the tick to have advanced, so a hung tick loop is unhealthy (the status is published 4 times a second); 0 reads once")
	if code, done := parse(fs, args); done {
		return code
	}
	u, err := url.Parse(*rawURL)
	if err == nil && (u.Scheme != "http" && u.Scheme != "https" || u.Host == "") {
		err = fmt.Errorf("want an http:// or https:// URL with a host")
	}
	if refused(stderr, "healthcheck", noArgs(fs),
		outOfRange(*timeout > 0, "timeout", *timeout, "more than 0"),
		outOfRange(*stall == 0 || *stall >= 300*time.Millisecond && *stall <= time.Minute, "stall", *stall, "0 or 300ms..1m (the status is published every 250 ms)"),
		wrapErr(err, "--url %q", *rawURL)) {
		return 2
	}
	st, err := fetchStatus(*rawURL, *timeout)
	if err != nil {
		fmt.Fprintf(stderr, "%s healthcheck: unhealthy: %v\n", prog, err)
		return 1
	}
	if *stall > 0 {
		time.Sleep(*stall)
		again, err := fetchStatus(*rawURL, *timeout)
		if err != nil {
			fmt.Fprintf(stderr, "%s healthcheck: unhealthy: %v\n", prog, err)
			return 1
		}
		if again.Tick == st.Tick {
			fmt.Fprintf(stderr, "%s healthcheck: unhealthy: the tick loop is stalled: tick %d did not advance in %v\n", prog, st.Tick, *stall)
			return 1
		}
		st = again
	}
	fmt.Fprintf(stdout, "healthy: %q on %s, tick %d at %d ticks/s, %d/%d players, tick time p99 %.0f µs\n",
		st.Name, st.Map, st.Tick, st.TickRate, len(st.Players), st.MaxPlayers, st.TickTimeUs.P99)
	return 0
}

// wrapErr returns nil for a nil err, else err prefixed with the formatted text.
func wrapErr(err error, format string, a ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %w", append(a, err)...)
}

// fetchStatus GETs a /status URL within timeout and decodes it; an answer
// other than 200, a body that is not a status, or one without a map or a
// tick rate is an error. The connection is not kept alive (the server
// counts connections against --maxconns).
func fetchStatus(rawURL string, timeout time.Duration) (server.Status, error) {
	var st server.Status
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return st, err
	}
	req.Close = true
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil}}
	resp, err := client.Do(req)
	if err != nil {
		return st, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return st, fmt.Errorf("GET %s: %s", rawURL, resp.Status)
	}
	// A status is a few KB even with every slot taken; 1 MiB bounds a
	// wrong URL that streams.
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&st); err != nil {
		return st, fmt.Errorf("GET %s: not a Tickshot status: %v", rawURL, err)
	}
	if st.Map == "" || st.TickRate <= 0 {
		return st, fmt.Errorf("GET %s: not a Tickshot status (no map or tick rate)", rawURL)
	}
	return st, nil
}
