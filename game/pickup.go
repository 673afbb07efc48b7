package game

import (
	"fmt"
	"math"

	"github.com/lafriks/go-tiled"

	"tickshot/shared"
)

// Pickups: items placed on the map (the object layer "pickups" of a .tmx,
// docs/MAPS.md) that a live player takes by walking over them, as Quake's
// items (g_items.c: Touch_Item, RespawnItem). The server decides who takes
// one, in command order: the first command of a tick whose player ends
// within PickupReach of a present pickup it can use takes it (World.RunCommand
// calls Stock.touch after each command). A taken pickup comes back
// RespawnMs later (Stock.step, in World.Step). The client predicts its own
// takes with CanTake and ApplyState (client/netclient/pickups.go).

// PickupKind says what a pickup gives.
type PickupKind uint8

// Pickup kinds (their wire values, docs/PROTOCOL.md §5.15).
const (
	PickupHealth  PickupKind = 1 // HealthAmount hit points, up to MaxHealth
	PickupArmour  PickupKind = 2 // ArmourAmount armour, up to MaxArmour
	PickupRockets PickupKind = 3 // a magazine of rockets on top of the one loaded, up to two
	PickupDamage  PickupKind = 4 // double damage for DoubleDamageMs
	// MaxPickupKind is the highest valid kind.
	MaxPickupKind = PickupDamage
)

// Pickup amounts and limits, in hit points, armour points, percent and ms.
const (
	HealthAmount = 25
	ArmourAmount = 50
	MaxArmour    = 100
	// ArmourAbsorbPct is the share of each hit's damage armour takes
	// instead of health, percent, while armour lasts (Quake's green armour
	// takes a third, yellow two thirds).
	ArmourAbsorbPct = 50
	// DoubleDamageMs is how long the double-damage power-up lasts, ms.
	DoubleDamageMs = 15000
	// PickupReach is how near a player's centre must come to a pickup's to
	// take it, world units: the body's radius and the item's.
	PickupReach = shared.PlayerRadius + 12
)

// pickupDef is one kind's name (its Tiled object class) and respawn time.
type pickupDef struct {
	name      string
	respawnMs int
}

// pickupDefs is indexed by PickupKind (index 0 unused).
var pickupDefs = [MaxPickupKind + 1]pickupDef{
	PickupHealth:  {"health", 15000},
	PickupArmour:  {"armour", 20000},
	PickupRockets: {"rockets", 15000},
	PickupDamage:  {"damage", 45000},
}

// String is the kind's name ("health", "armour", "rockets", "damage").
func (k PickupKind) String() string {
	if k == 0 || k > MaxPickupKind {
		return fmt.Sprintf("pickup(%d)", uint8(k))
	}
	return pickupDefs[k].name
}

// RespawnTicks is how long a pickup of kind k stays away once taken, in
// ticks at tickRate.
func (k PickupKind) RespawnTicks(tickRate int) uint32 {
	return uint32(shared.Ticks(pickupDefs[k].respawnMs, tickRate))
}

// PickupSpot is where a map places a pickup, and which.
type PickupSpot struct {
	Kind PickupKind
	At   Point
}

// Pickup is one of the map's pickups in play.
type Pickup struct {
	// ID is 1 + the spot's index in Map.Pickups: stable for the map.
	ID   uint16
	Kind PickupKind
	X, Y float64 // world units
	// RespawnTick is the tick it comes back; 0 while it is there to take.
	RespawnTick uint32
	// Taker is the player who took it last (0: nobody yet).
	Taker uint16
}

// Present reports whether the pickup is there to take.
func (pk *Pickup) Present() bool { return pk.RespawnTick == 0 }

// Stock owns the pickups of the world's map: their state, takes and
// respawns. A match start (and so a map change) puts every pickup back.
type Stock struct {
	// Pickups are in map order (ID 1, 2, ...).
	Pickups []Pickup
}

// reset puts m's pickups in play, all present.
func (s *Stock) reset(m *Map) {
	s.Pickups = s.Pickups[:0]
	for i, sp := range m.Pickups {
		s.Pickups = append(s.Pickups, Pickup{ID: uint16(i + 1), Kind: sp.Kind, X: sp.At.X, Y: sp.At.Y})
	}
}

// touch gives p every present pickup within PickupReach that it can use
// (CanTake), after its command: the first command to get there takes it.
func (s *Stock) touch(w *World, p *Player) {
	if !p.Alive() {
		return
	}
	for i := range s.Pickups {
		pk := &s.Pickups[i]
		if !pk.Present() || !Touches(p.State.X, p.State.Y, pk.X, pk.Y) || !CanTake(pk.Kind, p.Health, p.Armour, p.State) {
			continue
		}
		pk.RespawnTick, pk.Taker = w.Tick+pk.Kind.RespawnTicks(w.TickRate), p.ID
		p.take(pk.Kind, w.Tick, w.TickRate)
	}
}

// step brings back the pickups whose respawn tick has come.
func (s *Stock) step(w *World) {
	for i := range s.Pickups {
		if pk := &s.Pickups[i]; !pk.Present() && w.Tick >= pk.RespawnTick {
			pk.RespawnTick = 0
		}
	}
}

// Touches reports whether a player centred at (px, py) reaches a pickup at
// (x, y): nearer than PickupReach. Bit-exact on every target (no product
// left to fuse).
func Touches(px, py, x, y float64) bool {
	dx, dy := px-x, py-y
	return float64(dx*dx)+float64(dy*dy) < float64(PickupReach*PickupReach)
}

// CanTake reports whether a live player with health, armour and state
// would take a pickup of kind k: health below MaxHealth, armour below
// MaxArmour, fewer than two magazines of rockets; double damage always.
func CanTake(k PickupKind, health, armour int, st shared.PlayerState) bool {
	switch k {
	case PickupHealth:
		return health < MaxHealth
	case PickupArmour:
		return armour < MaxArmour
	case PickupRockets:
		w := rocketWeapon()
		return w >= 0 && st.Ammo[w] < 2*shared.Weapons[w].MagSize
	case PickupDamage:
		return true
	}
	return false
}

// ApplyState applies the part of a pickup of kind k that lives in the
// predicted state (the rockets) to st; the client's prediction runs it
// after the command that took the pickup, as the server does.
func ApplyState(k PickupKind, st *shared.PlayerState) {
	if w := rocketWeapon(); k == PickupRockets && w >= 0 {
		mag := shared.Weapons[w].MagSize
		st.Ammo[w] = min(st.Ammo[w]+mag, 2*mag)
	}
}

// rocketWeapon is the index of the first projectile weapon (-1: none).
func rocketWeapon() int {
	for i := range shared.Weapons {
		if shared.Weapons[i].Kind == shared.Projectile {
			return i
		}
	}
	return -1
}

// take gives p what a pickup of kind k holds, at tick.
func (p *Player) take(k PickupKind, tick uint32, tickRate int) {
	switch k {
	case PickupHealth:
		p.Health = min(p.Health+HealthAmount, MaxHealth)
	case PickupArmour:
		p.Armour = min(p.Armour+ArmourAmount, MaxArmour)
	case PickupDamage:
		p.PowerUntil = tick + uint32(shared.Ticks(DoubleDamageMs, tickRate))
	}
	ApplyState(k, &p.State)
}

// Powered reports whether p's double damage holds at tick.
func (p *Player) Powered(tick uint32) bool { return p.Alive() && tick < p.PowerUntil }

// boosted is amount hit points of damage dealt by attacker at tick:
// doubled while its double damage holds.
func boosted(attacker *Player, amount int, tick uint32) int {
	if attacker != nil && attacker.Powered(tick) {
		return 2 * amount
	}
	return amount
}

// absorb takes ArmourAbsorbPct of amount from p's armour, as far as it
// goes, and returns what is left for its health.
func (p *Player) absorb(amount int) int {
	a := min(amount*ArmourAbsorbPct/100, p.Armour)
	p.Armour -= a
	return amount - a
}

// healthSpots appends to dst where health pickups are there to take.
func (s *Stock) healthSpots(dst []Point) []Point {
	for _, pk := range s.Pickups {
		if pk.Kind == PickupHealth && pk.Present() {
			dst = append(dst, Point{pk.X, pk.Y})
		}
	}
	return dst
}

// botSeekHealth: with less health a bot out of a fight heads for health.
const botSeekHealth = 60

// seekHealth makes a bot at (x, y) with health hit points, hurt and out of
// a fight, head for the nearest health pickup in its line of sight
// (Bot.Heal): that becomes its waypoint.
func (b *Bot) seekHealth(m *Map, x, y float64, health int) {
	if health >= botSeekHealth {
		return
	}
	best := math.Inf(1)
	for _, h := range b.Heal {
		if d := hypot(h.X-x, h.Y-y); d < best && m.LineOfSight(x, y, h.X, h.Y) {
			best, b.waypoint, b.hasWaypoint, b.hunting = d, h, true, false
		}
	}
}

// loadPickups reads the object layer "pickups" of a Tiled map: point
// objects whose class is a kind's name.
func loadPickups(name string, g *tiled.ObjectGroup) ([]PickupSpot, error) {
	var spots []PickupSpot
	for _, o := range g.Objects {
		k := PickupKind(0)
		for i := PickupHealth; i <= MaxPickupKind; i++ {
			if pickupDefs[i].name == o.Class {
				k = i
			}
		}
		if k == 0 {
			return nil, fmt.Errorf("map %q: pickup object %d has class %q (want health, armour, rockets or damage)", name, o.ID, o.Class)
		}
		spots = append(spots, PickupSpot{Kind: k, At: Point{o.X, o.Y}})
	}
	if len(spots) > MaxPickups {
		return nil, fmt.Errorf("map %q: %d pickups, limit %d", name, len(spots), MaxPickups)
	}
	return spots, nil
}

// MaxPickups is the most pickups a map may place (the wire's limit too).
const MaxPickups = 64
