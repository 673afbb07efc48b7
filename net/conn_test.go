package net

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// Close must not block its caller (the server's tick goroutine) when the
// writer is stuck behind a peer that stopped reading: the goodbye is
// written in the background, bounded in time.
func TestCloseDoesNotBlockBehindStuckWriter(t *testing.T) {
	accepted := make(chan *Conn, 1)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Upgrade(w, r)
		if err != nil {
			t.Errorf("upgrade: %v", err)
			return
		}
		accepted <- c
	}))
	defer hs.Close()
	d := websocket.Dialer{ReadBufferSize: 1024}
	peer, _, err := d.Dial("ws://"+strings.TrimPrefix(hs.URL, "http://")+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close() // never reads
	c := <-accepted

	// Fill the socket: the peer reads nothing, so the writer blocks.
	big := make([]byte, 256<<10)
	big[0] = byte(MsgPrint)
	for i := 0; i < SendQueue; i++ {
		c.SendRaw(big)
	}
	time.Sleep(300 * time.Millisecond) // let the writer get stuck in a write

	start := time.Now()
	c.Close("kicked: test")
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Fatalf("Close took %v behind a stuck writer", d)
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("Done not closed after Close")
	}
	if r, _ := c.Reason(); r != "kicked: test" {
		t.Fatalf("reason %q", r)
	}
	select {
	case <-c.Closed():
	case <-time.After(WriteTimeout + 3*time.Second):
		t.Fatal("socket never closed")
	}
}
