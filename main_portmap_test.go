//go:build !js

package main

import (
	"bytes"
	"io"
	"testing"

	"tickshot/server"
)

// TestServerUPnPFlag: `server` leaves the router alone by default; --upnp
// or the file's sv_upnp 1 turn port mapping on, and --upnp=false given on
// the command line beats the file.
func TestServerUPnPFlag(t *testing.T) {
	file := writeCfg(t, "server.cfg", "sv_upnp 1\n")
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"--upnp"}, true},
		{[]string{"--config", file}, true},
		{[]string{"--config", file, "--upnp=false"}, false},
	} {
		fs := newFlags("server", "", io.Discard)
		sf := addServerFlags(fs, server.DefaultAddr, 0)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		cfg, err := sf.resolve(fs, io.Discard)
		if err != nil || cfg.UPnP != c.want {
			t.Errorf("%v: UPnP %v (err %v), want %v", c.args, cfg.UPnP, err, c.want)
		}
	}
}

// TestBeyondLoopback: which listen addresses get port mapping by default
// (play --addr, the menu's host address).
func TestBeyondLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		":27015": true, "0.0.0.0:27015": true, "192.168.1.20:27015": true, "[::]:27015": true,
		"127.0.0.1:0": false, "127.0.0.1:27015": false, "[::1]:27015": false, "localhost:27015": false, "nonsense": false,
	} {
		if got := beyondLoopback(addr); got != want {
			t.Errorf("beyondLoopback(%q) = %v, want %v", addr, got, want)
		}
	}
}

// TestPrintInviteLink: play prints the invite link once the router maps
// the ports, and nothing more for a refusal (the server's WARN says it).
func TestPrintInviteLink(t *testing.T) {
	var b bytes.Buffer
	p := printInviteLink(&b)
	p("Your router did not accept a port mapping: forward TCP and UDP 27015 to 192.168.1.20 (how: docs/HOSTING.md)", "")
	p("Friends can join at http://203.0.113.7:27015/", "http://203.0.113.7:27015/")
	if want := prog + ": Friends can join at http://203.0.113.7:27015/\n"; b.String() != want {
		t.Errorf("printed %q, want %q", b.String(), want)
	}
}
