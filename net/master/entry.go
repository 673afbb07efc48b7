// Package master is the internet server list, as DDNet's master server
// does it: game servers register with a master over HTTP every
// RegisterEvery, the master checks that each is reachable at the address it
// claims (by fetching its /status from outside) and serves the list of
// reachable servers as JSON at /servers.json. This file holds what both
// sides and the clients share: the list's entry and Fetch.
package master

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"tickshot/net/proto"
)

// RegisterEvery is how often a game server registers with its masters.
const RegisterEvery = 15 * time.Second

// MaxListBytes is the most a client reads of a master's /servers.json
// (decompressed): about 20 000 entries.
const MaxListBytes = 4 << 20

// Entry is one server in a master's list (/servers.json is a JSON object
// {"servers": [Entry...]}). Every text field has been through
// proto.CleanName on the master and is cleaned again by Fetch: a list is
// network input.
type Entry struct {
	// Name is the server's name (its --name, Source's hostname), at most
	// 64 bytes.
	Name string `json:"name"`
	// Addr is HOST:PORT where the master reached the server's /status: what
	// `tickshot connect` and http://Addr/ take.
	Addr string `json:"addr"`
	// Map is the map being played.
	Map string `json:"map"`
	// Players counts the humans playing, Bots the server's bots; both take
	// slots of MaxPlayers.
	Players    int `json:"players"`
	Bots       int `json:"bots"`
	MaxPlayers int `json:"maxplayers"`
	// Password says whether a join password is needed.
	Password bool `json:"password"`
	// Protocol is the server's proto.ProtocolVersion: a client of another
	// version cannot join.
	Protocol int `json:"protocol"`
	// Region is the country or region the host gave (sv_region), or "".
	Region string `json:"region,omitempty"`
}

// List is the body of a master's GET /servers.json.
type List struct {
	Servers []Entry `json:"servers"`
}

// Endpoint is the URL of a master's endpoint path (ListPath,
// RegisterPath) from the master's URL as configured (--master, sv_master):
// "http://master.example:8300", with or without a path prefix (a master
// behind a reverse proxy), a trailing slash, or one of the endpoints
// already named ("http://master.example:8300/servers.json").
func Endpoint(masterURL, path string) string {
	u := strings.TrimRight(masterURL, "/")
	u = strings.TrimSuffix(strings.TrimSuffix(u, ListPath), RegisterPath)
	return u + path
}

// Fetch reads the server list from the master at masterURL (e.g.
// "http://master.example:8300"; Endpoint adds "/servers.json"). It reads at most MaxListBytes, drops entries without an address
// and cleans every name (proto.CleanName). Errors: the request failed, the
// master answered other than 200, or the body is not a List.
func Fetch(ctx context.Context, client *http.Client, masterURL string) ([]Entry, error) {
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, Endpoint(masterURL, ListPath), nil)
	if err != nil {
		return nil, fmt.Errorf("master URL %q: %w", masterURL, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("master %s: %w", masterURL, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("master %s: %s", masterURL, resp.Status)
	}
	var l List
	if err := json.NewDecoder(io.LimitReader(resp.Body, MaxListBytes)).Decode(&l); err != nil {
		return nil, fmt.Errorf("master %s: not a server list: %w", masterURL, err)
	}
	out := l.Servers[:0]
	for _, e := range l.Servers {
		e.Addr = proto.CleanName(e.Addr, 256)
		if e.Addr == "" {
			continue
		}
		e.Name = proto.CleanName(e.Name, 64)
		e.Map = proto.CleanName(e.Map, 64)
		e.Region = proto.CleanName(e.Region, 64)
		out = append(out, e)
	}
	return out, nil
}
