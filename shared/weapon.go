package shared

// WeaponKind says how a weapon's shots travel.
type WeaponKind uint8

const (
	// Hitscan weapons hit instantly along a ray; the server lag-compensates them.
	Hitscan WeaponKind = iota
	// Projectile weapons launch a simulated projectile; not lag-compensated
	// (Bernier 2001, footnote 9).
	Projectile
)

// WeaponDef describes one weapon. Times are in milliseconds and turned into
// ticks at the world's tick rate by Ticks.
type WeaponDef struct {
	Name        string
	Kind        WeaponKind
	Damage      int     // hit points per hit (direct hit for projectiles)
	IntervalMs  int     // minimum time between shots, ms
	MagSize     uint8   // rounds per magazine
	ReloadMs    int     // reload duration, ms
	SwitchMs    int     // time after drawing before the weapon can fire, ms
	Spread      float64 // maximum deviation from the aim, radians (uniform)
	Range       float64 // hitscan range, world units
	Speed       float64 // projectile speed, world units/s
	SplashRange float64 // projectile splash radius, world units
}

// NumWeapons is the number of weapons in Weapons.
const NumWeapons = 2

// Weapons is the weapon table, indexed by UserCmd.Weapon.
var Weapons = [NumWeapons]WeaponDef{
	{Name: "rifle", Kind: Hitscan, Damage: 25, IntervalMs: 140, MagSize: 20,
		ReloadMs: 1500, SwitchMs: 250, Spread: 0.02, Range: 1600},
	{Name: "rocket launcher", Kind: Projectile, Damage: 90, IntervalMs: 800, MagSize: 4,
		ReloadMs: 2200, SwitchMs: 400, Speed: 650, SplashRange: 110},
}

// Ticks converts a duration in ms to whole ticks at tickRate, rounding up.
func Ticks(ms int, tickRate int) uint16 {
	return uint16((ms*tickRate + 999) / 1000)
}

// ShotSeed derives the spread seed of a command from its command number, so
// that client and server draw the same spread (Half-Life's shared random seed).
func ShotSeed(commandNumber uint32) uint64 {
	x := uint64(commandNumber)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	x ^= x >> 30
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 27
	x *= 0x94D049BB133111EB
	x ^= x >> 31
	return x
}

// SpreadOffset maps a seed to an angle offset in [-spread, spread] radians.
func SpreadOffset(seed uint64, spread float64) float64 {
	// k/2^52 in [-1, 1), exactly (u*2-1 for u = (seed>>11)/2^53 in [0, 1)),
	// with no product the compiler could fuse into an add.
	k := int64(seed>>11) - 1<<52
	return float64(float64(k) / (1 << 52) * spread)
}

// Shot describes a weapon firing in one command.
type Shot struct {
	Weapon uint8
	// X, Y is the muzzle origin (the player's centre), world units.
	X, Y float64
	// DirX, DirY is the unit direction after spread.
	DirX, DirY float64
	// Angle is the direction in radians after spread.
	Angle float64
}

// ShotDir returns the unit direction of angle a in radians. It uses this
// package's Sincos, not math.Sincos, so that the direction is bit-exact on
// every target (math.Sincos may be compiled with fused multiply-add).
func ShotDir(a float64) (float64, float64) {
	s, c := Sincos(a)
	return c, s
}
