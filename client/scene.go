//go:build !headless

package client

import (
	"github.com/hajimehoshi/ebiten/v2"

	"tickshot/client/netclient"
	"tickshot/client/palette"
)

// Scenes, as Ebiten's examples/blocks cuts its window (a SceneManager and
// a Scene interface of Update and Draw): the window shows one scene at a
// time (connecting, in game, and those other packages add: the main menu,
// demo playback), and the Game around them owns what every scene shares:
// the window, fonts and text atlas, console, cvars, sound, the frame-rate
// limit and the report. Each scene owns its own state: the match's
// (effects, kill feed, HUD, scoreboard) is playScene's, and goes with it.
//
// A scene gets the shared things through its SceneContext. The overlays
// that work in every scene (the console, fps_max, the screenshot) are the
// Game's, drawn over whatever scene is current.

// Scene is one screen of the window.
type Scene interface {
	// Update runs once per frame (SyncWithFPS) before Draw. An error ends
	// the window (ebiten.Termination closes it cleanly).
	Update(ctx *SceneContext) error
	// Draw draws the frame. It must cover the whole screen: Ebiten does not
	// clear it between frames (SetScreenClearedEveryFrame(false)).
	Draw(screen *ebiten.Image)
}

// SceneEnterer is a Scene told when it becomes the current one.
type SceneEnterer interface {
	OnEnter(ctx *SceneContext)
}

// SceneLeaver is a Scene told when another replaces it, or the window
// closes while it is current.
type SceneLeaver interface {
	OnLeave(ctx *SceneContext)
}

// SceneManager holds the current scene and switches scenes between frames:
// a Switch asked during a frame takes effect when that frame's Update
// returns (the old scene's OnLeave, then the new one's OnEnter), so that
// the frame is drawn by the scene it was updated with, and a scene never
// runs after it left.
type SceneManager struct {
	ctx     *SceneContext
	current Scene
	next    Scene
	pending bool
}

// NewSceneManager returns a manager without a scene; ctx is handed to the
// scenes (its Manager is set to the new manager).
func NewSceneManager(ctx *SceneContext) *SceneManager {
	m := &SceneManager{ctx: ctx}
	ctx.Manager = m
	return m
}

// Current returns the current scene (nil before the first one).
func (m *SceneManager) Current() Scene { return m.current }

// Switch makes s the current scene at the end of this frame's Update (at
// once before the first frame). The latest Switch of a frame wins; a scene
// replaced before it became current is neither entered nor left.
func (m *SceneManager) Switch(s Scene) {
	m.next, m.pending = s, true
	if m.current == nil {
		m.apply()
	}
}

// apply makes the pending scene current. An OnEnter may switch again: the
// chain is followed (at most 8 steps, so that two scenes switching to each
// other cannot hang the window).
func (m *SceneManager) apply() {
	for i := 0; m.pending && i < 8; i++ {
		next := m.next
		m.next, m.pending = nil, false
		if l, ok := m.current.(SceneLeaver); ok && m.current != nil {
			l.OnLeave(m.ctx)
		}
		m.current = next
		if e, ok := next.(SceneEnterer); ok && next != nil {
			e.OnEnter(m.ctx)
		}
	}
}

// Update runs the current scene's Update, then any switch it asked for.
func (m *SceneManager) Update() error {
	m.apply()
	if m.current == nil {
		return nil
	}
	err := m.current.Update(m.ctx)
	m.apply()
	return err
}

// Draw draws the current scene (the background when there is none).
func (m *SceneManager) Draw(screen *ebiten.Image) {
	if m.current == nil {
		screen.Fill(palette.BG)
		return
	}
	m.current.Draw(screen)
}

// Close leaves the current scene (the window is closing).
func (m *SceneManager) Close() {
	if l, ok := m.current.(SceneLeaver); ok && m.current != nil {
		l.OnLeave(m.ctx)
	}
	m.current, m.next, m.pending = nil, nil, false
}

// SceneContext is what a scene may use of the window: the Game (console,
// cvars, sound, window size, options) and the ways to move to another scene.
type SceneContext struct {
	// Game is the window, with what every scene shares.
	Game *Game
	// Manager switches scenes.
	Manager *SceneManager
}

// Width and Height are the screen's size in pixels this frame (Layout).
func (ctx *SceneContext) Width() int  { return ctx.Game.w }
func (ctx *SceneContext) Height() int { return ctx.Game.h }

// Switch makes s the current scene after this frame's Update.
func (ctx *SceneContext) Switch(s Scene) { ctx.Manager.Switch(s) }

// Connect leaves the current game, if any, and connects to addr
// (host:port): the connecting scene, then the game.
func (ctx *SceneContext) Connect(addr string) {
	ctx.Game.disconnect("connecting elsewhere")
	ctx.Game.opt.Addr = addr
	ctx.Switch(newConnectScene(addr))
}

// Play switches to the game on a connected client (a demo's playback plays
// through the same scene); addr is what the HUD names as the server.
func (ctx *SceneContext) Play(c *netclient.Client, addr string) {
	ctx.Switch(newPlayScene(ctx.Game, c, addr))
}

// Home leaves the current game, if any, for Options.Home (the main menu);
// without one it closes the window.
func (ctx *SceneContext) Home() {
	ctx.Game.disconnect("disconnected by player")
	if ctx.Game.opt.Home == nil {
		ctx.Quit()
		return
	}
	ctx.Switch(ctx.Game.opt.Home(ctx))
}

// Quit closes the window after this frame.
func (ctx *SceneContext) Quit() { ctx.Game.quit = true }

// Exec runs a console line and returns what it prints (settings a menu
// changes go through the same cvars the console sets).
func (ctx *SceneContext) Exec(line string) string { return ctx.Game.exec(line) }

// Print adds lines to the console.
func (ctx *SceneContext) Print(s string) { ctx.Game.con.print(s) }
