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
// World keeps the wiring and the order of a tick; its parts own their
// state, each in its file: Roster (who is in), Match (flow, mode, scoring),
// Flight (projectiles), Squad (bots), Stock (pickups) and EventLog (what
// happened). They are embedded, so w.Players, w.Intermission,
// w.Projectiles, w.Bots, w.Pickups and w.TakeEvents read as fields and methods of the world. The parts that act
// on the world are handed it (w.Match.run(w)); they are called from World
// only, in Step's order.
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

	Roster   // the players and spectators (roster.go)
	Match    // the match's flow, mode and scoring (match.go)
	Flight   // the projectiles in flight (projectile.go)
	Squad    // the bots (squad.go)
	Stock    // the map's pickups (pickup.go)
	EventLog // what happened since the caller last took it (events.go)
	// Stats are the current match's statistics per player, counted from
	// the events emitted (stats.go).
	Stats MatchStats

	rng        *rand.Rand     // seeded: spawn choice and the bots' brain seeds
	boxBuf     []Hitbox       // PresentHitboxes
	shotBoxBuf []Hitbox       // sparedTeammates
	pelletHits []pelletHit    // FireHitscan: damage per victim of one shot's rays
	cmd        shared.UserCmd // the command being resolved (RunCommand)
	spawns     spawnChoice    // spawn's storage (Map.chooseSpawn)
	// Near is the players by position and the tick's spatial queries
	// (near.go).
	Near Near
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
	// ChatTime is mp_chattime: seconds of intermission between matches
	// (the end-of-match screen and the map vote); 0: IntermissionSeconds.
	ChatTime int
}

// HitboxSource gives the hitboxes a hitscan shot is traced against: lag
// compensation (Bernier 2001) passes one that rewinds every other player to
// where the shooter of cmd drew them. The slice holds every player, the
// shooter included (TraceShot skips it), and is only read until the next
// call; the Rewind flags say how the source placed them.
type HitboxSource interface {
	// ShotHitboxes returns the boxes shot, fired by shooter's cmd, is
	// traced against; it may leave out boxes none of shot's rays can reach.
	ShotHitboxes(w *World, shooter *Player, cmd *shared.UserCmd, shot *shared.Shot) ([]Hitbox, Rewind)
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

// NewWorld starts an empty world on m at tickRate ticks/s; seed drives every
// random choice (spawn points, bot brains).
func NewWorld(m *Map, tickRate int, seed uint64, rules Rules) *World {
	w := &World{
		Map: m, Phys: m.World(tickRate), TickRate: tickRate, Rules: rules,
		rng:    rand.New(rand.NewPCG(seed, seed*31+7)),
		Roster: Roster{nextID: 1}, Match: Match{teamPlay: rules.TeamPlay},
	}
	w.Near.w = w
	w.Stock.reset(m)
	return w
}

// NextTick advances the clock by one tick; commands and Step then run at it.
func (w *World) NextTick() { w.Tick++ }

// emit stamps e with the current tick and logs it (EventLog).
func (w *World) emit(e Event) {
	w.Stats.record(w, &e)
	w.EventLog.add(w.Tick, e)
}

// Step runs everything of the tick that no command drives, after the
// humans' commands: match flow, the bots' commands, projectiles, respawns
// of players and of pickups.
func (w *World) Step() {
	w.Match.run(w)
	w.Squad.think(w)
	w.Flight.step(w)
	w.respawn()
	w.Stock.step(w)
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
	w.Squad.remove(id)
	w.ScoresDirty = true
	w.emit(Event{Kind: EvLeft, A: id, Text: reason})
}

// AddBot adds a bot player with a seeded brain; its name is at most
// maxNameLen bytes.
func (w *World) AddBot(maxNameLen int) *BotPlayer {
	p := w.AddPlayer(w.UniqueName(w.Squad.nextName(), maxNameLen), true)
	b := &BotPlayer{Player: p, Brain: NewBot(w.rng.Uint64())}
	w.Squad.Bots = append(w.Squad.Bots, b)
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

// spawn puts p at a spawn point chosen by Map.ChooseSpawn against the live
// enemies (in team deathmatch the other team's players), never its
// previous one, with spawn protection: with mp_spawnprotection on, it lasts
// while p stands still (at most SpawnIdleProtectMs) and then
// mp_spawnprotection seconds after p first moves (startMoving); firing ends
// it at once.
func (w *World) spawn(p *Player) {
	last := -1
	if p.spawned {
		for i, s := range w.Map.Spawns {
			if s == p.LastSpawn {
				last = i
				break
			}
		}
	}
	p.Spawn(w.Map.Spawns[w.Map.chooseSpawn(w.enemyPositions(p), last, w.rng, &w.spawns, enemyKey(w.teamPlay, p.Team))])
	w.spawns.add(w.Map, w.teamPlay, p.Team, Point{X: p.State.X, Y: p.State.Y}) // in a respawn pass, an enemy of the next
	w.Near.stale()
	p.ProtectedUntil = w.Tick
	if w.Rules.SpawnProtection > 0 {
		p.ProtectedUntil += max(uint32(shared.Ticks(SpawnIdleProtectMs, w.TickRate)), w.protectionTicks())
	}
}

// protectionTicks is mp_spawnprotection in ticks.
func (w *World) protectionTicks() uint32 {
	return uint32(math.Round(w.Rules.SpawnProtection * float64(w.TickRate)))
}

// startMoving records p's first movement since its spawn: spawn protection
// now ends mp_spawnprotection seconds later (or earlier, when it already
// would).
func (w *World) startMoving(p *Player) {
	p.moved = true
	p.ProtectedUntil = min(p.ProtectedUntil, w.Tick+w.protectionTicks())
}

func (w *World) enemyPositions(self *Player) []Point {
	pts := w.spawns.enemies[:0]
	for _, p := range w.Players {
		if p.ID != self.ID && p.Alive() && !w.Teammates(self, p) {
			pts = append(pts, Point{X: p.State.X, Y: p.State.Y})
		}
	}
	w.spawns.enemies = pts
	return pts
}

// respawn spawns every dead player whose respawn tick has come, in the
// players' order. The pass's spawn choices share each enemy set's
// distances to the spawns (spawnScores): nobody moves between them.
func (w *World) respawn() {
	w.spawns.beginBatch()
	for _, p := range w.Players {
		if p.State.Dead && w.Tick >= p.RespawnTick {
			w.balanceAtRespawn(p)
			w.spawn(p)
		}
	}
	w.spawns.endBatch()
}

// RunCommand runs one validated usercmd for p through shared.RunCommand
// and resolves what it fired, after it takes the pickups it reached. Hitscan shots are traced against lc's
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
	w.Near.moved(p) // the grid, when current, follows
	p.Angle = float64(cmd.ViewAngle)
	w.Stock.touch(w, p) // in command order: the first to get there takes it
	if !p.moved && p.Alive() && (cmd.MoveX != 0 || cmd.MoveY != 0) {
		w.startMoving(p)
	}
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
		w.Flight.launch(w, p, res.Shot)
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

// FireHitscan resolves a hitscan shot of p fired by cmd: every ray of the
// shot (the shotgun's pellets, shared.Shot.Ray) traced against ONE set of
// lc's hitboxes (one rewind for the whole shot; present ones when lc is
// nil); one EvShot for the shot (ray 0's trace: the rifle's one ray; Cmd
// the command number, whose seed gives a client every other pellet's
// direction); the damage of the rays that hit one victim summed into one
// hit (Damage: one EvHit per victim, at its first ray's impact, in the
// order the rays first struck); with Rules.ShowImpacts one EvImpact (the
// first ray that hit, else ray 0). RunCommand calls it; it is exported
// for tests that trace shots without moving the shooter.
func (w *World) FireHitscan(p *Player, cmd *shared.UserCmd, shot shared.Shot, lc HitboxSource) {
	def := &shared.Weapons[shot.Weapon]
	var boxes []Hitbox
	var rw Rewind
	if lc != nil {
		boxes, rw = lc.ShotHitboxes(w, p, cmd, &shot)
	} else {
		boxes = w.Near.presentHitboxes(shot.X, shot.Y, def.Range+shared.PlayerRadius) // near.go
	}
	boxes = w.sparedTeammates(p, boxes)
	hits := w.pelletHits[:0]
	var shown TraceResult
	shownRay := shot
	for i := 0; i < shot.NumRays(); i++ {
		ry := shot.Ray(i)
		tr := TraceShot(w.Map, shot.X, shot.Y, ry.DirX, ry.DirY, def.Range, boxes, p.ID)
		var hit uint16
		if tr.Hit >= 0 {
			hit = boxes[tr.Hit].ID
			hits = addPelletHit(hits, hit, def.Damage, tr.EndX, tr.EndY)
		}
		if i == 0 {
			w.emit(Event{Kind: EvShot, A: p.ID, B: hit, Value: int(shot.Weapon), X: shot.X, Y: shot.Y, X2: tr.EndX, Y2: tr.EndY, Cmd: cmd.CommandNumber})
		}
		if i == 0 || (shown.Hit < 0 && tr.Hit >= 0) {
			shown = tr
			shownRay.DirX, shownRay.DirY, shownRay.Angle = ry.DirX, ry.DirY, ry.Angle
		}
	}
	w.pelletHits = hits
	if !p.Bot && w.Rules.ShowImpacts {
		w.showImpact(p, cmd, shownRay, boxes, shown, rw)
	}
	for _, h := range hits {
		w.DamageWith(p, w.Player(h.id), h.damage, shot.Weapon, h.x, h.y)
	}
}

// pelletHit is the damage one shot's rays did to one victim, and where the
// first of them struck.
type pelletHit struct {
	id     uint16
	damage int
	x, y   float64
}

// addPelletHit adds a ray's damage to victim id in hits (a new entry at
// the end for a victim not yet struck, so that hits keep the order of
// first impact).
func addPelletHit(hits []pelletHit, id uint16, damage int, x, y float64) []pelletHit {
	for i := range hits {
		if hits[i].id == id {
			hits[i].damage += damage
			return hits
		}
	}
	return append(hits, pelletHit{id: id, damage: damage, x: x, y: y})
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

// Damage applies amount hit points of damage from attacker's weapon in
// hand to victim at (x, y) (DamageWith).
func (w *World) Damage(attacker, victim *Player, amount int, x, y float64) {
	w.DamageWith(attacker, victim, amount, attacker.State.Weapon, x, y)
}

// DamageWith applies amount hit points of damage from attacker's weapon
// (a shared.Weapons index: a rocket's own, whatever its owner holds when it
// explodes) to victim at (x, y) (doubled by the attacker's double damage;
// armour takes its share) and its consequences: EvHit, and on a kill
// EvKill (the weapon, where both stood: the death card's facts), the score
// and, at mp_fraglimit, the end of the match. Nobody takes damage during
// the intermission or with Rules.NoDamage (the EvHit is still reported).
func (w *World) DamageWith(attacker, victim *Player, amount int, weapon uint8, x, y float64) {
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
	amount = boosted(attacker, amount, w.Tick) // double damage
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
	w.Match.scoreKill(w, attacker, victim)
	w.ScoresDirty = true
	w.emit(Event{Kind: EvKill, A: attacker.ID, B: victim.ID, Value: int(weapon),
		X: attacker.State.X, Y: attacker.State.Y, X2: victim.State.X, Y2: victim.State.Y})
}

// Suicide kills p (the console's `kill`); it refuses during the intermission.
func (w *World) Suicide(p *Player) error {
	if w.Intermission != 0 {
		return fmt.Errorf("not during the intermission")
	}
	if p.Alive() {
		p.ProtectedUntil = 0
		p.Armour = 0 // else it would take half of the health's worth (absorb)
		w.Damage(p, p, p.Health, p.State.X, p.State.Y)
	}
	return nil
}

// ChangeMap puts the world on map m, as Source's changelevel does: the
// walls and spawns become m's, projectiles vanish, bots forget where they
// were going, and a new match starts at once with everyone respawned on m
// (EvChangeLevel with Text = m.Name, then EvMatchStart). Players,
// spectators, their IDs, names and teams stay; the tick count goes on.
func (w *World) ChangeMap(m *Map) {
	w.Map, w.Phys = m, m.World(w.TickRate)
	w.Squad.forget()
	w.emit(Event{Kind: EvChangeLevel, Text: m.Name})
	w.Match.start(w)
}
