package game

import (
	"fmt"
	"math"
	"math/rand/v2"

	"tickshot/shared"
)

// World is the deathmatch's rules as a deterministic simulation: players,
// bots, projectiles, damage, respawns and match flow. It steps usercmds
// through shared.RunCommand (the same code the client predicts with) and
// reports what happened as domain Events; it knows nothing of sockets,
// sessions or the wire. The server owns one World and drives it once per
// tick (NextTick, then each command with RunCommand, then Step), turns its
// Events into wire events, and passes lag compensation in as a HitboxSource.
//
// Same map, seed, rules and calls in the same order give the same states
// and events: no wall clock, goroutines, map iteration or unseeded
// randomness (the seed feeds spawn choice and the bots' brains).
type World struct {
	Map      *Map
	Phys     *shared.World // movement constants and collision for shared.RunCommand
	TickRate int           // ticks/s
	Tick     uint32        // the current tick
	Rules    Rules

	// Roster holds the players and spectators (roster.go).
	Roster
	Projectiles []*Projectile
	Bots        []*BotPlayer

	// MatchStart is the tick the current match started; Intermission the
	// tick the next one starts, 0 while a match is on.
	MatchStart, Intermission uint32
	// EventLog holds what happened since the caller last took it (TakeEvents).
	EventLog

	rng        *rand.Rand
	teamPlay   bool // the current match is team deathmatch (TeamPlay)
	nextProjID uint16
	boxBuf     []Hitbox
	botBoxBuf  []Hitbox
	shotBoxBuf []Hitbox       // sparedTeammates
	cmd        shared.UserCmd // the command being resolved (RunCommand)
}

// Rules are the match settings the world applies; the server sets them from
// its console variables (names in brackets).
type Rules struct {
	NoDamage    bool    // nobody takes damage (tests, --nodamage)
	MutualKills bool    // sv_mutualkills: a player killed earlier in a tick still gets that tick's shots
	ShowImpacts bool    // sv_showimpacts: answer each human shot with an EvImpact to the shooter
	FragLimit   int     // mp_fraglimit: kills that win the match, 0 = none
	TimeLimit   float64 // mp_timelimit: minutes a match lasts, 0 = none
	BotSkill    float64 // bot_difficulty, 0..3
	// SpawnProtection is mp_spawnprotection: seconds after a spawn during
	// which the player takes no damage and bots leave it alone, ended at
	// once when it fires.
	SpawnProtection float64
	// TeamPlay is mp_gamemode tdm: two teams (teams.go). A change restarts
	// the match at the next Step.
	TeamPlay bool
	// FriendlyFire is mp_friendlyfire: teammates' shots and splash hurt
	// (and a teamkill or a suicide costs a frag); off, they pass through
	// teammates and are not confirmed as hits.
	FriendlyFire bool
	// AutoTeamBalance is mp_autoteambalance: move a player of a team two or
	// more bigger at their respawn, and refuse jointeam to the bigger team.
	AutoTeamBalance bool
}

// IntermissionSeconds is the pause between matches, seconds.
const IntermissionSeconds = 5

// ProjectileLifetimeMs is how long a projectile flies before it explodes, ms.
const ProjectileLifetimeMs = 3000

// explodeSkin is how far in front of a wall, in world units, a projectile
// that strikes it explodes. A blast exactly on the wall's surface would have
// no line of sight to anyone (a segment query that starts on a shape hits it
// at once), so its splash would hurt no one.
const explodeSkin = 1.0

// HitboxSource gives the hitboxes a hitscan shot is traced against: lag
// compensation (Bernier 2001) passes one that rewinds every other player to
// where the shooter of cmd drew them. The slice holds every player, the
// shooter included (TraceShot skips it), and is only read until the next
// call; the Rewind flags say how the source placed them.
type HitboxSource interface {
	ShotHitboxes(w *World, shooter *Player, cmd *shared.UserCmd) ([]Hitbox, Rewind)
}

// Rewind flags say how a HitboxSource placed a shot's hitboxes; 0 means at
// the render time the shooter's command claimed, exactly as it drew them.
type Rewind uint8

const (
	// RewindRefused: the claimed render time was not credible, so the
	// source used its own estimate of what the shooter saw.
	RewindRefused Rewind = 1 << iota
	// RewindClamped: the rewind was limited to sv_maxunlag (or the present).
	RewindClamped
)

// Impact Value bits (EvImpact).
const (
	ImpactHit     = 1 // the shot hit B
	ImpactRefused = 2 // RewindRefused
	ImpactClamped = 4 // RewindClamped
)

// BotPlayer is a player driven by a Bot brain; its usercmds run through the
// same shared.RunCommand as everyone's.
type BotPlayer struct {
	Player *Player
	Brain  *Bot
	cmdNum uint32
}

// Projectile is a rocket in flight, simulated by the server only, tick by
// tick, against the walls and the players' present hitboxes: projectiles are
// not lag compensated (Bernier 2001, footnote 9), so the shooter leads the
// target by its own latency, as in Half-Life.
type Projectile struct {
	ID     uint16
	Owner  uint16
	Weapon uint8
	X, Y   float64 // world units
	VX, VY float64 // world units/s
	Dies   uint32  // tick at which it explodes in the air
}

// NewWorld starts an empty world on m at tickRate ticks/s; seed drives every
// random choice (spawn points, bot brains).
func NewWorld(m *Map, tickRate int, seed uint64, rules Rules) *World {
	return &World{
		Map: m, Phys: m.World(tickRate), TickRate: tickRate, Rules: rules,
		rng:    rand.New(rand.NewPCG(seed, seed*31+7)),
		Roster: Roster{nextID: 1}, teamPlay: rules.TeamPlay,
	}
}

// NextTick advances the clock by one tick; commands and Step then run at it.
func (w *World) NextTick() { w.Tick++ }

// emit stamps e with the current tick and logs it (EventLog).
func (w *World) emit(e Event) { w.add(w.Tick, e) }

// Step runs everything of the tick that no command drives, after the
// humans' commands: match flow, the bots' commands, projectiles, respawns.
func (w *World) Step() {
	w.runMatch()
	w.runBots()
	w.moveProjectiles()
	w.respawn()
}

// AddPlayer spawns a new player named name (the caller makes it unique
// with UniqueName) and announces it with EvJoin (Value: its team). In team
// deathmatch it joins the smaller team (ties: the lower score, then red).
func (w *World) AddPlayer(name string, isBot bool) *Player {
	id := w.newID()
	p := &Player{ID: id, Name: name, Bot: isBot}
	if w.teamPlay {
		p.Team = w.smallerTeam(nil)
	}
	w.spawn(p)
	w.insertPlayer(p)
	w.emit(Event{Kind: EvJoin, A: id, Text: name, Value: int(p.Team)})
	return p
}

// RemovePlayer takes player id out of the world (and out of Bots), with
// EvLeft carrying reason. Its projectiles fly on but harm no one.
func (w *World) RemovePlayer(id uint16, reason string) {
	if i := w.PlayerIndex(id); i >= 0 {
		w.removePlayerAt(i)
	}
	w.takeSpectator(id)
	for i, b := range w.Bots {
		if b.Player.ID == id {
			w.Bots = append(w.Bots[:i], w.Bots[i+1:]...)
			break
		}
	}
	w.ScoresDirty = true
	w.emit(Event{Kind: EvLeft, A: id, Text: reason})
}

var botNames = []string{"Bernier", "Carmack", "Romero", "Abrash", "Newell", "Fiedler", "Gaffer", "Zoid",
	"Quake", "Thresh", "Fatal1ty", "Xantor", "Rapha", "Cooller", "Vo0", "Toxjq"}

// AddBot adds a bot player with a seeded brain; its name is at most
// maxNameLen bytes.
func (w *World) AddBot(maxNameLen int) *BotPlayer {
	name := fmt.Sprintf("[BOT] %s", botNames[len(w.Bots)%len(botNames)])
	p := w.AddPlayer(w.UniqueName(name, maxNameLen), true)
	b := &BotPlayer{Player: p, Brain: NewBot(w.rng.Uint64())}
	w.Bots = append(w.Bots, b)
	return b
}

// RemoveBot removes the newest bot (to make room for a human); false when
// there is none.
func (w *World) RemoveBot(reason string) bool {
	if len(w.Bots) == 0 {
		return false
	}
	w.RemovePlayer(w.Bots[len(w.Bots)-1].Player.ID, reason)
	return true
}

// spawn puts p at the spawn point farthest from the live enemies (in team
// deathmatch the other team's players), with spawn protection.
func (w *World) spawn(p *Player) {
	p.Spawn(w.Map.ChooseSpawn(w.enemyPositions(p), w.rng))
	p.ProtectedUntil = w.Tick + uint32(math.Round(w.Rules.SpawnProtection*float64(w.TickRate)))
}

func (w *World) enemyPositions(self *Player) []Point {
	var pts []Point
	for _, p := range w.Players {
		if p.ID != self.ID && p.Alive() && !w.Teammates(self, p) {
			pts = append(pts, Point{X: p.State.X, Y: p.State.Y})
		}
	}
	return pts
}

func (w *World) respawn() {
	for _, p := range w.Players {
		if p.State.Dead && w.Tick >= p.RespawnTick {
			w.balanceAtRespawn(p)
			w.spawn(p)
		}
	}
}

// RunCommand runs one validated usercmd for p through shared.RunCommand
// and resolves what it fired. Hitscan shots are traced against lc's
// hitboxes, or the present ones when lc is nil (bots, sv_unlag 0).
//
// Simultaneous kills: commands run in call order, so when two players would
// kill each other in one tick, the command run first wins and the other
// player is already dead when its command runs (as CS:GO). With
// Rules.MutualKills, a player killed earlier in the same tick still gets
// that tick's shots, from the state it had when it died, so both can die
// (as Overwatch).
func (w *World) RunCommand(p *Player, cmd shared.UserCmd, lc HitboxSource) {
	var res shared.Result
	if p.State.Dead && w.Rules.MutualKills && p.DiedTick == w.Tick && p.Deaths > 0 {
		var st shared.PlayerState
		st, res = shared.RunCommand(p.PreDeath, cmd, w.Phys)
		p.PreDeath = st
		p.State.Weapon, p.State.Ammo = st.Weapon, st.Ammo
	} else {
		p.State, res = shared.RunCommand(p.State, cmd, w.Phys)
	}
	p.Angle = float64(cmd.ViewAngle)
	if !res.Fired {
		return
	}
	p.ProtectedUntil = 0 // firing ends spawn protection
	switch shared.Weapons[res.Shot.Weapon].Kind {
	case shared.Hitscan:
		// The command is handed on from a field: &cmd would escape (the
		// interface call) and cost an allocation per command.
		w.cmd = cmd
		w.FireHitscan(p, &w.cmd, res.Shot, lc)
	case shared.Projectile:
		w.fireProjectile(p, res.Shot)
	}
}

// PresentHitboxes returns every player's hitbox now (no rewind); the slice
// is reused by the next call.
func (w *World) PresentHitboxes() []Hitbox {
	boxes := w.boxBuf[:0]
	for _, o := range w.Players {
		boxes = append(boxes, o.Hitbox())
	}
	w.boxBuf = boxes
	return boxes
}

// FireHitscan resolves a hitscan shot of p fired by cmd: traced against
// lc's hitboxes (present ones when lc is nil), reported as EvShot (and
// EvImpact with Rules.ShowImpacts), damage applied. RunCommand calls it; it
// is exported for tests that trace shots without moving the shooter.
func (w *World) FireHitscan(p *Player, cmd *shared.UserCmd, shot shared.Shot, lc HitboxSource) {
	def := &shared.Weapons[shot.Weapon]
	var boxes []Hitbox
	var rw Rewind
	if lc != nil {
		boxes, rw = lc.ShotHitboxes(w, p, cmd)
	} else {
		boxes = w.PresentHitboxes()
	}
	boxes = w.sparedTeammates(p, boxes)
	tr := TraceShot(w.Map, shot.X, shot.Y, shot.DirX, shot.DirY, def.Range, boxes, p.ID)
	var hit uint16
	if tr.Hit >= 0 {
		hit = boxes[tr.Hit].ID
	}
	w.emit(Event{Kind: EvShot, A: p.ID, B: hit, Value: int(shot.Weapon), X: shot.X, Y: shot.Y, X2: tr.EndX, Y2: tr.EndY, Cmd: cmd.CommandNumber})
	if !p.Bot && w.Rules.ShowImpacts {
		w.showImpact(p, cmd, shot, boxes, tr, rw)
	}
	if hit != 0 {
		w.Damage(p, w.Player(hit), def.Damage, tr.EndX, tr.EndY)
	}
}

// showImpact tells the shooter where its shot's target was traced: the box
// it hit, or else the live box nearest the ray in front of the shooter.
func (w *World) showImpact(p *Player, cmd *shared.UserCmd, shot shared.Shot, boxes []Hitbox, tr TraceResult, rw Rewind) {
	idx, hit := tr.Hit, ImpactHit
	if idx < 0 {
		hit = 0
		best := math.Inf(1)
		for i, b := range boxes {
			if b.ID == p.ID || !b.Alive {
				continue
			}
			if d := DistToRay(shot.X, shot.Y, shot.DirX, shot.DirY, b.X, b.Y); d < best &&
				float64((b.X-shot.X)*shot.DirX)+float64((b.Y-shot.Y)*shot.DirY) > 0 {
				best, idx = d, i
			}
		}
	}
	if idx < 0 {
		return
	}
	b := boxes[idx]
	if rw&RewindRefused != 0 {
		hit |= ImpactRefused
	}
	if rw&RewindClamped != 0 {
		hit |= ImpactClamped
	}
	w.emit(Event{Kind: EvImpact, A: p.ID, B: b.ID, Cmd: cmd.CommandNumber, Value: hit,
		X: b.X, Y: b.Y, X2: tr.EndX, Y2: tr.EndY, To: p.ID})
}

// Damage applies amount hit points of damage from attacker to victim at
// (x, y) and its consequences: EvHit, and on a kill EvKill, the score and,
// at mp_fraglimit, the end of the match. Nobody takes damage during the
// intermission or with Rules.NoDamage (the EvHit is still reported).
func (w *World) Damage(attacker, victim *Player, amount int, x, y float64) {
	if victim == nil || !victim.Alive() {
		return
	}
	if victim.Protected(w.Tick) {
		return // spawn protection: no damage, no hit to report
	}
	if w.friendlySpared(attacker, victim) {
		return // mp_friendlyfire 0: no damage, no hit to confirm
	}
	pre := victim.State
	killed := false
	if !w.Rules.NoDamage && w.Intermission == 0 {
		killed = victim.Damage(amount, w.Tick, w.TickRate)
	}
	w.emit(Event{Kind: EvHit, A: attacker.ID, B: victim.ID, Value: amount, X2: x, Y2: y})
	if !killed {
		return
	}
	victim.DiedTick = w.Tick
	victim.PreDeath = pre
	switch {
	case w.teamPlay:
		w.scoreTeamKill(attacker, victim)
	case attacker.ID != victim.ID:
		attacker.Kills++
		if w.Rules.FragLimit > 0 && attacker.Kills >= w.Rules.FragLimit && w.Intermission == 0 {
			w.endMatch(attacker)
		}
	}
	w.ScoresDirty = true
	w.emit(Event{Kind: EvKill, A: attacker.ID, B: victim.ID})
}

// Suicide kills p (the console's `kill`); it refuses during the intermission.
func (w *World) Suicide(p *Player) error {
	if w.Intermission != 0 {
		return fmt.Errorf("not during the intermission")
	}
	if p.Alive() {
		p.ProtectedUntil = 0
		w.Damage(p, p, p.Health, p.State.X, p.State.Y)
	}
	return nil
}

func (w *World) runMatch() {
	if w.Rules.TeamPlay != w.teamPlay {
		// mp_gamemode changed: the match restarts in the new mode.
		w.setMode()
		w.startMatch()
		return
	}
	if w.Intermission != 0 {
		if w.Tick >= w.Intermission {
			w.startMatch()
		}
		return
	}
	if w.Rules.TimeLimit > 0 && float64(w.Tick-w.MatchStart) >= w.Rules.TimeLimit*60*float64(w.TickRate) {
		if w.teamPlay {
			w.endTeamMatch(w.leadingTeam())
			return
		}
		// The leader wins; a shared top score (or nobody) is a draw.
		w.endMatch(w.leader())
	}
}

// endMatch announces the winner (nil: nobody) and starts the intermission.
func (w *World) endMatch(winner *Player) {
	e := Event{Kind: EvMatchEnd, Value: IntermissionSeconds}
	if winner != nil {
		e.A, e.Text = winner.ID, winner.Name
	}
	w.emit(e)
	w.Intermission = w.Tick + uint32(IntermissionSeconds*w.TickRate)
}

// ChangeMap puts the world on map m, as Source's changelevel does: the
// walls and spawns become m's, projectiles vanish, bots forget where they
// were going, and a new match starts at once with everyone respawned on m
// (EvChangeLevel with Text = m.Name, then EvMatchStart). Players,
// spectators, their IDs, names and teams stay; the tick count goes on.
func (w *World) ChangeMap(m *Map) {
	w.Map, w.Phys = m, m.World(w.TickRate)
	for _, b := range w.Bots {
		b.Brain.target, b.Brain.seenTicks, b.Brain.hasWaypoint, b.Brain.hunting = -1, 0, false, false
	}
	w.emit(Event{Kind: EvChangeLevel, Text: m.Name})
	w.startMatch()
}

// startMatch resets the scores and respawns everyone.
func (w *World) startMatch() {
	w.Intermission = 0
	w.MatchStart = w.Tick
	w.Projectiles = w.Projectiles[:0]
	for _, p := range w.Players {
		p.Kills, p.Deaths = 0, 0
		w.spawn(p)
	}
	for _, p := range w.Spectators {
		p.Kills, p.Deaths = 0, 0
	}
	w.ScoresDirty = true
	w.emit(Event{Kind: EvMatchStart})
}

// runBots thinks for every bot and runs its usercmd.
func (w *World) runBots() {
	// Every player's hitbox, once per tick (not once per bot: that was
	// O(N²) copying); each bot's entry follows it as it moves, so later
	// bots see where earlier ones went this tick.
	all := w.botBoxBuf[:0]
	// A player under spawn protection is left alone: the bots see it as
	// not there.
	for _, o := range w.Players {
		all = append(all, NewHitbox(o.ID, o.State.X, o.State.Y, o.Alive() && !o.Protected(w.Tick), o.Team))
	}
	w.botBoxBuf = all
	last := len(all) - 1
	for _, b := range w.Bots {
		p := b.Player
		i := w.PlayerIndex(p.ID)
		if i < 0 {
			continue
		}
		b.Brain.Skill = w.Rules.BotSkill
		b.Brain.Team = p.Team
		// The others: the bot's own entry swapped to the end and left out.
		all[i], all[last] = all[last], all[i]
		in := b.Brain.Think(w.Map, w.TickRate, p.State, p.Health, all[:last])
		all[i], all[last] = all[last], all[i]
		b.cmdNum++
		cmd := shared.UserCmd{
			CommandNumber: b.cmdNum, TickCount: w.Tick, Msec: shared.MsecFor(w.TickRate),
			Buttons: in.Buttons, MoveX: in.MoveX, MoveY: in.MoveY, ViewAngle: in.Angle,
		}
		w.RunCommand(p, cmd, nil)
		all[i].X, all[i].Y, all[i].Alive = p.State.X, p.State.Y, p.Alive() && !p.Protected(w.Tick)
	}
}

func (w *World) fireProjectile(p *Player, shot shared.Shot) {
	def := &shared.Weapons[shot.Weapon]
	w.nextProjID++
	if w.nextProjID == 0 {
		w.nextProjID = 1
	}
	off := shared.PlayerRadius + 6
	pr := &Projectile{ID: w.nextProjID, Owner: p.ID, Weapon: shot.Weapon,
		X: shot.X + float64(shot.DirX*off), Y: shot.Y + float64(shot.DirY*off),
		VX: shot.DirX * def.Speed, VY: shot.DirY * def.Speed,
		Dies: w.Tick + uint32(shared.Ticks(ProjectileLifetimeMs, w.TickRate))}
	// Fired point-blank into a wall: explode at the muzzle.
	if frac := w.Map.RayWalls(shot.X, shot.Y, pr.X, pr.Y); frac < 1 {
		back := math.Max(float64(frac*off)-explodeSkin, 0)
		w.explode(pr, shot.X+float64(shot.DirX*back), shot.Y+float64(shot.DirY*back), 0)
		return
	}
	w.Projectiles = append(w.Projectiles, pr)
	w.emit(Event{Kind: EvShot, A: p.ID, Value: int(shot.Weapon), X: shot.X, Y: shot.Y, X2: shot.X, Y2: shot.Y})
}

// moveProjectiles advances every projectile by one tick and explodes those
// that hit a wall or a player, or whose time is up.
func (w *World) moveProjectiles() {
	dt := w.Phys.Dt()
	kept := w.Projectiles[:0]
	for _, pr := range w.Projectiles {
		owner := w.Player(pr.Owner)
		nx, ny := pr.X+float64(pr.VX*dt), pr.Y+float64(pr.VY*dt)
		frac := w.Map.RayWalls(pr.X, pr.Y, nx, ny)
		length := hypot(nx-pr.X, ny-pr.Y)
		dx, dy := (nx-pr.X)/length, (ny-pr.Y)/length
		best := frac * length
		var victim uint16
		for _, o := range w.Players {
			if !o.Alive() || o.ID == pr.Owner || (owner != nil && w.friendlySpared(owner, o)) {
				continue // with friendly fire off a rocket passes through the owner's teammates
			}
			if t, ok := RayCircle(pr.X, pr.Y, dx, dy, o.State.X, o.State.Y, shared.PlayerRadius+4); ok && t <= best {
				best, victim = t, o.ID
			}
		}
		if best < length || victim != 0 {
			if victim == 0 { // a wall: explode just in front of it
				best = math.Max(best-explodeSkin, 0)
			}
			w.explode(pr, pr.X+float64(dx*best), pr.Y+float64(dy*best), victim)
			continue
		}
		pr.X, pr.Y = nx, ny
		if w.Tick >= pr.Dies {
			w.explode(pr, pr.X, pr.Y, 0)
			continue
		}
		kept = append(kept, pr)
	}
	for i := len(kept); i < len(w.Projectiles); i++ {
		w.Projectiles[i] = nil
	}
	w.Projectiles = kept
}

// explode deals splash damage around (x, y): full damage to a direct hit,
// falling off linearly to zero at SplashRange for anyone in line of sight of
// the blast, half of that to the owner.
func (w *World) explode(pr *Projectile, x, y float64, direct uint16) {
	def := &shared.Weapons[pr.Weapon]
	w.emit(Event{Kind: EvExplode, A: pr.Owner, X: x, Y: y, Value: int(def.SplashRange)})
	owner := w.Player(pr.Owner)
	if owner == nil {
		return // the owner left; the rocket harms no one
	}
	for _, o := range w.Players {
		if !o.Alive() {
			continue
		}
		dmg := 0
		if o.ID == direct {
			dmg = def.Damage
		} else {
			d := math.Max(hypot(o.State.X-x, o.State.Y-y)-shared.PlayerRadius, 0)
			if d >= def.SplashRange || !w.Map.LineOfSight(x, y, o.State.X, o.State.Y) {
				continue
			}
			dmg = int(float64(def.Damage) * (1 - d/def.SplashRange))
			if o.ID == pr.Owner {
				dmg /= 2
			}
		}
		if dmg > 0 {
			w.Damage(owner, o, dmg, o.State.X, o.State.Y)
		}
	}
}
