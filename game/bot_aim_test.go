package game

import (
	"testing"

	"tickshot/shared"
)

// botHitRate puts a bot of skill at (200, 384) on range, facing an enemy
// standing still dist to its right, for engagements of 3 s each (the enemy
// out of sight for a tick between them, so that the bot reacts afresh),
// and returns the share of the shots it decides to fire whose ray, with
// the rifle's spread, passes through the enemy's hitbox.
func botHitRate(t *testing.T, skill, dist float64, engagements int) (rate float64, shots int) {
	t.Helper()
	m, err := LoadMap("range")
	if err != nil {
		t.Fatal(err)
	}
	const tickRate = 64
	b := NewBot(uint64(skill*1000 + dist))
	b.Skill = skill
	self := shared.NewPlayerState(200, 384)
	hits := 0
	cmd := uint32(0)
	for e := 0; e < engagements; e++ {
		b.Think(m, tickRate, self, MaxHealth, nil) // out of sight: the next sighting is a new reaction
		for i := 0; i < 3*tickRate; i++ {
			enemy := []Hitbox{NewHitbox(2, 200+dist, 384, true, TeamNone)}
			in := b.Think(m, tickRate, self, MaxHealth, enemy)
			if in.Buttons&shared.ButtonAttack == 0 {
				continue
			}
			cmd++
			a := float64(in.Angle) + shared.SpreadOffset(shared.ShotSeed(cmd), shared.Weapons[0].Spread)
			dy, dx := shared.Sincos(a)
			tr := TraceShot(m, self.X, self.Y, dx, dy, shared.Weapons[0].Range, enemy, 1)
			shots++
			if tr.Hit >= 0 {
				hits++
			}
		}
	}
	return float64(hits) / float64(max(shots, 1)), shots
}

// bot_difficulty 0 misses most shots at range (issue 21: the first minute
// teaches): against an enemy standing 600 units away, under a quarter of
// an easy bot's shots hit, and a normal or hard bot hits at least twice as
// often. Seeded: the same figures every run.
func TestEasyBotMissesAtRange(t *testing.T) {
	const dist, engagements = 600, 40
	easy, n := botHitRate(t, 0, dist, engagements)
	t.Logf("bot_difficulty 0 at %d units: %.2f of %d shots hit", dist, easy, n)
	if n < 200 || easy >= 0.25 {
		t.Errorf("bot_difficulty 0 at %d units hit %.2f of %d shots: want under a quarter of at least 200", dist, easy, n)
	}
	for _, skill := range []float64{1, 2} {
		r, n := botHitRate(t, skill, dist, engagements)
		t.Logf("bot_difficulty %v at %d units: %.2f of %d shots hit", skill, dist, r, n)
		if r < 2*easy {
			t.Errorf("bot_difficulty %v hit %.2f of its shots at %d units, not clearly more than difficulty 0's %.2f", skill, r, dist, easy)
		}
	}
}
