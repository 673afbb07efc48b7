package netclient_test

import (
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
)

// Chat over real websockets: a message from one client reaches another with
// the sender's name; control characters never reach another player (C0
// ones make the frame a protocol error, C1 ones such as U+009B, a terminal's
// CSI, are stripped by the server); a flood is cut to the burst the server
// allows, and the sender is told why.
func TestChatReachesOthers(t *testing.T) {
	srv := startServer(t, server.Config{Bots: 0})
	alice := connect(t, srv.Addr(), netclient.DefaultConfig("alice"))
	bob := connect(t, srv.Addr(), netclient.DefaultConfig("bob"))
	waitFirstSnapshot(t, alice)
	waitFirstSnapshot(t, bob)

	alice.SendCommand("say hello\u009b31m bob\u0085", "")
	for i := 0; i < 10; i++ {
		alice.SendCommand("say flood "+string(rune('a'+i)), "")
	}
	var got []proto.Event
	var prints []string
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) && (len(got) < netclientChatBurst || len(prints) == 0) {
		for _, c := range []*netclient.Client{alice, bob} {
			if err := c.Poll(); err != nil {
				t.Fatal(err)
			}
			c.Advance(time.Second / time.Duration(c.View().TickRate))
		}
		for _, e := range bob.Match().TakeEvents() {
			if e.Kind == proto.EvChat {
				got = append(got, e)
			}
		}
		alice.Match().TakeEvents()
		prints = append(prints, alice.Match().TakePrints()...)
		time.Sleep(5 * time.Millisecond)
	}
	if len(got) == 0 {
		t.Fatal("bob received no chat")
	}
	// The sender's name comes with the scoreboard (at most 2 s after a join).
	for deadline := time.Now().Add(5 * time.Second); bob.View().Name(alice.View().ID) != "alice" && time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if err := bob.Poll(); err != nil {
			t.Fatal(err)
		}
		bob.Advance(time.Second / time.Duration(bob.View().TickRate))
	}
	first := got[0]
	if first.A != alice.View().ID || bob.View().Name(first.A) != "alice" || first.Text != "hello31m bob" {
		t.Fatalf("bob got %+v from %q; want alice's \"hello31m bob\", control characters stripped", first, bob.View().Name(first.A))
	}
	for _, e := range got {
		for _, r := range e.Text {
			if r < 0x20 || (r >= 0x7f && r < 0xa0) {
				t.Fatalf("a control character reached another player: %q", e.Text)
			}
		}
	}
	if len(got) != netclientChatBurst {
		t.Errorf("11 messages at once: bob received %d, want the burst of %d", len(got), netclientChatBurst)
	}
	if !strings.Contains(strings.Join(prints, "\n"), "too fast") {
		t.Errorf("alice was not told her messages were refused: %q", prints)
	}
}

const netclientChatBurst = server.ChatBurst
