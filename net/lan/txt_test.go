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
	want := []string{"txtvers=1", "name=Den? of \"bots\"", "map=arena", "players=3", "bots=2", "max=16", "password=1", "proto=" + strconv.Itoa(proto.ProtocolVersion)}
	if strings.Join(txt, "|") != strings.Join(want, "|") {
		t.Errorf("TXT %q, want %q", txt, want)
	}
	s := parseTXT(txt)
	if s.Name != "Den? of \"bots\"" || s.Map != "arena" || s.Players != 3 || s.Bots != 2 || s.MaxPlayers != 16 || !s.Password || s.Version != proto.ProtocolVersion {
		t.Errorf("parsed %+v", s)
	}
	bad := parseTXT([]string{"players=-4", "bots=99999999999", "max=x", "name=" + strings.Repeat("é", 100) + "\x00", "password=yes", "junk", "=", ""})
	if bad.Players != 0 || bad.Bots != 0 || bad.MaxPlayers != 0 || len(bad.Name) > 64 || strings.ContainsRune(bad.Name, 0) || bad.Password {
		t.Errorf("hostile TXT parsed as %+v", bad)
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
	if s.Name != "n?x" || s.Map != "arena" || s.MaxPlayers != 8 || s.Players != 3 || s.Bots != 1 || s.Spectators != 1 || !s.Password || s.Version != 4 {
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
