//go:build !headless

package client

import (
	"fmt"
	"math"
	"strings"
	"time"

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

	// view is what the input source sees this frame.
	view InputView
	// aim is the aim drawn, radians: the input's newest.
	aim float64
	// human: a person plays (the source's word): the crosshair at the
	// cursor (cursorX, cursorY), the controls hint, chat.
	human            bool
	cursorX, cursorY float64
	held             UIKeys // UI keys held this frame (Tab, F1)

	// The pieces the frame is drawn with (world.go), each with its state.
	frame   frameView
	arena   arenaLayer
	players playersLayer
	hud     hud
	bar     matchBar
	end     endScreen
	feed    killFeed
	flash   pickupFlash // the local player's pickup feedback (pickupfx.go)
	scores  scoreboard
	pause   pauseScreen
	hint    hintLine
	// fx are the match's short-lived effects (tracers, impacts,
	// explosions, markers, the banner), fed by the events and predicted
	// shots of this game.
	fx effects
	// card is the death card, cam the kill cam (deathcard.go, killcam.go).
	card deathCard
	cam  killCam
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
	if km, ok := p.g.input.(*KeyboardMouse); ok {
		km.cross.release() // sensitivity may have captured the pointer
	}
	if p.g.c == p.c {
		p.g.disconnect("left the game")
	}
}

// tick returns the per-tick input function of a TickSource for FrameFunc.
func (p *playScene) tick(ts TickSource) func() netclient.Input {
	return func() netclient.Input {
		in := ts.Tick(&p.view)
		p.aim = float64(in.Angle)
		return in
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
	for _, p := range c.Match().TakePrints() {
		g.con.print(p)
	}
	typing := g.con.update(float64(g.h))
	if g.c != c || g.quit {
		return nil // the console disconnected or quit
	}
	// The chat line, like the console, has the keyboard while it is open.
	typing = typing || g.chat.update(c, &g.con)
	skipCam := p.cam.on && !typing && pressedAny() // killcam.go
	// The kill cam holds the game input as the pause screen does.
	p.view = InputView{Client: c, Elapsed: now.Sub(g.started), Typing: typing, Paused: p.pause.open || p.cam.on}
	p.view.PlayerX, p.view.PlayerY = g.worldToScreen(g.drawPos())
	f := g.input.Frame(&p.view)
	p.human, p.cursorX, p.cursorY, p.held = f.Human, f.CursorX, f.CursorY, f.Held
	if f.Ended {
		g.quit = true
	}
	if skipCam {
		f.Keys &^= KeyPause // Esc skips the kill cam, and only that
	}
	if f.Keys&KeyNetGraph != 0 {
		_ = g.cv.netGraph.Set(fmt.Sprint((g.cv.netGraph.Get() + 1) % 4))
	}
	for _, line := range f.Commands {
		if out := g.exec(line); out != "" && !strings.HasPrefix(line, "incrementvar") {
			g.con.print(out)
		}
	}
	if g.c != c || g.quit {
		// A bound command left the game (disconnect, connect, playdemo,
		// quit): the events read this frame belong to a closed client.
		return nil
	}
	if f.Keys&KeyPause != 0 {
		if g.opt.Home != nil {
			// A game started from the main menu: Esc goes back to it.
			ctx.Home()
			return nil
		}
		p.pause.open = !p.pause.open
	}
	if p.pause.open && f.Keys&KeyQuit != 0 {
		ctx.Home()
		return nil
	}
	p.end.update(c, f.Human && !p.pause.open, typing) // endscreen.go: the map vote's keys and clicks
	if f.Human && !p.pause.open && f.Keys&KeyChat != 0 {
		g.chat.openLine(false)
	}
	if f.Human && !p.pause.open && f.Keys&KeyTeamChat != 0 {
		g.chat.openLine(true)
	}
	if g.stats.seen == nil {
		g.stats.seen = map[uint16]bool{}
	}
	for _, e := range c.View().Held {
		g.stats.seen[e.ID] = true
	}
	// The commands for the ticks that passed since the last frame. After
	// a stall of more than netclient.StallGap (a hidden browser tab) Frame
	// jumps the clock to the newest snapshot instead of sending a burst of
	// catch-up commands, which the server's command budget would refuse.
	resyncs := c.View().Stats.Resyncs
	if ts, ok := g.input.(TickSource); ok {
		c.FrameFunc(now, p.tick(ts)) // the brain thinks every tick
	} else {
		p.aim = float64(f.Input.Angle)
		c.Frame(now, f.Input)
	}
	g.stats.resyncs += c.View().Stats.Resyncs - resyncs
	dt := time.Duration(0)
	if !p.lastUpdate.IsZero() {
		dt = min(max(now.Sub(p.lastUpdate), 0), netclient.StallGap)
	}
	p.lastUpdate = now
	if c.View().Spectating {
		p.spectatorInput(f, dt) // spectate.go
	}
	if st := c.View().Predicted; !st.Dead && c.View().HaveSnapshot {
		// Further than running can take it in dt (plus the tick of time
		// a frame may carry over) is a respawn, not a move.
		reach := shared.MaxSpeed*(dt.Seconds()+1/float64(c.View().TickRate)) + 1
		if d := math.Hypot(st.X-p.lastPX, st.Y-p.lastPY); p.havePos && d <= reach {
			g.stats.moved += d
		}
		p.lastPX, p.lastPY, p.havePos = st.X, st.Y, true
	} else {
		p.havePos = false
	}
	vw := c.View()
	p.cam.record(&vw, p.aim)
	p.handleEvents()
	p.handleEffects()
	if p.flash.update(c.View().Takes, dt) { // pickupfx.go: once per predicted take
		g.sound.play(sndPickup)
	}
	p.cam.update(dt, skipCam)
	vw = c.View()
	p.card.update(&vw, p.cam.on)
	p.fx.update(dt)
	p.feed.update(dt)
	return nil
}

// handleEvents turns server events into kill feed entries, hit markers,
// damage flashes and other players' tracers.
func (p *playScene) handleEvents() {
	g, c := p.g, p.c
	sw := g.cv.juice()
	for _, e := range c.Match().TakeEvents() {
		vw := c.View()
		p.fx.onEvent(&e, &vw, sw)
		p.card.onEvent(&e, &vw)
		p.cam.onEvent(&e, &vw, g.cv.killCam.Get() && p.human)
		switch e.Kind {
		case proto.EvShot:
			if e.A != c.View().ID && (e.X != e.X2 || e.Y != e.Y2) {
				p.fx.addTracer(proto.FromFixed(e.X), proto.FromFixed(e.Y), proto.FromFixed(e.X2), proto.FromFixed(e.Y2), false)
				p.fx.otherPellets(c.View().Map, &e, drawnBoxes(c))
			}
		case proto.EvHit:
			if e.A == c.View().ID {
				p.fx.hitMarker = hitMarkerTime
				g.sound.play(sndHit)
				g.stats.hitsDealt++
			}
			if e.B == c.View().ID {
				g.stats.hitsTaken++
				p.fx.damageFlash = 1
				g.sound.play(sndHurt)
			}
			p.fx.addImpact(proto.FromFixed(e.X2), proto.FromFixed(e.Y2))
		case proto.EvKill:
			p.feed.addKill(c.View().Name(e.A), c.View().Name(e.B), e.A == c.View().ID, e.B == c.View().ID)
			if e.A == c.View().ID {
				p.fx.killMarker = hitMarkerTime * 2
				g.sound.play(sndKill)
			}
			if e.B == c.View().ID {
				p.fx.killedBy = c.View().Name(e.A)
			}
		case proto.EvExplode:
			p.fx.addExplosion(proto.FromFixed(e.X), proto.FromFixed(e.Y), float64(e.Value))
			g.sound.play(sndBoom)
		case proto.EvImpact:
			if e.A != c.View().ID {
				continue
			}
			b := impactBox{serverX: proto.FromFixed(e.X), serverY: proto.FromFixed(e.Y), hit: e.Value&game.ImpactHit != 0, left: impactBoxTime}
			var lead float64 // ms, ShotView.AckLeadMs
			if v, ok := c.Shots().Of(e.Cmd); ok {
				vw := c.View()
				lead = v.AckLeadMs(vw.InterpTicks(), vw.TickRate)
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
				g.stats.impactLead = append(g.stats.impactLead, lead)
			}
			p.fx.boxes = append(p.fx.boxes, b)
			if len(p.fx.boxes) > 12 {
				p.fx.boxes = p.fx.boxes[len(p.fx.boxes)-12:]
			}
		case proto.EvMatchEnd:
			p.fx.banner = "Draw"
			if e.A != 0 {
				p.fx.banner = e.Text + " wins the match"
			}
			if e.A == c.View().ID {
				p.fx.banner = "You win the match!"
			}
			if b, ok := matchEndBanner(c, &e); ok {
				p.fx.banner = b
			}
			p.fx.bannerLeft = time.Duration(e.Value) * time.Second
		case proto.EvChangeLevel:
			p.feed.addNotice("map changed to " + e.Text)
		case proto.EvMatchStart:
			p.fx.banner, p.fx.bannerLeft = "New match", 2*time.Second
			p.fx.killedBy = ""
		case proto.EvJoin, proto.EvTeam:
			if n := p.onTeamEvent(&e); n != "" {
				p.feed.addNotice(n)
			}
		case proto.EvLeft:
			p.feed.addNotice(fmt.Sprintf("%s left", c.View().Name(e.A)))
		case proto.EvChat:
			g.chat.onChat(&e, c.View().Name(e.A), &g.con)
		}
	}
}

// handleEffects plays the effects of commands predicted for the first time:
// tracer, muzzle flash, sound (once per command, Bernier 2001).
func (p *playScene) handleEffects() {
	g, c := p.g, p.c
	for _, r := range c.Shots().TakeEffects() {
		if r.Fired {
			g.stats.shotsFired++
			p.fireCmd = c.View().CommandNumber
			sh := r.Shot
			def := &shared.Weapons[sh.Weapon]
			p.fx.muzzle = muzzleTime
			if def.Kind != shared.Hitscan {
				// Projectiles are the server's: only the firing is predicted.
				g.sound.play(sndLaunch)
				continue
			}
			p.fx.shotRays(c.View().Map, &sh, 0, drawnBoxes(c), c.View().ID, true)
			p.fx.muzzle = muzzleTime
			g.sound.play(shotSound(sh.Weapon))
		}
		if r.ReloadStarted {
			g.sound.play(sndReload)
		}
	}
}
