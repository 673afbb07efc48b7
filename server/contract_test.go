package server_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/vmihailenco/msgpack/v5"

	"tickshot/net/proto"
	"tickshot/server"
	"tickshot/shared"
)

// docs/PROTOCOL.md stays a contract (issue 19 item 6): what a client written
// from the document alone found the server contradicting, or left unsaid,
// checked against a real server over websockets, with the sentences the
// document gives.

// protocolDoc is docs/PROTOCOL.md.
func protocolDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docSentence checks that docs/PROTOCOL.md gives tmpl as a code span and
// returns it with its placeholders (whole uppercase words: N, M, TEAM, ...)
// replaced by vals, given as name, value pairs: the exact text the server
// must send.
func docSentence(t *testing.T, doc, tmpl string, vals ...string) string {
	t.Helper()
	if !strings.Contains(doc, "`"+tmpl+"`") {
		t.Errorf("docs/PROTOCOL.md does not give the sentence `%s`", tmpl)
	}
	s := tmpl
	for i := 0; i+1 < len(vals); i += 2 {
		s = regexp.MustCompile(`\b`+vals[i]+`\b`).ReplaceAllLiteralString(s, vals[i+1])
	}
	return s
}

// next reads frames until one of the message type it wants (skipping
// others) or timeout; the raw body comes with it.
func (r *raw) next(typ proto.MsgType, timeout time.Duration) (proto.Message, []byte) {
	r.t.Helper()
	_ = r.ws.SetReadDeadline(time.Now().Add(timeout))
	for {
		kind, data, err := r.ws.ReadMessage()
		if err != nil {
			r.t.Fatalf("waiting for a %s: %v", typ, err)
		}
		if kind != websocket.BinaryMessage {
			continue
		}
		m, err := proto.Decode(data)
		if err != nil {
			r.t.Fatalf("server sent an undecodable frame: %v", err)
		}
		if m.Type() == typ {
			return m, data
		}
		if d, ok := m.(*proto.Disconnect); ok {
			r.t.Fatalf("waiting for a %s: disconnected: %s", typ, d.Reason)
		}
	}
}

// print sends the console command text and returns the Print answering it.
func (r *raw) print(text string) string {
	r.t.Helper()
	r.mustSend(proto.MustEncode(&proto.Command{Text: text}))
	m, _ := r.next(proto.MsgPrint, 3*time.Second)
	return m.(*proto.Print).Text
}

// joinHello sends h (encoded as given) and returns the Accept.
func (r *raw) joinWith(frame []byte) *proto.Accept {
	r.t.Helper()
	r.mustSend(frame)
	m, _ := r.next(proto.MsgAccept, 3*time.Second)
	return m.(*proto.Accept)
}

// §4.1: a taken name gets "(2)", the base cut to 24 − 3 = 21 bytes, and
// further back to a character's start (the document said 20 bytes; the
// server cut to 21).
func TestDocDuplicateNames(t *testing.T) {
	doc := protocolDoc(t)
	for _, s := range []string{
		`a 24-byte name becomes its first 21 bytes + "(2)"`,
		"20 ASCII bytes followed by `éé` become the 20 ASCII bytes + \"(2)\"",
	} {
		if !strings.Contains(doc, s) {
			t.Errorf("docs/PROTOCOL.md §4.1 does not say: %s", s)
		}
	}
	_, addr := startServer(t, server.Config{MaxPlayers: 8})
	long := "abcdefghijklmnopqrstuvwx"     // 24 bytes
	wide := strings.Repeat("a", 20) + "éé" // 24 bytes: the 21st byte is inside é
	want := []string{long, long[:21] + "(2)", wide, strings.Repeat("a", 20) + "(2)"}
	for _, n := range []string{long, long, wide, wide} {
		dialRaw(t, addr).join(n)
	}
	waitFor(t, 3*time.Second, "four players in /status", func() bool {
		st, err := getStatus(addr)
		return err == nil && len(st.Players) == 4
	})
	st, _ := getStatus(addr)
	got := playerNames(st)
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found || len(w) > proto.MaxNameLen {
			t.Errorf("names %q: want %q among them (at most %d bytes)", got, w, proto.MaxNameLen)
		}
	}
}

// §2 map form: a Hello keyed by field name joins (it was refused with
// "malformed hello: ... invalid code=8a decoding array length"); a map
// Hello of another version gets the version Reject.
func TestDocMapFormHello(t *testing.T) {
	_, addr := startServer(t, server.Config{MaxPlayers: 4})
	hello := func(version uint16) []byte {
		body, err := msgpack.Marshal(map[string]any{"Protocol": version, "Name": "mapper", "Rate": 100000,
			"UpdateRate": 20, "CmdRate": 64, "InterpMs": 100, "InterpRatio": float32(2), "NoDelta": false,
			"Spectate": false, "Password": ""})
		if err != nil {
			t.Fatal(err)
		}
		return append([]byte{byte(proto.MsgHello)}, body...)
	}
	if a := dialRaw(t, addr).joinWith(hello(proto.ProtocolVersion)); a.PlayerID == 0 {
		t.Errorf("map-form Hello: Accept %+v", a)
	}
	r := dialRaw(t, addr)
	r.mustSend(hello(proto.ProtocolVersion - 1))
	e := r.readEnd(3 * time.Second)
	want := fmt.Sprintf("protocol version %d, server speaks %d: update your game", proto.ProtocolVersion-1, proto.ProtocolVersion)
	if !e.rejected || len(e.reasons) == 0 || e.reasons[0] != want {
		t.Errorf("a map Hello of the previous protocol: %v; want the Reject %q", e, want)
	}
}

// §5.5: the exact Prints of the chat rate limit and of the spectate, join
// and jointeam refusals, in deathmatch.
func TestDocCommandRefusalsDeathmatch(t *testing.T) {
	doc := protocolDoc(t)
	_, addr := startServer(t, server.Config{MaxPlayers: 1, Cvars: [][2]string{{"sv_maxspectators", "1"}}})
	player := dialRaw(t, addr)
	player.join("player1")
	watcher := dialRaw(t, addr)
	if a := watcher.join("watcher"); !a.Spectator {
		t.Fatalf("the server is full: the second client should be a spectator, got %+v", a)
	}
	for _, c := range []struct {
		who  *raw
		cmd  string
		want string
	}{
		{watcher, "join", docSentence(t, doc, "join: server is full (N/M players); you are still spectating", "N", "1", "M", "1")},
		{watcher, "spectate", docSentence(t, doc, "spectate: you are already spectating (join: play)")},
		{watcher, "jointeam red", docSentence(t, doc, "join: server is full (N/M players); you are still spectating", "N", "1", "M", "1")},
		{player, "spectate", docSentence(t, doc, "spectate: no spectator slots (K/M spectators)", "K", "1", "M", "1")},
		{player, "join", docSentence(t, doc, "join: you are already playing")},
		{player, "jointeam red", docSentence(t, doc, "jointeam: this match is deathmatch (mp_gamemode dm): there are no teams")},
		{player, "jointeam", docSentence(t, doc, "usage: jointeam red|blue|auto (or 2|3|0)")},
		{player, "jointeam purple", docSentence(t, doc, `jointeam: unknown team "WORD": want red (2), blue (3) or auto (0)`, "WORD", "purple")},
	} {
		if got := c.who.print(c.cmd); got != c.want {
			t.Errorf("%q: Print %q, want %q", c.cmd, got, c.want)
		}
	}
	// Chat: 4 at once, then one a second; the fifth is refused.
	for i := 0; i < 4; i++ {
		player.mustSend(proto.MustEncode(&proto.Command{Text: "say hi"}))
	}
	if got, want := player.print("say hi"), docSentence(t, doc, "chat: you are sending messages too fast; wait a second"); got != want {
		t.Errorf("the fifth say at once: Print %q, want %q", got, want)
	}
}

// §5.5 jointeam refusals in team deathmatch, and §4.1: a client that
// connects again is a new player on the smaller team, not the team it had.
// Teams are read from each client's first snapshot, which carries the
// scoreboard (§5.8).
func TestDocTeamDeathmatchJoinAndRejoin(t *testing.T) {
	doc := protocolDoc(t)
	if !strings.Contains(doc, "A client that connects again is a new player: a new PlayerID, Kills and Deaths 0, and the team this rule gives, whatever team it had before") {
		t.Error("docs/PROTOCOL.md §4.1 does not say which team a client that connects again plays on")
	}
	_, addr := startServer(t, server.Config{MaxPlayers: 8, Cvars: [][2]string{{"mp_gamemode", "tdm"}}})
	// join returns the client, its id and its team from its first snapshot.
	join := func(name string) (*raw, uint16, uint8) {
		r := dialRaw(t, addr)
		id := r.join(name).PlayerID
		m, _ := r.next(proto.MsgSnapshot, 3*time.Second)
		snap := m.(*proto.Snapshot)
		for _, row := range snap.Scores {
			if row.ID == id {
				if row.Kills != 0 || row.Deaths != 0 {
					t.Errorf("%s joined with %d kills, %d deaths", name, row.Kills, row.Deaths)
				}
				return r, id, row.Team
			}
		}
		t.Fatalf("%s's first snapshot has no scoreboard row for it: Scores %+v", name, snap.Scores)
		return nil, 0, 0
	}
	a, _, ta := join("a")
	b, _, tb := join("b")
	c, cID, tc := join("c")
	if ta != proto.TeamRed || tb != proto.TeamBlue || tc != proto.TeamRed {
		t.Fatalf("teams %d %d %d, want red, blue, red (the smaller; ties: the lower score, then red)", ta, tb, tc)
	}
	if got, want := a.print("jointeam red"), docSentence(t, doc, "jointeam: you are already on the TEAM team", "TEAM", "red"); got != want {
		t.Errorf("jointeam to its own team: %q, want %q", got, want)
	}
	want := docSentence(t, doc, "jointeam: the TEAM team has enough players (N against M; mp_autoteambalance is on)",
		"TEAM", "red", "N", "2", "M", "1")
	if got := b.print("jointeam red"); got != want {
		t.Errorf("jointeam to a team that would then be 3 against 0: %q, want %q", got, want)
	}
	c.ws.Close()
	waitFor(t, 3*time.Second, "c gone", func() bool {
		st, err := getStatus(addr)
		return err == nil && len(st.Players) == 2
	})
	if _, _, td := join("d"); td != proto.TeamRed {
		t.Fatalf("d joined %d, want red (1 against 1, scores equal)", td)
	}
	// Red 2, blue 1: c comes back on blue, though it played red.
	_, c2ID, tc2 := join("c")
	if tc2 != proto.TeamBlue || c2ID == cID {
		t.Errorf("c connected again: id %d (was %d), team %d; want a new id on blue (%d)", c2ID, cID, tc2, proto.TeamBlue)
	}
}

// §2, §5.8, §5.9: on the wire EntityDelta is always a bin (c4 00 for a
// client that has never had another player in view: it was nil), Ammo a
// bin of one byte per weapon (shared.NumWeapons), EventData nil when there
// is no event.
func TestDocSnapshotBins(t *testing.T) {
	doc := protocolDoc(t)
	for _, sentence := range []string{
		"| 5 | EntityDelta | **bin**, never nil: `c4 00` when no entity changed |",
		"| 7 | EventData | **bin**, or nil `c0` when it carries no event (never an empty bin) |",
	} {
		if !strings.Contains(doc, sentence) {
			t.Errorf("docs/PROTOCOL.md §5.8 does not say: %s", sentence)
		}
	}
	_, addr := startServer(t, server.Config{MaxPlayers: 4})
	r := dialRaw(t, addr)
	r.join("alone")
	for i := 0; i < 5; i++ {
		_, data := r.next(proto.MsgSnapshot, 3*time.Second)
		d := msgpack.NewDecoder(strings.NewReader(string(data[1:])))
		if _, err := d.DecodeArrayLen(); err != nil {
			t.Fatal(err)
		}
		codes := map[int]byte{}
		for f := 0; f < 8; f++ {
			c, err := d.PeekCode()
			if err != nil {
				t.Fatal(err)
			}
			codes[f] = c
			if f == 4 { // Self: its Ammo is its field 6
				n, _ := d.DecodeArrayLen()
				for g := 0; g < n; g++ {
					if g == 6 {
						if b, err := d.DecodeBytes(); err != nil || len(b) != shared.NumWeapons {
							t.Errorf("snapshot %d: Ammo %v (%v), want %d bytes", i, b, err, shared.NumWeapons)
						}
						continue
					}
					_ = d.Skip()
				}
				continue
			}
			_ = d.Skip()
		}
		if codes[5] != 0xc4 {
			t.Errorf("snapshot %d: EntityDelta written with code %#x, want a bin (c4)", i, codes[5])
		}
		if codes[7] != 0xc0 {
			t.Errorf("snapshot %d: EventData with no event written with code %#x, want nil (c0)", i, codes[7])
		}
	}
}

// §5.11: a spectator that sends Cmds without commands, only acks, is sent
// deltas against what it acknowledged.
func TestDocSpectatorCmdsWithoutCommands(t *testing.T) {
	if !strings.Contains(protocolDoc(t), "a Cmds with no commands (field 3 nil or `90`) carries the acks as well") {
		t.Error("docs/PROTOCOL.md §5.11 does not say that a spectator's Cmds may carry no commands")
	}
	_, addr := startServer(t, server.Config{MaxPlayers: 4, Bots: 1})
	r := dialRaw(t, addr)
	r.joinWith(proto.MustEncode(&proto.Hello{Protocol: proto.ProtocolVersion, Name: "eye", Rate: 100000,
		UpdateRate: 20, CmdRate: 64, InterpMs: 100, InterpRatio: 2, Spectate: true}))
	var seq uint32
	for i := 1; i <= 20; i++ {
		m, _ := r.next(proto.MsgSnapshot, 3*time.Second)
		s := m.(*proto.Snapshot)
		if s.Baseline != 0 {
			if s.Baseline > seq {
				t.Fatalf("baseline %d was never acknowledged (newest ack %d)", s.Baseline, seq)
			}
			return
		}
		seq = s.Seq
		r.mustSend(proto.MustEncode(&proto.Cmds{Ack: seq, Seq: uint32(i)}))
	}
	t.Errorf("20 snapshots, every one full: the empty Cmds' acks were not taken")
}
