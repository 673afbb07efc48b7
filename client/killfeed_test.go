//go:build !headless

package client

import (
	"testing"
	"time"
)

// TestKillFeedKeepsNewestAndExpires: the kill feed keeps its newest
// feedLen entries in order, kills for feedTime and notices for half as
// long.
func TestKillFeedKeepsNewestAndExpires(t *testing.T) {
	var k killFeed
	for i := 0; i < feedLen+2; i++ {
		k.addKill(string(rune('a'+i)), "victim", i == 0, false)
	}
	k.addNotice("late joined")
	if len(k.entries) != feedLen || k.entries[0].killer != "d" || k.entries[feedLen-1].notice != "late joined" {
		t.Fatalf("entries %+v: want the newest %d, oldest first", k.entries, feedLen)
	}
	k.update(feedTime/2 + time.Millisecond)
	if n := len(k.entries); n != feedLen-1 {
		t.Errorf("after %v: %d entries, want the notice gone and %d kills left", feedTime/2, n, feedLen-1)
	}
	k.update(feedTime / 2)
	if n := len(k.entries); n != 0 {
		t.Errorf("after %v: %d entries left", feedTime, n)
	}
}
