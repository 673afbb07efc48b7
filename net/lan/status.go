//go:build !js

package lan

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"
)

// GetStatus GETs http://addr/status with client (its timeout bounds the
// request; ctx may end it sooner), reads at most MaxStatusBytes of it and
// returns what a server list shows: name, map, players and bots counted
// from the players list, slots, password flag, protocol, with Addr set to
// addr and Ping to the request's round trip (connection set-up included,
// as a first contact's is). Errors: the request failed, the answer was not
// 200, or the body is no Tickshot /status (readStatus). The LAN browser and
// the internet list (net/master: the master's reachability check and the
// client's ping) all read a server's /status through it.
func GetStatus(ctx context.Context, client *http.Client, addr string) (Server, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/status", nil)
	if err != nil {
		return Server{}, err
	}
	t0 := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return Server{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
		return Server{}, fmt.Errorf("GET /status: %s", resp.Status)
	}
	s, err := readStatus(resp.Body)
	if err != nil {
		return Server{}, err
	}
	s.Ping = time.Since(t0)
	s.Addr = addr
	return s, nil
}
