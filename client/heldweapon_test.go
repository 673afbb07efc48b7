//go:build !headless

package client

import (
	"testing"

	"tickshot/client/netclient"
	"tickshot/shared"
)

// TestOtherPlayerDrawnWithEntityWeapon: another player is drawn with the
// shape of the weapon its entity carries (every weapon, whatever rockets
// fly), not the rifle; a player not in view (the local player in a kill
// cam) with a rocket in flight holds the launcher, else the rifle's look.
func TestOtherPlayerDrawnWithEntityWeapon(t *testing.T) {
	rocket := -1
	for w := range shared.Weapons {
		if shared.Weapons[w].Kind == shared.Projectile {
			rocket = w
		}
	}
	for w := range shared.Weapons {
		v := &netclient.View{
			Rendered:    []netclient.RenderedEntity{{ID: 3}, {ID: 5, Alive: true, Weapon: w}},
			Projectiles: []netclient.RenderedProjectile{{ID: 1, Owner: 5, Weapon: uint8(rocket)}},
		}
		if got := heldWeapon(v, 5); got != w || weaponArt(got) != weaponArt(w) {
			t.Errorf("entity holding %s: drawn with weapon %d", shared.Weapons[w].Name, got)
		}
		if w != 0 && weaponArt(w) == weaponArt(0) {
			t.Errorf("%s has the rifle's shape", shared.Weapons[w].Name)
		}
		if got := heldWeapon(v, 9); got != -1 {
			t.Errorf("a player not in view with no rocket: weapon %d, want -1", got)
		}
		v.Projectiles[0].Owner = 9
		if got := heldWeapon(v, 9); got != rocket {
			t.Errorf("a player not in view with a rocket in flight: weapon %d, want %d", got, rocket)
		}
	}
}
