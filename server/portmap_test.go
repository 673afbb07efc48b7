//go:build !js

package server

import (
	"context"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tickshot/net/portmap"
	"tickshot/net/portmap/portmaptest"
)

// withFakeRouter points the server's port mapping at igd (no SSDP, no
// NAT-PMP: nothing leaves loopback) for the test.
func withFakeRouter(t *testing.T, igd *portmaptest.IGD) {
	old := portMapConfig
	portMapConfig = func(c portmap.Config) portmap.Config {
		c.UPnPRoot, c.NoNATPMP, c.Timeout = igd.Root(), true, 3*time.Second
		return c
	}
	t.Cleanup(func() { portMapConfig = old })
}

// upnpServer is a server with UPnP, running until stop.
type upnpServer struct {
	*Server
	port  int
	heard chan [2]string // the outcome's sentence and link
	stop  func()
}

// runUPnPServer runs a server with UPnP on addr until the test's stop.
func runUPnPServer(t *testing.T, addr string, log *lockedBuffer) upnpServer {
	t.Helper()
	heard := make(chan [2]string, 1)
	srv, err := New(Config{Addr: addr, UPnP: true, Logger: slog.New(slog.NewTextHandler(log, nil)),
		PortMapped: func(sentence, link string) { heard <- [2]string{sentence, link} }})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	_, port := splitPort(srv.Addr())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("run: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return upnpServer{Server: srv, port: port, heard: heard, stop: stop}
}

// TestPortMapServer: a server with UPnP on, listening beyond loopback,
// maps its TCP and UDP port on the router without delaying its start,
// logs the invite link in one INFO line, gives it to PortMapped,
// advertises the router's address to WebRTC clients, and deletes both
// mappings when it stops.
func TestPortMapServer(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:2", "203.0.113.7")
	withFakeRouter(t, igd)
	var log lockedBuffer
	srv := runUPnPServer(t, ":0", &log)
	port := srv.port
	var got [2]string
	select {
	case got = <-srv.heard:
	case <-time.After(10 * time.Second):
		t.Fatalf("no port mapping outcome in 10 s; log:\n%s", log.String())
	}
	link := "http://203.0.113.7:" + strconv.Itoa(port) + "/"
	if got != [2]string{"Friends can join at " + link, link} {
		t.Errorf("heard %q, want the sentence and link %s", got, link)
	}
	adds := igd.Calls("AddPortMapping")
	protos := map[string]bool{}
	for _, a := range adds {
		if a.Args["NewExternalPort"] == strconv.Itoa(port) && a.Args["NewInternalPort"] == strconv.Itoa(port) {
			protos[a.Args["NewProtocol"]] = true
		}
	}
	if !protos["TCP"] || !protos["UDP"] {
		t.Errorf("mappings %v, want TCP and UDP %d", adds, port)
	}
	if !strings.Contains(log.String(), "level=INFO msg=\"port mapping: Friends can join at "+link) {
		t.Errorf("log has no INFO line with the link:\n%s", log.String())
	}
	if srv.hs.rtc == nil || !slices.Equal(srv.hs.rtc.Added(), []string{"203.0.113.7"}) {
		t.Error("the router's address was not advertised to WebRTC clients (rtc.Host.AddPublic)")
	}
	srv.stop()
	if dels := igd.Calls("DeletePortMapping"); len(dels) != 2 {
		t.Errorf("deletions at shutdown %v, want TCP and UDP", dels)
	}
}

// TestPortMapServerRefused: a router that refuses gives a WARN line with
// the ports to forward by hand.
func TestPortMapServerRefused(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:1", "203.0.113.7")
	igd.SetRefuse(718)
	withFakeRouter(t, igd)
	var log lockedBuffer
	srv := runUPnPServer(t, ":0", &log)
	select {
	case got := <-srv.heard:
		want := "Your router did not accept a port mapping: forward TCP and UDP " + strconv.Itoa(srv.port) + " to "
		if !strings.HasPrefix(got[0], want) || got[1] != "" {
			t.Errorf("heard %q, want %q... and no link", got, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no outcome in 10 s")
	}
	if srv.hs.rtc != nil && srv.hs.rtc.Added() != nil {
		t.Errorf("a refused mapping advertised %v to WebRTC clients", srv.hs.rtc.Added())
	}
	if !strings.Contains(log.String(), "level=WARN msg=\"port mapping: Your router did not accept a port mapping") {
		t.Errorf("log has no WARN line:\n%s", log.String())
	}
}

// TestPortMapServerLoopback: on a loopback address the router is not
// asked (nobody else could join) and the log says why.
func TestPortMapServerLoopback(t *testing.T) {
	igd := portmaptest.NewIGD(t, "WANIPConnection:2", "203.0.113.7")
	withFakeRouter(t, igd)
	var log lockedBuffer
	runUPnPServer(t, "127.0.0.1:0", &log).stop()
	if n := len(igd.Calls("AddPortMapping")) + len(igd.Calls("GetExternalIPAddress")); n != 0 {
		t.Errorf("%d calls to the router, want none", n)
	}
	if !strings.Contains(log.String(), "port mapping skipped: the server listens on loopback only") {
		t.Errorf("log does not say why:\n%s", log.String())
	}
}

// TestConfigUPnP: server.cfg's sv_upnp turns port mapping on (1) or off
// (0); another value is refused with the line.
func TestConfigUPnP(t *testing.T) {
	var cfg Config
	if err := ParseConfig("server.cfg", "sv_upnp 1\n", &cfg); err != nil || !cfg.UPnP {
		t.Errorf("sv_upnp 1: UPnP %v, err %v; want on", cfg.UPnP, err)
	}
	if err := ParseConfig("server.cfg", "sv_upnp 0\n", &cfg); err != nil || cfg.UPnP {
		t.Errorf("sv_upnp 0: UPnP %v, err %v; want off", cfg.UPnP, err)
	}
	err := ParseConfig("server.cfg", "\nsv_upnp yes\n", &cfg)
	if err == nil || !strings.Contains(err.Error(), "server.cfg:2: sv_upnp") {
		t.Errorf("sv_upnp yes: %v, want an error naming server.cfg:2", err)
	}
}
