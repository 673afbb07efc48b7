package lan

import (
	"strconv"
	"strings"
	"testing"

	"tickshot/net/proto"
)

// The TXT record round-trips, never carries more than the keys of
// PROTOCOL.md, and reads hostile values as harmless ones.
func TestTXT(t *testing.T) {
	c := AnnounceConfig{Name: "Den\x07 of \"bots\"", Map: "arena", Players: 3, Bots: 2, MaxPlayers: 16, Password: true}
	txt := c.TXT()
	want := []string{"txtvers=1", "name=Den of \"bots\"", "map=arena", "players=3", "bots=2", "max=16", "password=1", "proto=" + strconv.Itoa(proto.ProtocolVersion)}
	if strings.Join(txt, "|") != strings.Join(want, "|") {
		t.Errorf("TXT %q, want %q", txt, want)
	}
	s := parseTXT(txt)
	if s.Name != "Den of \"bots\"" || s.Map != "arena" || s.Players != 3 || s.Bots != 2 || s.MaxPlayers != 16 || !s.Password || s.Version != proto.ProtocolVersion {
		t.Errorf("parsed %+v", s)
	}
	bad := parseTXT([]string{"players=-4", "bots=99999999999", "max=x", "name=" + strings.Repeat("é", 100) + "\x00", "password=yes", "junk", "=", ""})
	if bad.Players != 0 || bad.Bots != 0 || bad.MaxPlayers != 0 || len(bad.Name) > 64 || strings.ContainsRune(bad.Name, 0) || bad.Password {
		t.Errorf("hostile TXT parsed as %+v", bad)
	}
}

// Names are cleaned as every name shown to people is (proto.CleanName):
// a bidi override (U+202E, which draws "evil" as "live"), an escape
// sequence, a newline and blank letters are gone from what is announced
// and from what is read, whether from the TXT record or from /status.
func TestHostileNamesCleaned(t *testing.T) {
	const hostile = "\u202eevil\x1b[2J\n\u3164 Den  \u200b(2)"
	const clean = "evil[2J Den (2)"
	c := AnnounceConfig{Name: hostile, Map: "\u202darena\u202c"}
	if s := parseTXT(c.TXT()); s.Name != clean || s.Map != "arena" {
		t.Errorf("announced %q, read back %q/%q: want %q/arena", c.TXT(), s.Name, s.Map, clean)
	}
	for _, txt := range c.TXT() {
		if strings.ContainsFunc(txt, proto.Invisible) {
			t.Errorf("TXT string %q carries an invisible character", txt)
		}
	}
	if s := parseTXT([]string{"name=" + hostile, "map=\u202ex"}); s.Name != clean || s.Map != "x" {
		t.Errorf("a hostile TXT record read as %q/%q: want %q/x", s.Name, s.Map, clean)
	}
	body := `{"name":"\u202eevil\u001b[2J\n\u3164 Den  \u200b(2)","map":"\u202darena","maxplayers":8,"protocol":4,"players":[]}`
	if s, err := readStatus(strings.NewReader(body)); err != nil || s.Name != clean || s.Map != "arena" {
		t.Errorf("a hostile /status read as %+v, %v: want %q/arena", s, err, clean)
	}
}

// The TXT strings are in github.com/miekg/dns's presentation form, which
// zeroconf packs and unpacks: a backslash in a name is announced doubled
// (packed as one), and an answer's bytes outside printable ASCII, written
// \DDD by the unpacker, read back as the UTF-8 they were. Without this a
// server named "Café" announced "Caf\195\169", which never matched its
// /status, so it was never listed.
func TestTXTPresentationForm(t *testing.T) {
	c := AnnounceConfig{Name: `Café \o/ "x" 1\2`}
	if got := c.TXT()[1]; got != `name=Café \\o/ "x" 1\\2` {
		t.Errorf("TXT name string %q: want the backslashes doubled", got)
	}
	if s := parseTXT(c.TXT()); s.Name != c.Name {
		t.Errorf("name %q read back as %q", c.Name, s.Name)
	}
	// As miekg/dns v1.1.27 unpacks "Café \o/ \"x\"" followed by a
	// bidi override and "evil".
	unpacked := `name=Caf\195\169 \\o/ \"x\" \226\128\174evil`
	if s := parseTXT([]string{unpacked, `map=a\999b\`}); s.Name != `Café \o/ "x" evil` || s.Map != `a999b\` {
		t.Errorf("unpacked TXT read as %q/%q", s.Name, s.Map)
	}
}

// A /status body is read into the list's fields; what no server sends is
// refused rather than shown.
func TestReadStatus(t *testing.T) {
	s, err := readStatus(strings.NewReader(`{"name":"n\u0001x","map":"arena","maxplayers":8,"spectators":1,"password":true,"protocol":4,
		"players":[{"bot":true},{"bot":false},{"bot":false},{"bot":false}],"tick":5}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "nx" || s.Map != "arena" || s.MaxPlayers != 8 || s.Players != 3 || s.Bots != 1 || s.Spectators != 1 || !s.Password || s.Version != 4 {
		t.Errorf("read %+v", s)
	}
	for _, body := range []string{
		``, `[]`, `{"maxplayers":-1}`, `{"maxplayers":99999999}`, `{"spectators":-1}`,
		`{"players":` + strings.Repeat("[", 20000) + `}`, `{"name":5}`,
	} {
		if s, err := readStatus(strings.NewReader(body)); err == nil {
			t.Errorf("readStatus(%.40q) = %+v, want an error", body, s)
		}
	}
	// Larger than MaxStatusBytes: cut, so it fails to decode.
	huge := `{"name":"` + strings.Repeat("a", MaxStatusBytes) + `"}`
	if _, err := readStatus(strings.NewReader(huge)); err == nil {
		t.Errorf("a %d-byte status was read", len(huge))
	}
}
