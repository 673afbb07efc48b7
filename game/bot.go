package game

import (
	"math"
	"math/rand/v2"

	"tickshot/shared"
)

// BotInput is what a bot decides for one tick.
type BotInput struct {
	MoveX, MoveY float32
	Angle        float32
	Buttons      uint16
	Weapon       uint8 // the weapon wanted in hand (arm)
}

// Bot is a simple deathmatch brain used both by the server's bots and by the
// headless `tickshot bot` clients: it roams between points in its line of
// sight, reacts to a visible enemy after a delay, strafes while it shoots with
// an aim error that shrinks as it tracks, and falls back out of sight when
// hurt. It is deterministic for a given seed and inputs.
type Bot struct {
	rng         *rand.Rand
	waypoint    Point
	hasWaypoint bool
	target      int // ID of the enemy being tracked, -1 for none
	seenTicks   int
	aimErr      float64 // current aim error, radians
	strafe      float64 // +1 or -1
	strafeTicks int
	lastX       float64
	lastY       float64
	stuckTicks  int
	angle       float64
	hunting     bool
	// Skill is bot_difficulty: 0 easy, 1 normal, 2 hard, 3 expert. It
	// shortens the reaction time (0.8 s at 0, 0.3 s at 1, 0 s at 3) and
	// steadies the aim; below 1 the bot also fires only 40 % of each second
	// it tracks a target (Skill 0).
	Skill float64
	huntX float64
	huntY float64
	// Team is the bot's team in team deathmatch: hitboxes of the same
	// team are teammates, never targeted nor hunted. TeamNone: everyone
	// is an enemy.
	Team Team
	// Heal is where health pickups are there to take (the squad sets it
	// each tick): a hurt bot out of a fight heads for one it sees.
	Heal []Point
}

// NewBot returns a bot brain whose choices follow seed.
func NewBot(seed uint64) *Bot {
	return &Bot{rng: rand.New(rand.NewPCG(seed, seed^0x5DEECE66D)), target: -1, strafe: 1, Skill: 1}
}

// Bot tuning, in world units, radians and hit points. Changing one changes
// the golden world trace (golden_world_test.go).
const (
	// botSightRange is the farthest a bot notices an enemy in its line of
	// sight.
	botSightRange = 1400
	// botHurtHealth: with less health a fighting bot backs off.
	botHurtHealth = 35
	// A fighting bot closes in on an enemy farther than botFarRange and
	// backs off from one nearer than botNearRange, strafing all the while.
	botFarRange  = 550
	botNearRange = 220
	// botReactTurn is how far a bot turns towards an enemy a tick before it
	// has reacted; botRoamTurn towards its waypoint.
	botReactTurn = 0.15
	botRoamTurn  = 0.12
	// botFireAimErr: a bot fires only while its aim error is below this.
	botFireAimErr = 0.08
	// botWaypointReached: nearer than this to its waypoint, a bot picks the
	// next one; botHuntGiveUp: nearer than this to where its quarry was, it
	// stops hunting.
	botWaypointReached = 40
	botHuntGiveUp      = 200
	// botStuckMove: a roaming bot that moves less than this in a tick is
	// stuck; stuck for half a second, it picks another waypoint.
	botStuckMove = 0.5
	// botMapMargin keeps waypoints this far inside the map's edges, and
	// botWaypointClearance this far from any wall (the body and a margin).
	botMapMargin         = 64
	botWaypointClearance = shared.PlayerRadius + 8
)

// Think decides the input for one tick. self is the bot's own state, health
// its hit points, enemies the hitboxes of the others (dead ones are ignored).
// A bot fights the nearest enemy it sees and otherwise roams.
func (b *Bot) Think(m *Map, tickRate int, self shared.PlayerState, health int, enemies []Hitbox) BotInput {
	return b.think(m, tickRate, self, health, enemies, nil)
}

// think is Think asking q (the squad's grid) which of enemies are near;
// q nil: every one of them is tested.
func (b *Bot) think(m *Map, tickRate int, self shared.PlayerState, health int, enemies []Hitbox, q *botQuery) BotInput {
	var in BotInput
	if self.Dead {
		b.target, b.seenTicks, b.hasWaypoint = -1, 0, false
		return in
	}
	x, y := self.X, self.Y
	var near []int32
	if q != nil {
		near, _ = q.within(botSightRange)
	}
	ti, dist := b.nearestVisible(m, x, y, enemies, near)
	b.retarget(enemies, ti)
	if ti >= 0 {
		in = b.fight(tickRate, x, y, health, enemies[ti], dist)
		b.arm(&in, tickRate, &self, dist)
	} else {
		b.seekHealth(m, x, y, health)
		in = b.roam(m, tickRate, self, enemies, q)
		in.Weapon = self.Weapon
	}
	b.lastX, b.lastY = x, y
	in.Angle = float32(math.Remainder(b.angle, 2*math.Pi))
	return in
}

// nearestVisible is the index in enemies of the nearest live enemy within
// botSightRange in the bot's line of sight from (x, y), and its distance;
// -1 when there is none. near, unless nil, are the indices in enemies,
// ascending, of those that can be within range: the others are skipped (so
// the first of two at the same distance still wins).
func (b *Bot) nearestVisible(m *Map, x, y float64, enemies []Hitbox, near []int32) (int, float64) {
	ti := -1
	bestD := math.Inf(1)
	n := len(enemies)
	if near != nil {
		n = len(near)
	}
	for k := 0; k < n; k++ {
		i := k
		if near != nil {
			i = int(near[k])
		}
		e := &enemies[i]
		if !e.Alive || b.teammate(*e) {
			continue
		}
		// hypot is never below the larger leg (fpmath.go), so one that
		// already reaches bestD or the range cannot be taken: skip the root.
		dx, dy := e.X-x, e.Y-y
		if leg := math.Max(math.Abs(dx), math.Abs(dy)); leg >= bestD || leg >= botSightRange {
			continue
		}
		d := hypot(dx, dy)
		if d < bestD && d < botSightRange && m.LineOfSight(x, y, e.X, e.Y) {
			ti, bestD = i, d
		}
	}
	return ti, bestD
}

// retarget starts tracking enemies[ti] (none when ti < 0) when it is not
// the target already: the reaction starts over with a fresh aim error.
func (b *Bot) retarget(enemies []Hitbox, ti int) {
	if ti >= 0 && int(enemies[ti].ID) == b.target {
		return
	}
	b.seenTicks = 0
	b.aimErr = (float64(b.rng.Float64())*2 - 1) * 0.5
	b.target = -1
	if ti >= 0 {
		b.target = int(enemies[ti].ID)
	}
}

// fight aims at e, dist away, fires when the aim allows and strafes.
func (b *Bot) fight(tickRate int, x, y float64, health int, e Hitbox, dist float64) BotInput {
	var in BotInput
	b.seenTicks++
	want := atan2(e.Y-y, e.X-x)
	if b.aim(tickRate, want) {
		in.Buttons |= shared.ButtonAttack
	}
	in.MoveX, in.MoveY = b.strafeMove(tickRate, want, health, dist)
	b.hasWaypoint = false
	return in
}

// aim turns the bot towards want (the bearing of its target) and reports
// whether it fires. Before its reaction time it turns botReactTurn a tick;
// after, it aims at want with its aim error and a tremor, and fires about
// every other tick while the error is below botFireAimErr (at Skill below 1
// only in bursts: the last 60 % of each second of tracking, at Skill 0, is
// a pause).
func (b *Bot) aim(tickRate int, want float64) bool {
	// Aim error decays while tracking but never below a hand tremor
	// (about ±0.05 rad at Skill 1: half the shots hit at mid range).
	b.aimErr = float64(b.aimErr*0.97) + float64((float64(b.rng.Float64())*2-1)*0.012)
	// Below normal (Skill < 1) a bot is a beginner's opponent: slower to
	// react, shakier, and it fires in short bursts with pauses.
	easy := math.Max(1-b.Skill, 0)
	sinT, _ := shared.Sincos(float64(float64(b.seenTicks)*0.21) + float64(b.target))
	tremor := float64((0.08 - float64(0.03*b.Skill) + float64(0.07*easy)) * sinT)
	reaction := int(float64(tickRate) * (0.45 - float64(0.15*b.Skill) + float64(0.35*easy)))
	burst := b.seenTicks % tickRate                                   // within each second of tracking...
	pause := float64(burst) > float64(tickRate)*(1-float64(0.6*easy)) // ...the last 60 % is a pause at Skill 0
	if b.seenTicks <= reaction {
		b.angle = turnTowards(b.angle, want, botReactTurn)
		return false
	}
	b.angle = want + b.aimErr + tremor
	return math.Abs(b.aimErr) < botFireAimErr && !pause && b.rng.IntN(2) == 0
}

// strafeMove is a fighting bot's move: across the line of fire (bearing
// want), changing side now and then; backing off when hurt or too near,
// closing in when far.
func (b *Bot) strafeMove(tickRate int, want float64, health int, dist float64) (float32, float32) {
	b.strafeTicks--
	if b.strafeTicks <= 0 {
		if b.rng.IntN(2) == 0 {
			b.strafe = -b.strafe
		}
		b.strafeTicks = tickRate/3 + b.rng.IntN(tickRate)
	}
	fy, fx := shared.Sincos(want)
	mx, my := -fy*b.strafe, fx*b.strafe
	switch {
	case health < botHurtHealth:
		// Hurt: back off.
		mx, my = float64(mx*0.5)-fx, float64(my*0.5)-fy
	case dist > botFarRange:
		mx, my = float64(mx*0.6)+fx, float64(my*0.6)+fy
	case dist < botNearRange:
		mx, my = float64(mx*0.6)-fx, float64(my*0.6)-fy
	}
	return norm32(mx, my)
}

// roam walks towards the bot's waypoint (steer keeps it), reloading a
// magazine under half full on the way.
func (b *Bot) roam(m *Map, tickRate int, self shared.PlayerState, enemies []Hitbox, q *botQuery) BotInput {
	var in BotInput
	x, y := self.X, self.Y
	b.steer(m, tickRate, x, y, enemies, q)
	want := atan2(b.waypoint.Y-y, b.waypoint.X-x)
	b.angle = turnTowards(b.angle, want, botRoamTurn)
	in.MoveX, in.MoveY = norm32(b.waypoint.X-x, b.waypoint.Y-y)
	if self.Ammo[self.Weapon] < shared.Weapons[self.Weapon].MagSize/2 && self.ReloadTicks == 0 {
		in.Buttons |= shared.ButtonReload
	}
	return in
}

// steer keeps the roaming bot's waypoint: a new one when it has none, has
// reached it or is stuck, and half the time then a hunt for the nearest
// enemy (straight at it when in sight, else waypoints that close in on
// where it was, until the bot is within botHuntGiveUp of that).
func (b *Bot) steer(m *Map, tickRate int, x, y float64, enemies []Hitbox, q *botQuery) {
	if hypot(x-b.lastX, y-b.lastY) < botStuckMove {
		b.stuckTicks++
	} else {
		b.stuckTicks = 0
	}
	if !b.hasWaypoint || hypot(b.waypoint.X-x, b.waypoint.Y-y) < botWaypointReached || b.stuckTicks > tickRate/2 {
		b.pickWaypoint(m, x, y)
		b.stuckTicks = 0
		// Now and then hunt: head for the nearest enemy's last known
		// position, if it can be walked to in a straight line.
		if b.rng.IntN(2) == 0 {
			if e, ok := b.nearestEnemy(enemies, x, y, q); ok && m.LineOfSight(x, y, e.X, e.Y) {
				b.waypoint = Point{e.X, e.Y}
			} else if ok {
				b.huntX, b.huntY, b.hunting = e.X, e.Y, true
			}
		}
	}
	if b.hunting {
		// Pick waypoints that bring the bot closer to its quarry.
		if hypot(b.huntX-x, b.huntY-y) < botHuntGiveUp {
			b.hunting = false
		} else if hypot(b.waypoint.X-b.huntX, b.waypoint.Y-b.huntY) > hypot(x-b.huntX, y-b.huntY) {
			b.pickWaypointTowards(m, x, y, b.huntX, b.huntY)
		}
	}
}

// randomPointInside is a random point botMapMargin inside m's edges (it may
// be in a wall: the caller checks).
func (b *Bot) randomPointInside(m *Map) Point {
	return Point{botMapMargin + float64(b.rng.Float64()*(m.Width-2*botMapMargin)), botMapMargin + float64(b.rng.Float64()*(m.Height-2*botMapMargin))}
}

// pickWaypoint chooses a random open point that the bot can see from (x, y).
func (b *Bot) pickWaypoint(m *Map, x, y float64) {
	for try := 0; try < 20; try++ {
		p := b.randomPointInside(m)
		if m.Solid(p.X, p.Y, botWaypointClearance) {
			continue
		}
		if try < 15 && !m.LineOfSight(x, y, p.X, p.Y) {
			continue
		}
		b.waypoint, b.hasWaypoint = p, true
		return
	}
	b.waypoint = m.Spawns[b.rng.IntN(len(m.Spawns))]
	b.hasWaypoint = true
}

func turnTowards(cur, want, step float64) float64 {
	d := math.Remainder(want-cur, 2*math.Pi)
	if math.Abs(d) <= step {
		return want
	}
	return cur + math.Copysign(step, d)
}

func norm32(x, y float64) (float32, float32) {
	l := hypot(x, y)
	if l < 1e-9 {
		return 0, 0
	}
	return float32(x / l), float32(y / l)
}

// teammate reports whether h is on the bot's team (team deathmatch).
func (b *Bot) teammate(h Hitbox) bool { return b.Team.Playing() && h.Team == b.Team }

// nearestEnemy is the nearest live hitbox not on the bot's team (the
// first in hs of those as near). With q it asks the grid in squares that
// double from a cell until the nearest found is within the square's
// half-side (then every one as near is among those asked) or the square
// covers the map; q nil: all of hs.
func (b *Bot) nearestEnemy(hs []Hitbox, x, y float64, q *botQuery) (Hitbox, bool) {
	if q == nil {
		return b.nearestOf(hs, nil, x, y)
	}
	for d := float64(GridCell); ; d *= 2 {
		near, all := q.within(d)
		h, ok := b.nearestOf(hs, near, x, y)
		if all || (ok && hypot(h.X-x, h.Y-y) <= d) {
			return h, ok
		}
	}
}

// nearestOf is nearestEnemy among hs[near[k]] (near ascending; nil: all).
func (b *Bot) nearestOf(hs []Hitbox, near []int32, x, y float64) (Hitbox, bool) {
	best, ok := Hitbox{}, false
	bd := math.Inf(1)
	n := len(hs)
	if near != nil {
		n = len(near)
	}
	for k := 0; k < n; k++ {
		h := &hs[k]
		if near != nil {
			h = &hs[near[k]]
		}
		if d := hypot(h.X-x, h.Y-y); h.Alive && !b.teammate(*h) && d < bd {
			best, bd, ok = *h, d, true
		}
	}
	return best, ok
}

// pickWaypointTowards chooses, among a few random visible open points, the
// one nearest to (tx, ty).
func (b *Bot) pickWaypointTowards(m *Map, x, y, tx, ty float64) {
	best := math.Inf(1)
	for try := 0; try < 12; try++ {
		p := b.randomPointInside(m)
		if m.Solid(p.X, p.Y, botWaypointClearance) || !m.LineOfSight(x, y, p.X, p.Y) {
			continue
		}
		if d := hypot(p.X-tx, p.Y-ty); d < best {
			best, b.waypoint, b.hasWaypoint = d, p, true
		}
	}
}
