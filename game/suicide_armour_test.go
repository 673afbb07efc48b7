package game

import "testing"

// The console's `kill` kills whatever armour the player carries: armour
// takes half of every hit (absorb), and a suicide of the player's health
// alone left a player with armour alive.
func TestSuicideWithArmourKills(t *testing.T) {
	for _, armour := range []int{ArmourAmount, MaxArmour} {
		w := testWorld(t, "range", 1, Rules{})
		p := w.AddPlayer("a", false)
		w.Tick = 10
		p.Armour = armour
		if err := w.Suicide(p); err != nil {
			t.Fatal(err)
		}
		if p.Alive() {
			t.Errorf("kill with %d armour: alive with %d health, %d armour", armour, p.Health, p.Armour)
		}
	}
}
