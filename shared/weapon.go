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
	// Pellets is the number of hitscan rays one shot fires, 1..MaxPellets
	// (0 counts as 1): Damage is per pellet, and the rays fan out over
	// [-Spread, Spread] (PelletOffset).
	Pellets int
}

// NumWeapons is the number of weapons in Weapons.
const NumWeapons = 3

// Weapon indices (UserCmd.Weapon, PlayerState.Weapon).
const (
	WeaponRifle   uint8 = 0
	WeaponRocket  uint8 = 1
	WeaponShotgun uint8 = 2
)

// MaxPellets is the most hitscan rays one shot of any weapon fires.
const MaxPellets = 8

// Weapons is the weapon table, indexed by UserCmd.Weapon.
var Weapons = [NumWeapons]WeaponDef{
	{Name: "rifle", Kind: Hitscan, Damage: 25, IntervalMs: 140, MagSize: 20,
		ReloadMs: 1500, SwitchMs: 250, Spread: 0.02, Range: 1600},
	{Name: "rocket launcher", Kind: Projectile, Damage: 90, IntervalMs: 800, MagSize: 4,
		ReloadMs: 2200, SwitchMs: 400, Speed: 650, SplashRange: 110},
	// The shotgun: 8 pellets of 15 over ±0.14 rad, all traced against one
	// rewind of the hitboxes (game.World.FireHitscan); deadly within a few
	// body lengths, harmless past its range.
	{Name: "shotgun", Kind: Hitscan, Damage: 15, IntervalMs: 800, MagSize: 5,
		ReloadMs: 2000, SwitchMs: 300, Spread: 0.14, Range: 720, Pellets: MaxPellets},
}

// Ticks converts a duration in ms to whole ticks at tickRate, rounding up.
func Ticks(ms int, tickRate int) uint16 {
	return uint16((ms*tickRate + 999) / 1000)
}

// ShotSeed derives the spread seed of a command from its command number, so
// that client and server draw the same spread (Half-Life's shared random seed).
func ShotSeed(commandNumber uint32) uint64 {
	return mix64(uint64(commandNumber)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019)
}

// mix64 is SplitMix64's output function (Steele, Lea and Flood 2014): an
// integer bijection that spreads every input bit over the output.
func mix64(x uint64) uint64 {
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

// PelletSeed derives the spread seed of pellet i (1..MaxPellets-1) of a
// shot from the shot's seed (ShotSeed): a SplitMix64 step, so that the
// pellets of one command are independent and pellet 0 keeps the shot's own
// seed (a one-pellet weapon draws exactly what it drew before pellets).
func PelletSeed(seed uint64, i int) uint64 {
	return mix64(seed + uint64(i)*0x9E3779B97F4A7C15)
}

// PelletOffset returns the angle offset, radians, of pellet i of n from a
// shot's aim with spread spread and seed seed (ShotSeed). One pellet
// deviates uniformly over [-spread, spread] (SpreadOffset). Several are
// stratified, as a shotgun's pattern: the spread is cut into n equal
// slices and pellet i falls uniformly within slice i (its seed
// PelletSeed(seed, i)), so that the pattern always covers the cone yet
// differs from shot to shot.
func PelletOffset(seed uint64, i, n int, spread float64) float64 {
	if n <= 1 {
		return SpreadOffset(seed, spread)
	}
	if i > 0 {
		seed = PelletSeed(seed, i)
	}
	slice := spread / float64(n) // half a slice's width
	centre := -spread + float64(float64(2*i+1)*slice)
	return centre + SpreadOffset(seed, slice)
}

// Ray is one hitscan ray of a shot: its unit direction and angle after spread.
type Ray struct {
	DirX, DirY float64
	Angle      float64
}

// Shot describes a weapon firing in one command.
type Shot struct {
	Weapon uint8
	// X, Y is the muzzle origin (the player's centre), world units.
	X, Y float64
	// DirX, DirY is the unit direction after spread of the first (for
	// most weapons the only) ray.
	DirX, DirY float64
	// Angle is the direction in radians after spread of the first ray.
	Angle float64
	// Pellets is the number of rays, 1..MaxPellets (WeaponDef.Pellets); 0
	// in a Shot built by hand counts as 1. Ray(i) returns each.
	Pellets uint8
	// more holds rays 1..Pellets-1.
	more [MaxPellets - 1]Ray
}

// NumRays returns the number of rays the shot fires (at least 1).
func (s *Shot) NumRays() int { return max(int(s.Pellets), 1) }

// Ray returns ray i, 0 <= i < NumRays().
func (s *Shot) Ray(i int) Ray {
	if i == 0 {
		return Ray{DirX: s.DirX, DirY: s.DirY, Angle: s.Angle}
	}
	return s.more[i-1]
}

// ShotFromFirstRay returns the shot of weapon wi fired by command number
// cmdNum from (x, y) whose ray 0 went at angle a0 (radians): the aim is a0
// less ray 0's offset, and every ray follows from it (newShot). A client
// draws another player's shotgun pellets with it from the one EvShot the
// server sends (its trace end gives a0, its Cmd cmdNum); a0 from a
// fixed-point end point is approximate, so the rays are for drawing only.
func ShotFromFirstRay(wi uint8, x, y, a0 float64, cmdNum uint32) Shot {
	def := &Weapons[wi]
	n := min(max(def.Pellets, 1), MaxPellets)
	return newShot(wi, x, y, a0-PelletOffset(ShotSeed(cmdNum), 0, n, def.Spread), cmdNum)
}

// newShot is the shot of weapon wi from (x, y) aimed at aim (radians) by
// command number cmdNum: each ray's direction after its seeded spread
// (PelletOffset).
func newShot(wi uint8, x, y float64, aim float64, cmdNum uint32) Shot {
	def := &Weapons[wi]
	n := min(max(def.Pellets, 1), MaxPellets)
	seed := ShotSeed(cmdNum)
	sh := Shot{Weapon: wi, X: x, Y: y, Pellets: uint8(n)}
	for i := 0; i < n; i++ {
		a := aim + PelletOffset(seed, i, n, def.Spread)
		dx, dy := ShotDir(a)
		if i == 0 {
			sh.DirX, sh.DirY, sh.Angle = dx, dy, a
		} else {
			sh.more[i-1] = Ray{DirX: dx, DirY: dy, Angle: a}
		}
	}
	return sh
}

// ShotDir returns the unit direction of angle a in radians. It uses this
// package's Sincos, not math.Sincos, so that the direction is bit-exact on
// every target (math.Sincos may be compiled with fused multiply-add).
func ShotDir(a float64) (float64, float64) {
	s, c := Sincos(a)
	return c, s
}
