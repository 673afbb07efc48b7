package game

import (
	"testing"

	"tickshot/shared"
)

// Squad alone: naming, removal, forgetting, and the bots' view of the world.

func TestSquadNamesRemoveForget(t *testing.T) {
	w := testWorld(t, "arena", 1, Rules{})
	for i := range len(botNames) + 1 {
		if got, want := w.Squad.nextName(), "[BOT] "+botNames[i%len(botNames)]; got != want {
			t.Fatalf("bot %d named %q, want %q", i, got, want)
		}
		w.AddBot(32)
	}
	if last := w.Bots[len(w.Bots)-1].Player.Name; last != "[BOT] Bernier(2)" {
		t.Fatalf("the 17th bot is %q, want the first name made unique", last)
	}
	second := w.Bots[1].Player.ID
	w.Squad.remove(second)
	w.Squad.remove(60000) // nobody: nothing happens
	if len(w.Bots) != len(botNames) || w.Bots[1].Player.ID == second {
		t.Fatalf("remove: %d bots left", len(w.Bots))
	}
	b := w.Bots[0].Brain
	b.target, b.seenTicks, b.hasWaypoint, b.hunting = 3, 9, true, true
	w.Squad.forget()
	if b.target != -1 || b.seenTicks != 0 || b.hasWaypoint || b.hunting {
		t.Fatal("forget kept the old map's plan")
	}
}

// After think, the view holds every player once, each bot's entry where
// that bot moved to, and the spawn-protected as not there.
func TestSquadThinkView(t *testing.T) {
	w := testWorld(t, "arena", 7, Rules{SpawnProtection: 1})
	human := w.AddPlayer("human", false)
	w.AddBot(32)
	w.AddBot(32)
	w.Tick = 1000 // past everyone's spawn protection
	human.ProtectedUntil = 2000
	w.Squad.think(w)
	if len(w.Squad.view) != len(w.Players) {
		t.Fatalf("view of %d players, want %d", len(w.Squad.view), len(w.Players))
	}
	seen := map[uint16]Hitbox{}
	for _, h := range w.Squad.view {
		seen[h.ID] = h
	}
	if h := seen[human.ID]; h.Alive {
		t.Fatal("the bots saw a spawn-protected player")
	}
	for _, b := range w.Bots {
		h, ok := seen[b.Player.ID]
		if !ok || h.X != b.Player.State.X || h.Y != b.Player.State.Y || !h.Alive || h.R != shared.PlayerRadius {
			t.Fatalf("bot %d's view entry %+v, its state (%v, %v)", b.Player.ID, h, b.Player.State.X, b.Player.State.Y)
		}
		if b.cmdNum != 1 {
			t.Fatalf("bot %d ran %d commands in one think", b.Player.ID, b.cmdNum)
		}
	}
}
