package game

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"tickshot/shared"
)

func loadArenaT(t *testing.T) *Map {
	t.Helper()
	m, err := LoadMap("arena")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMapLoads(t *testing.T) {
	m := loadArenaT(t)
	if m.Name != "arena" || m.Title == "" {
		t.Errorf("name %q title %q", m.Name, m.Title)
	}
	if m.Width <= 0 || m.Height <= 0 {
		t.Fatalf("size %v x %v", m.Width, m.Height)
	}
	if len(m.Walls) < 4 || len(m.Spawns) < 2 {
		t.Fatalf("%d walls, %d spawns", len(m.Walls), len(m.Spawns))
	}
	for i, w := range m.Walls {
		if !(w.MinX < w.MaxX && w.MinY < w.MaxY) {
			t.Errorf("wall %d is empty or inverted: %+v", i, w)
		}
		if w.MinX < 0 || w.MinY < 0 || w.MaxX > m.Width || w.MaxY > m.Height {
			t.Errorf("wall %d %+v outside the map %vx%v", i, w, m.Width, m.Height)
		}
	}
	seen := map[Point]bool{}
	for i, s := range m.Spawns {
		if s.X <= 0 || s.Y <= 0 || s.X >= m.Width || s.Y >= m.Height {
			t.Errorf("spawn %d %+v outside the map", i, s)
		}
		if m.Solid(s.X, s.Y, shared.PlayerRadius) {
			t.Errorf("spawn %d %+v overlaps a wall", i, s)
		}
		if seen[s] {
			t.Errorf("spawn %d %+v duplicated", i, s)
		}
		seen[s] = true
		// The arena is closed: every line from a spawn out of the map crosses a wall.
		for _, out := range []Point{{-50, s.Y}, {m.Width + 50, s.Y}, {s.X, -50}, {s.X, m.Height + 50}} {
			if m.LineOfSight(s.X, s.Y, out.X, out.Y) {
				t.Errorf("spawn %d %+v sees out of the map to %+v", i, s, out)
			}
		}
	}
	// Solid agrees with the wall list.
	w := m.Walls[len(m.Walls)-1]
	cx, cy := (w.MinX+w.MaxX)/2, (w.MinY+w.MaxY)/2
	if !m.Solid(cx, cy, 1) {
		t.Errorf("centre of wall %+v not solid", w)
	}
	if m.Solid(w.MaxX+10, cy, 9.9) || !m.Solid(w.MaxX+10, cy, 10.1) {
		t.Errorf("Solid does not measure the distance to wall %+v", w)
	}
	// World carries the walls and the tick rate.
	wd := m.World(64)
	if wd.TickRate != 64 || len(wd.Walls) != len(m.Walls) {
		t.Errorf("World(64) = %d walls at %d", len(wd.Walls), wd.TickRate)
	}
	// The default map.
	if d, err := LoadMap(""); err != nil || d.Name != DefaultMap {
		t.Errorf("LoadMap(\"\") = %v, %v", d, err)
	}
}

func TestLoadMapUnknownListsAvailable(t *testing.T) {
	names := MapNames()
	if len(names) == 0 || names[0] == "" {
		t.Fatalf("MapNames = %v", names)
	}
	found := false
	for _, n := range names {
		found = found || n == "arena"
	}
	if !found {
		t.Errorf("MapNames %v lacks arena", names)
	}
	m, err := LoadMap("no_such_map")
	if err == nil {
		t.Fatalf("LoadMap of an unknown map returned %v", m)
	}
	msg := err.Error()
	if !strings.Contains(msg, "no_such_map") {
		t.Errorf("error %q does not name the map", msg)
	}
	for _, n := range names {
		if !strings.Contains(msg, n) {
			t.Errorf("error %q does not list available map %q", msg, n)
		}
	}
	for _, bad := range []string{"../arena", "maps/arena", "arena.tmx"} {
		if _, err := LoadMap(bad); err == nil {
			t.Errorf("LoadMap(%q) succeeded", bad)
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestTraceShotWallBlocks(t *testing.T) {
	m := loadArenaT(t)
	// The central pillar spans x 960..1088, y 704..832.
	var pillar shared.Box
	for _, w := range m.Walls {
		if w.MinX <= 1024 && 1024 <= w.MaxX && w.MinY <= 768 && 768 <= w.MaxY {
			pillar = w
		}
	}
	if pillar.MaxX == 0 {
		t.Fatal("no wall at the map centre")
	}
	y := (pillar.MinY + pillar.MaxY) / 2
	shooter := Point{pillar.MinX - 60, y}
	target := Hitbox{ID: 2, X: pillar.MaxX + 60, Y: y, R: shared.PlayerRadius, Alive: true}
	res := TraceShot(m, shooter.X, shooter.Y, 1, 0, 1600, []Hitbox{target}, 1)
	if res.Hit != -1 {
		t.Errorf("hit %d through the wall", res.Hit)
	}
	if !near(res.EndX, pillar.MinX) || !near(res.EndY, y) {
		t.Errorf("shot ended at (%v, %v), want the wall face (%v, %v)", res.EndX, res.EndY, pillar.MinX, y)
	}
	// Control: from the target's side of the wall the same target is hit.
	res = TraceShot(m, pillar.MaxX+200, y, -1, 0, 1600, []Hitbox{target}, 1)
	if res.Hit != 0 || !near(res.EndX, target.X+target.R) {
		t.Errorf("clear shot: %+v, want hit 0 at x=%v", res, target.X+target.R)
	}
	// Out of range: the shot stops at its range.
	res = TraceShot(m, pillar.MaxX+200, y, -1, 0, 100, []Hitbox{target}, 1)
	if res.Hit != -1 || !near(res.EndX, pillar.MaxX+100) {
		t.Errorf("short shot: %+v, want a miss ending at x=%v", res, pillar.MaxX+100)
	}
}

func TestTraceShotNearestSkipSelfIgnoreDead(t *testing.T) {
	m := loadArenaT(t)
	const y = 768.0 // open corridor along the west wall: x 32..576
	if !m.LineOfSight(60, y, 560, y) {
		t.Fatal("test corridor is not open")
	}
	self := Hitbox{ID: 7, X: 100, Y: y, R: shared.PlayerRadius, Alive: true}
	far := Hitbox{ID: 8, X: 450, Y: y, R: shared.PlayerRadius, Alive: true}
	nearB := Hitbox{ID: 9, X: 300, Y: y + 5, R: shared.PlayerRadius, Alive: true}

	// Nearest of two, whichever order they come in.
	for _, order := range [][]Hitbox{{far, nearB}, {nearB, far}} {
		res := TraceShot(m, self.X, self.Y, 1, 0, 1600, order, self.ID)
		if res.Hit < 0 || order[res.Hit].ID != nearB.ID {
			t.Errorf("order %v: hit %d, want the nearer target", []uint16{order[0].ID, order[1].ID}, res.Hit)
		}
		wantX := nearB.X - math.Sqrt(nearB.R*nearB.R-25)
		if !near(res.EndX, wantX) {
			t.Errorf("hit at x=%v, want %v", res.EndX, wantX)
		}
	}

	// The shooter's own hitbox (the ray starts inside it) is skipped...
	boxes := []Hitbox{self, far, nearB}
	if res := TraceShot(m, self.X, self.Y, 1, 0, 1600, boxes, self.ID); res.Hit != 2 {
		t.Errorf("with skip: hit %d, want 2", res.Hit)
	}
	// ...and would be hit at distance 0 if not skipped.
	if res := TraceShot(m, self.X, self.Y, 1, 0, 1600, boxes, 999); res.Hit != 0 || res.EndX != self.X {
		t.Errorf("without skip: %+v, want the shooter at distance 0", res)
	}

	// Dead hitboxes are ignored.
	deadNear := nearB
	deadNear.Alive = false
	if res := TraceShot(m, self.X, self.Y, 1, 0, 1600, []Hitbox{self, deadNear, far}, self.ID); res.Hit != 2 {
		t.Errorf("dead in front: hit %d, want 2 (the live one behind)", res.Hit)
	}
	deadFar := far
	deadFar.Alive = false
	if res := TraceShot(m, self.X, self.Y, 1, 0, 1600, []Hitbox{deadNear, deadFar}, self.ID); res.Hit != -1 {
		t.Errorf("all dead: hit %d", res.Hit)
	}

	// A target behind the shooter is not hit.
	if res := TraceShot(m, self.X, self.Y, -1, 0, 1600, []Hitbox{far, nearB}, self.ID); res.Hit != -1 {
		t.Errorf("shooting away: hit %d", res.Hit)
	}
}

func TestRayCircle(t *testing.T) {
	cases := []struct {
		name         string
		x, y, dx, dy float64
		cx, cy, r    float64
		wantOK       bool
		wantT        float64
	}{
		{"head on", 0, 0, 1, 0, 10, 0, 2, true, 8},
		{"off centre 3-4-5", 0, 0, 1, 0, 10, 3, 5, true, 6},
		{"tangent", 0, 0, 1, 0, 10, 5, 5, true, 10},
		{"miss", 0, 0, 1, 0, 10, 6, 5, false, 0},
		{"behind", 0, 0, 1, 0, -10, 0, 2, false, 0},
		{"starts inside", 0, 0, 1, 0, 1, 0, 5, true, 0},
		{"diagonal", 1, 1, math.Sqrt2 / 2, math.Sqrt2 / 2, 11, 11, math.Sqrt2, true, 10*math.Sqrt2 - math.Sqrt2},
		{"vertical up", 5, 100, 0, -1, 5, 40, 10, true, 50},
	}
	for _, c := range cases {
		got, ok := RayCircle(c.x, c.y, c.dx, c.dy, c.cx, c.cy, c.r)
		if ok != c.wantOK || (ok && !near(got, c.wantT)) {
			t.Errorf("%s: RayCircle = %v, %v; want %v, %v", c.name, got, ok, c.wantT, c.wantOK)
		}
	}
	// Property: a hit lies on the circle and no earlier point is inside it;
	// a miss never comes within r.
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		a := r.Float64() * 2 * math.Pi
		dx, dy := math.Cos(a), math.Sin(a)
		x, y := r.Float64()*200-100, r.Float64()*200-100
		cx, cy, rad := r.Float64()*200-100, r.Float64()*200-100, 1+r.Float64()*30
		tt, ok := RayCircle(x, y, dx, dy, cx, cy, rad)
		// Closest approach of the ray (t >= 0) to the centre.
		tc := math.Max(0, (cx-x)*dx+(cy-y)*dy)
		closest := math.Hypot(x+dx*tc-cx, y+dy*tc-cy)
		inside := math.Hypot(x-cx, y-cy) <= rad
		switch {
		case !ok:
			if closest < rad-1e-9 {
				t.Fatalf("case %d: miss but the ray passes %v from the centre (r %v)", i, closest, rad)
			}
		case inside:
			if tt != 0 {
				t.Fatalf("case %d: starts inside, t=%v", i, tt)
			}
		default:
			if tt < 0 || math.Abs(math.Hypot(x+dx*tt-cx, y+dy*tt-cy)-rad) > 1e-6 {
				t.Fatalf("case %d: t=%v is not on the circle", i, tt)
			}
			if tt > tc+1e-9 {
				t.Fatalf("case %d: t=%v is the exit, not the entry (closest at %v)", i, tt, tc)
			}
		}
	}
	if d := DistToRay(0, 0, 1, 0, 5, -3); d != 3 {
		t.Errorf("DistToRay = %v, want 3", d)
	}
}

func TestDamageKillsOnceAndSchedulesRespawn(t *testing.T) {
	for _, tr := range []int{20, 64, 128} {
		p := &Player{ID: 1}
		p.Spawn(Point{100, 200})
		deaths := p.Deaths
		dmg := shared.Weapons[0].Damage
		hits := (MaxHealth + dmg - 1) / dmg
		for i := 1; i < hits; i++ {
			if p.Damage(dmg, uint32(1000+i), tr) {
				t.Fatalf("rate %d: killed by hit %d of %d", tr, i, hits)
			}
			if p.Health != MaxHealth-i*dmg || !p.Alive() {
				t.Fatalf("rate %d: after %d hits health %d alive %v", tr, i, p.Health, p.Alive())
			}
		}
		const tick = 5000
		if !p.Damage(dmg, tick, tr) {
			t.Fatalf("rate %d: hit %d did not kill (health %d)", tr, hits, p.Health)
		}
		if p.Health != 0 || p.Alive() || !p.State.Dead || p.Deaths != deaths+1 {
			t.Errorf("rate %d: after the kill health %d alive %v deaths %d", tr, p.Health, p.Alive(), p.Deaths)
		}
		if want := tick + uint32(shared.Ticks(RespawnDelayMs, tr)); p.RespawnTick != want {
			t.Errorf("rate %d: respawn at %d, want %d", tr, p.RespawnTick, want)
		}
		if p.State.VX != 0 || p.State.VY != 0 {
			t.Errorf("rate %d: dead player keeps velocity", tr)
		}
		// Dead players cannot be killed again.
		respawn := p.RespawnTick
		for i := 0; i < 3; i++ {
			if p.Damage(dmg, tick+10, tr) {
				t.Errorf("rate %d: killed again", tr)
			}
		}
		if p.Deaths != deaths+1 || p.Health != 0 || p.RespawnTick != respawn {
			t.Errorf("rate %d: damage to the dead changed deaths %d health %d respawn %d", tr, p.Deaths, p.Health, p.RespawnTick)
		}
		// Respawn: alive, full health, full magazine, at the point, teleport flag bumped.
		tp := p.Teleport
		p.State.Ammo[0] = 0
		p.Spawn(Point{300, 400})
		if !p.Alive() || p.Health != MaxHealth || p.State.X != 300 || p.State.Y != 400 ||
			p.State.Ammo[0] != shared.Weapons[0].MagSize || p.Teleport != tp+1 {
			t.Errorf("rate %d: after Spawn %+v health %d teleport %d", tr, p.State, p.Health, p.Teleport)
		}
	}
}

func TestDamageExactAndOverkill(t *testing.T) {
	p := &Player{}
	p.Spawn(Point{100, 100})
	if p.Damage(0, 1, 64) || p.Damage(-5, 1, 64) || p.Health != MaxHealth {
		t.Errorf("zero or negative damage changed health to %d", p.Health)
	}
	if p.Damage(MaxHealth-1, 1, 64) || p.Health != 1 {
		t.Fatalf("one short of death: health %d", p.Health)
	}
	if !p.Damage(1, 2, 64) || p.Health != 0 {
		t.Errorf("exactly to 0: not killed, health %d", p.Health)
	}
	q := &Player{}
	q.Spawn(Point{100, 100})
	if !q.Damage(10*MaxHealth, 3, 64) || q.Health != 0 {
		t.Errorf("overkill: health %d, want clamped to 0", q.Health)
	}
}

func TestChooseSpawnFarthestFromEnemies(t *testing.T) {
	m := loadArenaT(t)
	// Enemies on every spawn but one: that one is the only choice.
	for k := range m.Spawns {
		var enemies []Point
		for i, s := range m.Spawns {
			if i != k {
				enemies = append(enemies, s)
			}
		}
		rng := rand.New(rand.NewPCG(uint64(k), 3))
		for j := 0; j < 20; j++ {
			if got := m.ChooseSpawn(enemies, -1, rng); got != k {
				t.Fatalf("enemies on all spawns but %d: chose %d", k, got)
			}
		}
	}
	// With random enemies the choice is within 10% of the best distance
	// among the spawns out of every enemy's sight (all spawns when none is),
	// and equal seeds give equal choices.
	r := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 200; i++ {
		var enemies []Point
		for j := 0; j < 1+r.IntN(5); j++ {
			enemies = append(enemies, Point{r.Float64() * m.Width, r.Float64() * m.Height})
		}
		dist := func(p Point) float64 {
			d := math.Inf(1)
			for _, e := range enemies {
				d = math.Min(d, math.Hypot(e.X-p.X, e.Y-p.Y))
			}
			return d
		}
		pool := spawnsOutOfSight(m, enemies)
		if len(pool) == 0 {
			pool = m.Spawns
		}
		best := 0.0
		for _, s := range pool {
			best = math.Max(best, dist(s))
		}
		seed := uint64(i)
		ai := m.ChooseSpawn(enemies, -1, rand.New(rand.NewPCG(seed, 1)))
		bi := m.ChooseSpawn(enemies, -1, rand.New(rand.NewPCG(seed, 1)))
		if ai != bi {
			t.Fatalf("same seed, different spawns: %d vs %d", ai, bi)
		}
		a := m.Spawns[ai]
		if dist(a) < 0.9*best-1e-9 {
			t.Fatalf("chose %+v at %v from enemies, best is %v", a, dist(a), best)
		}
	}
	// Without enemies every spawn is possible.
	rng := rand.New(rand.NewPCG(11, 11))
	seen := map[Point]bool{}
	for i := 0; i < 50*len(m.Spawns); i++ {
		seen[m.Spawns[m.ChooseSpawn(nil, -1, rng)]] = true
	}
	if len(seen) != len(m.Spawns) {
		t.Errorf("without enemies only %d of %d spawns were chosen", len(seen), len(m.Spawns))
	}
}

// botSim plays one bot against two scripted enemies for n ticks, moving the
// bot with shared.RunCommand, and returns every input it chose.
func botSim(m *Map, seed uint64, tickRate, n int) []BotInput {
	b := NewBot(seed)
	w := m.World(tickRate)
	self := shared.NewPlayerState(m.Spawns[0].X, m.Spawns[0].Y)
	health := MaxHealth
	out := make([]BotInput, 0, n)
	for i := 0; i < n; i++ {
		// Enemies walk slow circles around two spawns.
		ph := float64(i) / float64(tickRate)
		enemies := []Hitbox{
			{ID: 2, X: m.Spawns[6].X + 40*math.Cos(ph), Y: m.Spawns[6].Y + 40*math.Sin(ph), R: shared.PlayerRadius, Alive: true},
			{ID: 3, X: m.Spawns[9].X + 40*math.Cos(-ph), Y: m.Spawns[9].Y + 40*math.Sin(-ph), R: shared.PlayerRadius, Alive: i%400 < 300},
		}
		if i == n/2 {
			health = 30 // hurt: the bot should back off
		}
		in := b.Think(m, tickRate, self, health, enemies)
		out = append(out, in)
		cmd := shared.UserCmd{CommandNumber: uint32(i + 1), MoveX: in.MoveX, MoveY: in.MoveY, ViewAngle: in.Angle, Buttons: in.Buttons}
		self, _ = shared.RunCommand(self, cmd, w)
	}
	return out
}

func TestBotDeterministicAndBounded(t *testing.T) {
	m := loadArenaT(t)
	for _, tr := range []int{20, 64} {
		n := 60 * tr
		a := botSim(m, 42, tr, n)
		b := botSim(m, 42, tr, n)
		c := botSim(m, 43, tr, n)
		differ, attacks, moving := false, 0, 0
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("rate %d tick %d: equal seeds, different input %+v vs %+v", tr, i, a[i], b[i])
			}
			if a[i] != c[i] {
				differ = true
			}
			in := a[i]
			for _, v := range []float32{in.MoveX, in.MoveY} {
				if !(v >= -1 && v <= 1) {
					t.Fatalf("rate %d tick %d: axis %v outside [-1, 1]", tr, i, v)
				}
			}
			if !(in.Angle >= -math.Pi && in.Angle <= math.Pi) {
				t.Fatalf("rate %d tick %d: angle %v outside [-pi, pi]", tr, i, in.Angle)
			}
			if in.Buttons&^shared.ButtonsValid != 0 {
				t.Fatalf("rate %d tick %d: invalid buttons %#x", tr, i, in.Buttons)
			}
			if in.Buttons&shared.ButtonAttack != 0 {
				attacks++
			}
			if in.MoveX != 0 || in.MoveY != 0 {
				moving++
			}
		}
		if !differ {
			t.Errorf("rate %d: seeds 42 and 43 played identically", tr)
		}
		if moving < n/2 {
			t.Errorf("rate %d: the bot moved in only %d of %d ticks", tr, moving, n)
		}
		t.Logf("rate %d: %d attacks, %d moving of %d ticks", tr, attacks, moving, n)
	}
}

func TestBotAttacksVisibleEnemyOnly(t *testing.T) {
	m := loadArenaT(t)
	for _, tr := range []int{20, 64} {
		// Visible: down the open corridor by the west wall.
		self := shared.NewPlayerState(100, 768)
		enemy := Hitbox{ID: 5, X: 400, Y: 768, R: shared.PlayerRadius, Alive: true}
		if !m.LineOfSight(self.X, self.Y, enemy.X, enemy.Y) {
			t.Fatal("setup: enemy not visible")
		}
		b := NewBot(1)
		first := -1
		for i := 0; i < 5*tr && first < 0; i++ {
			in := b.Think(m, tr, self, MaxHealth, []Hitbox{enemy})
			if in.Buttons&shared.ButtonAttack != 0 {
				first = i
				want := math.Atan2(enemy.Y-self.Y, enemy.X-self.X)
				if d := math.Abs(math.Remainder(float64(in.Angle)-want, 2*math.Pi)); d > 0.1 {
					t.Errorf("rate %d: fired %v rad off the enemy", tr, d)
				}
			}
		}
		if first < 0 {
			t.Errorf("rate %d: no attack within 5 s of seeing an enemy", tr)
		} else if first < tr/4 {
			t.Errorf("rate %d: attacked after %d ticks, before the reaction time", tr, first)
		}

		// A newly seen enemy is turned towards gradually during the reaction
		// time, not snapped to.
		self = shared.NewPlayerState(100, 300)
		below := Hitbox{ID: 6, X: 100, Y: 700, R: shared.PlayerRadius, Alive: true}
		if !m.LineOfSight(self.X, self.Y, below.X, below.Y) {
			t.Fatal("setup: enemy below not visible")
		}
		b = NewBot(1)
		prev := float64(b.Think(m, tr, self, MaxHealth, nil).Angle) // roaming, sets the aim
		for i := 0; i < tr/4; i++ {
			in := b.Think(m, tr, self, MaxHealth, []Hitbox{below})
			if d := math.Abs(math.Remainder(float64(in.Angle)-prev, 2*math.Pi)); d > 0.15+1e-6 {
				t.Fatalf("rate %d tick %d: aim jumped %v rad during the reaction time", tr, i, d)
			}
			prev = float64(in.Angle)
		}

		// Hidden behind the central pillar: never attacks.
		self = shared.NewPlayerState(900, 768)
		hidden := Hitbox{ID: 5, X: 1150, Y: 768, R: shared.PlayerRadius, Alive: true}
		if m.LineOfSight(self.X, self.Y, hidden.X, hidden.Y) {
			t.Fatal("setup: hidden enemy is visible")
		}
		b = NewBot(1)
		for i := 0; i < 5*tr; i++ {
			if in := b.Think(m, tr, self, MaxHealth, []Hitbox{hidden}); in.Buttons&shared.ButtonAttack != 0 {
				t.Fatalf("rate %d tick %d: attacked an enemy behind a wall", tr, i)
			}
		}
		// A dead enemy in plain sight is not attacked either.
		dead := enemy
		dead.Alive = false
		self = shared.NewPlayerState(100, 768)
		b = NewBot(1)
		for i := 0; i < 5*tr; i++ {
			if in := b.Think(m, tr, self, MaxHealth, []Hitbox{dead}); in.Buttons&shared.ButtonAttack != 0 {
				t.Fatalf("rate %d tick %d: attacked a dead enemy", tr, i)
			}
		}
		// A dead bot does nothing.
		deadSelf := self
		deadSelf.Dead = true
		if in := b.Think(m, tr, deadSelf, 0, []Hitbox{enemy}); in != (BotInput{}) {
			t.Errorf("rate %d: dead bot input %+v", tr, in)
		}
	}
}

// losCase is a map and 1024 random segments across it, for the benchmarks.
func losCase(b *testing.B) (*Map, [][4]float64) {
	m, err := LoadMap("arena")
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	pts := make([][4]float64, 1024)
	for i := range pts {
		pts[i] = [4]float64{rng.Float64() * m.Width, rng.Float64() * m.Height, rng.Float64() * m.Width, rng.Float64() * m.Height}
	}
	b.ReportAllocs()
	return m, pts
}

func BenchmarkLineOfSight(b *testing.B) {
	m, pts := losCase(b)
	for i := 0; b.Loop(); i++ {
		p := &pts[i%len(pts)]
		m.LineOfSight(p[0], p[1], p[2], p[3])
	}
}

func BenchmarkLineOfSightCp(b *testing.B) {
	m, pts := losCase(b)
	for i := 0; b.Loop(); i++ {
		p := &pts[i%len(pts)]
		_ = m.RayWalls(p[0], p[1], p[2], p[3]) >= 1
	}
}

// Maps load concurrently without a data race (cp/v2 numbers bodies from a
// global counter); run with -race, as make test does.
func TestLoadMapConcurrently(t *testing.T) {
	done := make(chan error, 8)
	for i := 0; i < 8; i++ {
		go func() {
			_, err := LoadMap("arena")
			done <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// NewHitbox builds a body-sized circle; Player.Hitbox follows the player's
// position, life and team.
func TestNewHitboxAndPlayerHitbox(t *testing.T) {
	h := NewHitbox(7, 10, -20, true, TeamRed)
	if h != (Hitbox{ID: 7, X: 10, Y: -20, R: shared.PlayerRadius, Alive: true, Team: TeamRed}) {
		t.Fatalf("NewHitbox = %+v", h)
	}
	p := &Player{ID: 3, Team: TeamBlue}
	p.State.X, p.State.Y = 100, 200
	if got := p.Hitbox(); got != (Hitbox{ID: 3, X: 100, Y: 200, R: shared.PlayerRadius, Alive: true, Team: TeamBlue}) {
		t.Fatalf("live player's Hitbox = %+v", got)
	}
	p.State.Dead = true
	if p.Hitbox().Alive {
		t.Fatal("a dead player's hitbox is alive")
	}
	// A shot through the centre of a NewHitbox hits it at one radius.
	tr := TraceShot(&Map{}, 0, 0, 1, 0, 1000, []Hitbox{NewHitbox(1, 100, 0, true, TeamNone)}, 0)
	if tr.Hit != 0 || math.Abs(tr.EndX-(100-shared.PlayerRadius)) > 1e-9 {
		t.Fatalf("trace = %+v, want a hit at x=%v", tr, 100-shared.PlayerRadius)
	}
}

// A fighting bot closes in on a far enemy, backs off from a near one or
// when hurt, and otherwise only strafes (bearing 0: the enemy along +x).
func TestBotStrafeMoveByRangeAndHealth(t *testing.T) {
	for _, c := range []struct {
		name   string
		health int
		dist   float64
		sign   float32 // of MoveX: +1 closing in, -1 backing off, 0 across
	}{
		{"far", MaxHealth, botFarRange + 1, 1},
		{"near", MaxHealth, botNearRange - 1, -1},
		{"mid", MaxHealth, (botNearRange + botFarRange) / 2, 0},
		{"hurt and far", botHurtHealth - 1, botFarRange + 1, -1},
	} {
		b := NewBot(1)
		b.strafeTicks = 1000 // no side change this tick
		mx, my := b.strafeMove(64, 0, c.health, c.dist)
		if math.Abs(float64(mx*mx+my*my)-1) > 1e-6 {
			t.Errorf("%s: move (%v, %v) not a unit vector", c.name, mx, my)
		}
		switch {
		case c.sign == 0 && math.Abs(float64(mx)) > 1e-6,
			c.sign > 0 && mx <= 0,
			c.sign < 0 && mx >= 0:
			t.Errorf("%s: MoveX %v, want sign %v", c.name, mx, c.sign)
		}
		if my <= 0 {
			t.Errorf("%s: no strafe across the line of fire (MoveY %v)", c.name, my)
		}
	}
}

// Before its reaction time a bot turns towards its target and never fires.
func TestBotAimWaitsForReaction(t *testing.T) {
	b := NewBot(3)
	b.target = 1
	for b.seenTicks = 1; b.seenTicks <= 64*3/10; b.seenTicks++ {
		before := b.angle
		if b.aim(64, 1) {
			t.Fatalf("fired %d ticks after first seeing the target", b.seenTicks)
		}
		if d := b.angle - before; d < 0 || d > botReactTurn+1e-12 {
			t.Fatalf("turned %v in a tick before reacting, at most %v", d, botReactTurn)
		}
	}
}
