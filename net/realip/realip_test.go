package realip

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

func mustList(t *testing.T, s ...string) Proxies {
	t.Helper()
	p, err := ParseList(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParsePrefix: a single address is a /32 or /128, a prefix is masked,
// IPv4-mapped counts as IPv4, and junk and zones are refused.
func TestParsePrefix(t *testing.T) {
	for in, want := range map[string]string{
		"127.0.0.1":           "127.0.0.1/32",
		" 10.1.2.3/8 ":        "10.0.0.0/8",
		"::1":                 "::1/128",
		"2001:db8::7/32":      "2001:db8::/32",
		"::ffff:192.0.2.1":    "192.0.2.1/32",
		"::ffff:10.0.0.0/104": "10.0.0.0/8",
	} {
		got, err := ParsePrefix(in)
		if err != nil || got.String() != want {
			t.Errorf("ParsePrefix(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "localhost", "10.0.0.0/33", "fe80::1%eth0", "1.2.3.4/", "1.2.3"} {
		if _, err := ParsePrefix(in); err == nil {
			t.Errorf("ParsePrefix(%q) accepted", in)
		}
	}
}

// TestClient: the right-most address that is not a trusted proxy, from
// a trusted peer only; spoofed left-most entries never win.
func TestClient(t *testing.T) {
	p := mustList(t, "127.0.0.1", "10.0.0.0/8", "::1")
	local := netip.MustParseAddrPort("127.0.0.1:5000")
	cases := []struct {
		name     string
		peer     netip.AddrPort
		xff, fwd []string
		want     string // "" for the peer with an error
		header   bool
	}{
		{"untrusted peer: headers ignored", netip.MustParseAddrPort("198.51.100.9:4000"), []string{"203.0.113.1"}, []string{"for=203.0.113.2"}, "198.51.100.9:4000", false},
		{"one hop", local, []string{"203.0.113.7"}, nil, "203.0.113.7:0", true},
		{"spoofed left-most ignored", local, []string{"1.2.3.4, 127.0.0.1, 203.0.113.7"}, nil, "203.0.113.7:0", true},
		{"junk left of the client ignored", local, []string{"not an ip,,, 203.0.113.7"}, nil, "203.0.113.7:0", true},
		{"two proxies skipped", local, []string{"203.0.113.7, 10.1.1.1", "10.2.2.2"}, nil, "203.0.113.7:0", true},
		{"all trusted: the left-most", local, []string{"10.9.9.9, 127.0.0.1"}, nil, "10.9.9.9:0", true},
		{"IPv6 client", netip.MustParseAddrPort("[::1]:5000"), []string{"2001:db8::1"}, nil, "[2001:db8::1]:0", true},
		{"mapped peer is trusted", netip.MustParseAddrPort("[::ffff:127.0.0.1]:5000"), []string{"203.0.113.7"}, nil, "203.0.113.7:0", true},
		{"mapped client is IPv4", local, []string{"::ffff:203.0.113.7"}, nil, "203.0.113.7:0", true},
		{"xff with a port", local, []string{"[2001:db8::1]:4711"}, nil, "[2001:db8::1]:4711", true},
		{"xff wins over forwarded", local, []string{"203.0.113.7"}, []string{"for=198.51.100.1"}, "203.0.113.7:0", true},
		{"forwarded token", local, nil, []string{"for=203.0.113.7;proto=https"}, "203.0.113.7:0", true},
		{"forwarded quoted IPv6 with port", local, nil, []string{`For="[2001:db8:cafe::17]:4711"`}, "[2001:db8:cafe::17]:4711", true},
		{"forwarded list, spoofed left", local, nil, []string{`for=1.2.3.4, for="10.0.0.5";by=x`, "for=203.0.113.7, for=10.0.0.6"}, "203.0.113.7:0", true},
		{"forwarded quoted comma", local, nil, []string{`for=203.0.113.7;host="a,b"`}, "203.0.113.7:0", true},
		{"malformed at the right", local, []string{"203.0.113.7, bogus"}, nil, "", false},
		{"empty entry at the right", local, []string{"203.0.113.7,"}, nil, "", false},
		{"zone", local, []string{"fe80::1%eth0"}, nil, "", false},
		{"no header", local, nil, nil, "", false},
		{"forwarded unknown", local, nil, []string{"for=unknown"}, "", false},
		{"forwarded obfuscated", local, nil, []string{"for=_hidden"}, "", false},
		{"forwarded unbracketed IPv6", local, nil, []string{`for="2001:db8::1"`}, "", false},
		{"forwarded bad port", local, nil, []string{`for="[2001:db8::1]:99999"`}, "", false},
		{"forwarded unterminated quote", local, nil, []string{`for="203.0.113.7`}, "", false},
		{"forwarded element without for", local, nil, []string{"for=203.0.113.7, proto=http"}, "", false},
	}
	for _, c := range cases {
		got, header, err := p.Client(c.peer, c.xff, c.fwd)
		if c.want == "" {
			if err == nil || header || got != c.peer {
				t.Errorf("%s: Client = %v, %v, %v; want the peer %v and an error", c.name, got, header, err, c.peer)
			}
			continue
		}
		if err != nil || got.String() != c.want || header != c.header {
			t.Errorf("%s: Client = %v, %v, %v; want %s, %v", c.name, got, header, err, c.want, c.header)
		}
	}
	if _, _, err := p.Client(local, nil, nil); !errors.Is(err, ErrNoHeader) {
		t.Errorf("no header: err %v, want ErrNoHeader", err)
	}
}

// TestClientNoProxies: with no trusted proxy every request is its peer's,
// whatever it claims.
func TestClientNoProxies(t *testing.T) {
	var p Proxies
	peer := netip.MustParseAddrPort("127.0.0.1:9")
	got, header, err := p.Client(peer, []string{"203.0.113.7"}, []string{"for=203.0.113.8"})
	if got != peer || header || err != nil {
		t.Errorf("Client = %v, %v, %v; want the peer", got, header, err)
	}
}

// TestClientLongChain: a chain of trusted entries longer than MaxHops
// stops the walk at the MaxHops-th entry from the right, and hostile
// lengths cost no more.
func TestClientLongChain(t *testing.T) {
	p := mustList(t, "10.0.0.0/8")
	chain := "203.0.113.7, " + strings.Repeat("10.0.0.1, ", 5000) + "10.0.0.2"
	got, header, err := p.Client(netip.MustParseAddrPort("10.0.0.3:1"), []string{chain}, nil)
	if err != nil || !header || got.Addr() != netip.MustParseAddr("10.0.0.1") {
		t.Errorf("Client = %v, %v, %v; want 10.0.0.1 (the walk's end)", got, header, err)
	}
}
