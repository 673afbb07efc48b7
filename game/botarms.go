package game

import "tickshot/shared"

// A fighting bot's weapon and dash (issue 21): the shotgun up close, the
// rocket launcher at middle range, the rifle farther off, and now and then
// a dash. Changing one changes the
// golden world trace (golden_world_test.go).
const (
	// A bot draws the shotgun for an enemy nearer than botShotgunIn and
	// puts it away for one farther than botShotgunOut (the gap keeps it
	// from switching back and forth at one distance: a switch costs
	// SwitchMs of not firing).
	botShotgunIn  = 240
	botShotgunOut = 340
	// A bot draws the rocket launcher for an enemy botRocketIn..
	// botRocketOut away (its splash forgives aim at a target that has to
	// cross open ground) and keeps it over botRocketKeepIn..
	// botRocketKeepOut; nearer it risks its own splash, farther the
	// rocket's flight gives the target time to step aside.
	botRocketIn      = 420
	botRocketOut     = 640
	botRocketKeepIn  = 380
	botRocketKeepOut = 720
	// botDashEvery: a fighting bot dashes once in each this many seconds
	// of tracking one target, a second into each (when the dash is ready:
	// across the line of fire, in or out, as strafeMove goes). The rhythm
	// draws nothing from the brain's random stream, so the aim it draws is
	// the same as without a dash.
	botDashEvery = 3
)

// weaponFor is the weapon a bot holding cur wants against an enemy dist
// away: the shotgun near, the rocket launcher at middle range, the rifle
// otherwise; the keep ranges (botShotgunIn..botShotgunOut,
// botRocketKeepIn..botRocketKeepOut) keep whichever it has, so that it
// does not switch back and forth at one distance.
func weaponFor(cur uint8, dist float64) uint8 {
	switch {
	case dist < botShotgunIn:
		return shared.WeaponShotgun
	case cur == shared.WeaponShotgun && dist <= botShotgunOut:
		return cur
	case dist >= botRocketIn && dist <= botRocketOut:
		return shared.WeaponRocket
	case cur == shared.WeaponRocket && dist >= botRocketKeepIn && dist <= botRocketKeepOut:
		return cur
	}
	return shared.WeaponRifle
}

// arm sets a fighting bot's weapon (weaponFor) and, once in each
// botDashEvery seconds of tracking its target, the dash button.
func (b *Bot) arm(in *BotInput, tickRate int, self *shared.PlayerState, dist float64) {
	in.Weapon = weaponFor(self.Weapon, dist)
	if self.DashTicks == 0 && b.seenTicks%(botDashEvery*tickRate) == tickRate {
		in.Buttons |= shared.ButtonDash
	}
}
