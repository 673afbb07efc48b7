//go:build !headless

package client

import (
	"fmt"
	"math"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// playScene is the game: the local player's input turned into usercmds
// for the ticks of real time that passed, the server's events into
// effects, and the world, HUD, chat, net_graph and warnings drawn.
type playScene struct {
	g    *Game
	c    *netclient.Client
	addr string // the server, as the pause screen names it

	brain  *game.Bot
	aim    float64 // current aim, radians
	weapon uint8   // weapon the player wants in hand
	menu   bool    // the pause screen is open
	// fireCmd is the newest command that fired (predicted): the server's
	// spawn protection flag is stale until it has run that command.
	fireCmd uint32
	// lastUpdate is when the previous update ran (real time).
	lastUpdate time.Time
	// lastPX, lastPY are the local player's position at the previous
	// update (havePos: known), for the path length moved.
	lastPX, lastPY float64
	havePos        bool
}

// newPlayScene returns the game on the connected client c.
func newPlayScene(g *Game, c *netclient.Client, addr string) *playScene {
	return &playScene{g: g, c: c, addr: addr}
}

// OnEnter makes c the window's connection (the console acts on it).
func (p *playScene) OnEnter(*SceneContext) { p.g.c = p.c }

// OnLeave closes the connection if it is still the window's.
func (p *playScene) OnLeave(*SceneContext) {
	if p.g.c == p.c {
		p.g.disconnect("left the game")
	}
}

// report fills the phase.
func (p *playScene) report(r *Report) { r.Phase, r.ConnectedOnce = "playing", true }

// Update implements Scene.
func (p *playScene) Update(ctx *SceneContext) error {
	g, c := p.g, p.c
	now := time.Now()
	if err := c.Poll(); err != nil {
		ctx.Switch(newErrorScene(p.addr, err, true))
		return nil
	}
	for _, p := range c.TakePrints() {
		g.con.print(p)
	}
	consoleOpen := g.updateConsole()
	if g.c != c || g.quit {
		return nil // the console disconnected or quit
	}
	// The chat line, like the console, has the keyboard while it is open.
	consoleOpen = consoleOpen || g.updateChat(p.menu)
	// F3 as in Source; N too, since browsers may take F3 for "find".
	if (inpututil.IsKeyJustPressed(ebiten.KeyF3) || inpututil.IsKeyJustPressed(ebiten.KeyN)) && !consoleOpen {
		_ = g.setCvar("net_graph", fmt.Sprint((int(g.cvars["net_graph"].f())+1)%4))
	}
	if g.opt.Script == nil && !consoleOpen {
		if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
			p.menu = !p.menu
		}
		if p.menu && inpututil.IsKeyJustPressed(ebiten.KeyQ) {
			ctx.Home()
			return nil
		}
	}
	if g.stats.seen == nil {
		g.stats.seen = map[uint16]bool{}
	}
	for id := range c.Entities {
		g.stats.seen[id] = true
	}
	// The commands for the ticks that passed since the last frame. After
	// a stall of more than netclient.StallGap (a hidden browser tab) Frame
	// jumps the clock to the newest snapshot instead of sending a burst of
	// catch-up commands, which the server's command budget would refuse.
	resyncs := c.Stats.Resyncs
	if g.opt.AutoPlay && g.opt.Script == nil {
		c.FrameFunc(now, p.autoInput) // the brain thinks every tick
	} else {
		c.Frame(now, p.readInput())
	}
	g.stats.resyncs += c.Stats.Resyncs - resyncs
	dt := time.Duration(0)
	if !p.lastUpdate.IsZero() {
		dt = min(max(now.Sub(p.lastUpdate), 0), netclient.StallGap)
	}
	p.lastUpdate = now
	if st := c.Predicted(); !st.Dead && c.HaveSnapshot() {
		// Further than running can take it in dt (plus the tick of time
		// a frame may carry over) is a respawn, not a move.
		reach := shared.MaxSpeed*(dt.Seconds()+1/float64(c.TickRate)) + 1
		if d := math.Hypot(st.X-p.lastPX, st.Y-p.lastPY); p.havePos && d <= reach {
			g.stats.moved += d
		}
		p.lastPX, p.lastPY, p.havePos = st.X, st.Y, true
	} else {
		p.havePos = false
	}
	p.handleEvents()
	p.handleEffects()
	g.fx.update(dt)
	return nil
}

// readInput samples the keyboard and mouse (or the test script) into the
// input held over this frame's ticks, with the buttons pressed since the
// last frame (even if already released) in Pressed.
func (p *playScene) readInput() netclient.Input {
	g := p.g
	if g.opt.Script != nil {
		in, ok := g.opt.Script(time.Since(g.started))
		if !ok {
			g.quit = true
		}
		p.aim = float64(in.Angle)
		return in
	}
	var in netclient.Input
	if p.menu || g.con.open || g.chat.open {
		return netclient.Input{Angle: float32(p.aim), Weapon: p.weapon}
	}
	if ebiten.IsKeyPressed(ebiten.KeyA) || ebiten.IsKeyPressed(ebiten.KeyArrowLeft) {
		in.MoveX--
	}
	if ebiten.IsKeyPressed(ebiten.KeyD) || ebiten.IsKeyPressed(ebiten.KeyArrowRight) {
		in.MoveX++
	}
	if ebiten.IsKeyPressed(ebiten.KeyW) || ebiten.IsKeyPressed(ebiten.KeyArrowUp) {
		in.MoveY--
	}
	if ebiten.IsKeyPressed(ebiten.KeyS) || ebiten.IsKeyPressed(ebiten.KeyArrowDown) {
		in.MoveY++
	}
	// Aim from the player's on-screen position to the mouse.
	mx, my := ebiten.CursorPosition()
	px, py := g.worldToScreen(g.drawPos())
	if dx, dy := float64(mx)-px, float64(my)-py; dx*dx+dy*dy > 4 {
		p.aim = math.Atan2(dy, dx)
	}
	in.Angle = float32(p.aim)
	switch {
	case inpututil.IsKeyJustPressed(ebiten.Key1):
		p.weapon = 0
	case inpututil.IsKeyJustPressed(ebiten.Key2):
		p.weapon = 1
	case inpututil.IsKeyJustPressed(ebiten.KeyQ):
		p.weapon = (p.weapon + 1) % shared.NumWeapons
	}
	if _, wy := ebiten.Wheel(); wy != 0 {
		p.weapon = (p.weapon + 1) % shared.NumWeapons
	}
	in.Weapon = p.weapon
	// Buttons: a press seen for the first time is a tap (Pressed),
	// latched into the next command only; from the next frame on, if still
	// down, the button is held over every tick. A click shorter than a
	// frame shows as down in one frame (GLFW's sticky buttons), and its
	// release only in the next: held over a slow frame's dozen ticks it
	// would fire twice, where at 60 fps it fires once. Movement keys, by
	// contrast, count as held over the whole frame they are first seen in,
	// so that a run covers the same distance at any frame rate.
	button := func(b uint16, pressed, just bool) {
		switch {
		case just:
			in.Pressed |= b
		case pressed:
			in.Buttons |= b
		}
	}
	button(shared.ButtonAttack, ebiten.IsMouseButtonPressed(ebiten.MouseButtonLeft), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonLeft))
	button(shared.ButtonAttack2, ebiten.IsMouseButtonPressed(ebiten.MouseButtonRight), inpututil.IsMouseButtonJustPressed(ebiten.MouseButtonRight))
	button(shared.ButtonReload, ebiten.IsKeyPressed(ebiten.KeyR), inpututil.IsKeyJustPressed(ebiten.KeyR))
	return in
}

// handleEvents turns server events into kill feed entries, hit markers,
// damage flashes and other players' tracers.
func (p *playScene) handleEvents() {
	g, c := p.g, p.c
	for _, e := range c.TakeEvents() {
		switch e.Kind {
		case proto.EvShot:
			if e.A != c.ID && (e.X != e.X2 || e.Y != e.Y2) {
				g.fx.addTracer(proto.FromFixed(e.X), proto.FromFixed(e.Y), proto.FromFixed(e.X2), proto.FromFixed(e.Y2), false)
			}
		case proto.EvHit:
			if e.A == c.ID {
				g.fx.hitMarker = hitMarkerTime
				g.sound.play(sndHit)
				g.stats.hitsDealt++
			}
			if e.B == c.ID {
				g.stats.hitsTaken++
				g.fx.damageFlash = 1
				g.sound.play(sndHurt)
			}
			g.fx.addImpact(proto.FromFixed(e.X2), proto.FromFixed(e.Y2))
		case proto.EvKill:
			g.fx.addKill(c.Name(e.A), c.Name(e.B), e.A == c.ID, e.B == c.ID)
			if e.A == c.ID {
				g.fx.killMarker = hitMarkerTime * 2
				g.sound.play(sndKill)
			}
			if e.B == c.ID {
				g.fx.killedBy = c.Name(e.A)
			}
		case proto.EvExplode:
			g.fx.addExplosion(proto.FromFixed(e.X), proto.FromFixed(e.Y), float64(e.Value))
			g.sound.play(sndBoom)
		case proto.EvImpact:
			if e.A != c.ID {
				continue
			}
			b := impactBox{serverX: proto.FromFixed(e.X), serverY: proto.FromFixed(e.Y), hit: e.Value&game.ImpactHit != 0, left: impactBoxTime}
			if v, ok := c.ShotViewOf(e.Cmd); ok {
				for _, o := range v.Others {
					if o.ID == e.B {
						b.clientX, b.clientY, b.haveClient = o.X, o.Y, true
					}
				}
			}
			if b.haveClient {
				d := math.Hypot(proto.FromFixed(proto.ToFixed(b.clientX))-b.serverX, proto.FromFixed(proto.ToFixed(b.clientY))-b.serverY)
				g.stats.impactErrs = append(g.stats.impactErrs, d)
				g.stats.impactRefd = append(g.stats.impactRefd, e.Value&game.ImpactRefused != 0)
			}
			g.fx.boxes = append(g.fx.boxes, b)
			if len(g.fx.boxes) > 12 {
				g.fx.boxes = g.fx.boxes[len(g.fx.boxes)-12:]
			}
		case proto.EvMatchEnd:
			g.fx.banner = "Draw"
			if e.A != 0 {
				g.fx.banner = e.Text + " wins the match"
			}
			if e.A == c.ID {
				g.fx.banner = "You win the match!"
			}
			g.fx.bannerLeft = time.Duration(e.Value) * time.Second
		case proto.EvMatchStart:
			g.fx.banner, g.fx.bannerLeft = "New match", 2*time.Second
			g.fx.killedBy = ""
		case proto.EvJoin:
			g.fx.addNotice(fmt.Sprintf("%s joined", e.Text))
		case proto.EvLeft:
			g.fx.addNotice(fmt.Sprintf("%s left", c.Name(e.A)))
		case proto.EvChat:
			g.onChat(&e)
		}
	}
}

// handleEffects plays the effects of commands predicted for the first time:
// tracer, muzzle flash, sound (once per command, Bernier 2001).
func (p *playScene) handleEffects() {
	g, c := p.g, p.c
	for _, r := range c.TakeEffects() {
		if r.Fired {
			g.stats.shotsFired++
			p.fireCmd = c.CommandNumber()
			sh := r.Shot
			def := &shared.Weapons[sh.Weapon]
			g.fx.muzzle = muzzleTime
			if def.Kind != shared.Hitscan {
				// Projectiles are the server's: only the firing is predicted.
				g.sound.play(sndLaunch)
				continue
			}
			ents := c.Rendered()
			boxes := make([]game.Hitbox, 0, len(ents))
			for _, e := range ents {
				boxes = append(boxes, game.Hitbox{ID: e.ID, X: e.X, Y: e.Y, R: shared.PlayerRadius, Alive: e.Alive})
			}
			tr := game.TraceShot(c.Map, sh.X, sh.Y, sh.DirX, sh.DirY, def.Range, boxes, c.ID)
			g.fx.addTracer(sh.X, sh.Y, tr.EndX, tr.EndY, true)
			g.fx.muzzle = muzzleTime
			g.sound.play(sndShot)
		}
		if r.ReloadStarted {
			g.sound.play(sndReload)
		}
	}
}

// autoInput lets the bot brain play for the local player (--autoplay).
func (p *playScene) autoInput() netclient.Input {
	c := p.c
	if p.brain == nil {
		p.brain = game.NewBot(uint64(time.Now().UnixNano()))
	}
	ents := c.Rendered()
	boxes := make([]game.Hitbox, 0, len(ents))
	for _, e := range ents {
		boxes = append(boxes, game.Hitbox{ID: e.ID, X: e.X, Y: e.Y, R: shared.PlayerRadius, Alive: e.Alive})
	}
	in := p.brain.Think(c.Map, c.TickRate, c.Predicted(), c.Health, boxes)
	p.aim = float64(in.Angle)
	return netclient.Input{MoveX: in.MoveX, MoveY: in.MoveY, Angle: in.Angle, Buttons: in.Buttons, Weapon: p.weapon}
}
