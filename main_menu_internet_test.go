//go:build !headless && !js

package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"tickshot/net/master"
	"tickshot/net/proto"
)

// The menu's internet list leaves out the servers of another protocol
// version (they cannot be joined) and takes the others' details, names
// cleaned (master.Fetch).
func TestInternetServersForTheMenu(t *testing.T) {
	ms := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(master.List{Servers: []master.Entry{
			{Name: "new\u202e", Addr: "192.0.2.1:27015", Map: "arena", Players: 2, Bots: 1, MaxPlayers: 8, Password: true, Protocol: proto.ProtocolVersion},
			{Name: "old", Addr: "192.0.2.2:27015", Protocol: proto.ProtocolVersion - 1}}})
	}))
	defer ms.Close()
	list, err := internetServers(context.Background(), ms.URL)
	if err != nil || len(list) != 1 {
		t.Fatalf("%+v, %v: want the one server of this protocol", list, err)
	}
	if s := list[0]; s.Name != "new" || s.Addr != "192.0.2.1:27015" || s.Map != "arena" || s.Players != 2 || s.Bots != 1 ||
		s.MaxPlayers != 8 || !s.Password {
		t.Errorf("listed as %+v", s)
	}
	if _, err := internetServers(context.Background(), "http://127.0.0.1:1"); err == nil {
		t.Error("a master that does not answer gave no error")
	}
}
