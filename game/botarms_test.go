package game

import (
	"testing"

	"tickshot/shared"
)

// TestBotWeaponForRange: the shotgun near, rockets at middle range, the
// rifle far, and the keep ranges hold a weapon in hand near its edges.
func TestBotWeaponForRange(t *testing.T) {
	const sg, rl, rf = shared.WeaponShotgun, shared.WeaponRocket, shared.WeaponRifle
	for _, c := range []struct {
		cur  uint8
		dist float64
		want uint8
	}{
		{rf, 100, sg}, {rl, 100, sg}, {sg, 300, sg}, {rf, 300, rf}, {sg, 360, rf},
		{rf, 500, rl}, {sg, 500, rl}, {rl, 400, rl}, {rf, 400, rf}, {rl, 700, rl},
		{rf, 700, rf}, {rl, 800, rf}, {rl, 360, rf}, {rf, 1200, rf},
	} {
		if got := weaponFor(c.cur, c.dist); got != c.want {
			t.Errorf("holding %d, enemy %v away: weapon %d, want %d", c.cur, c.dist, got, c.want)
		}
	}
}
