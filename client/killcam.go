//go:build !headless

package client

import (
	"image/color"
	"math"
	"sort"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/netclient"
	"tickshot/client/palette"
	"tickshot/game"
	"tickshot/net/proto"
)

// The kill cam (issue 21: the first minute teaches): when the local player
// is killed, the last seconds before its death replayed from the client's
// own snapshot history, the camera on the killer, with the death card
// under it; any key or mouse button skips it, cl_killcam 0 turns it off.
// Call of Duty made the kill cam a genre convention; here it shows what
// this client received, not what the server saw.
//
// killCam keeps its own history: every snapshot's players (the newest
// sample of each, game.Sample, and the local player's own server state),
// the projectiles as drawn then, and the shots and explosions the events
// reported, for killCamKeep. (The interpolator's histories hold 32 samples,
// 1.6 s at 20 snapshots a second: too short, and they are the netcode's.)
// It reads Views and events and writes only its own state: the replay can
// never feed back into the simulation or the prediction. While it shows,
// the player's game input is held as on the pause screen (InputView.Paused),
// so a player who respawns during the replay stands still under spawn
// protection until it ends.

// Kill cam timing.
const (
	killCamSpan    = 3 * time.Second        // replayed before the killing tick
	killCamHold    = 700 * time.Millisecond // and after it: the death itself
	killCamMinSpan = 500 * time.Millisecond // with less history than this, no replay
	killCamKeep    = 4 * time.Second        // history kept before the newest snapshot
	// killCamGap: a player or projectile whose samples are further apart
	// than this was out of this client's view between them; it is drawn
	// only within this of a sample.
	killCamGap    = 300 * time.Millisecond
	killCamTracer = 150 * time.Millisecond // a replayed shot's tracer
	killCamBlast  = 450 * time.Millisecond // a replayed explosion's ring (shockTime)
)

// camTrack is one player's or projectile's samples, oldest first.
type camTrack struct {
	bot    bool
	weapon uint8 // projectiles: the weapon that fired it
	owner  uint16
	s      []game.Sample
	hp     []int // players: the health at each sample
}

// add appends s with health hp when it is newer than the newest sample.
func (t *camTrack) add(s game.Sample, hp int) {
	if n := len(t.s); n > 0 && s.Tick <= t.s[n-1].Tick {
		return
	}
	t.s, t.hp = append(t.s, s), append(t.hp, hp)
}

// prune drops the samples before tick.
func (t *camTrack) prune(tick uint32) {
	i := sort.Search(len(t.s), func(i int) bool { return t.s[i].Tick >= tick })
	t.s, t.hp = append(t.s[:0], t.s[i:]...), append(t.hp[:0], t.hp[i:]...)
}

// health is the health of the newest sample at or before tick.
func (t *camTrack) health(tick float64) int {
	i := sort.Search(len(t.s), func(i int) bool { return float64(t.s[i].Tick) > tick })
	return t.hp[max(i-1, 0)]
}

// at is the track at replay tick tick: interpolated between the samples
// around it (game.Lerp, as the live view draws), held for at most gap
// ticks past a sample with none soon after it; false where the track has
// no sample that near (not yet seen, or out of view).
func (t *camTrack) at(tick, gap float64) (game.Sample, bool) {
	n := len(t.s)
	if n == 0 || tick < float64(t.s[0].Tick) {
		return game.Sample{}, false
	}
	i := sort.Search(n, func(i int) bool { return float64(t.s[i].Tick) >= tick })
	if i == n {
		last := t.s[n-1]
		return last, tick-float64(last.Tick) <= gap
	}
	b := t.s[i]
	if i == 0 || float64(b.Tick) == tick {
		return b, true
	}
	a := t.s[i-1]
	if span := float64(b.Tick - a.Tick); span > gap {
		// Out of view between them: drawn only near either.
		switch {
		case tick-float64(a.Tick) <= gap:
			return a, true
		case float64(b.Tick)-tick <= gap:
			return b, true
		}
		return game.Sample{}, false
	}
	return game.Lerp(a, b, (tick-float64(a.Tick))/float64(b.Tick-a.Tick)), true
}

// camEvent is a shot's tracer or an explosion the events reported.
type camEvent struct {
	tick           uint32
	kind           uint8 // proto.EvShot or proto.EvExplode
	x0, y0, x1, y1 float64
	r              float64 // an explosion's radius
	mine           bool    // the local player's shot
}

// killCam records the history and plays the replay.
type killCam struct {
	players  map[uint16]*camTrack // by player ID, the local player's included
	rockets  map[uint16]*camTrack // by projectile ID
	events   []camEvent
	lastSnap uint32 // the newest snapshot recorded
	tickRate int
	self     uint16 // the local player's ID (View.ID)

	// on: the replay is showing; t is its tick (fractional server ticks),
	// from the span before the killer's tick to end.
	on             bool
	killer         uint16
	t, end         float64
	focusX, focusY float64 // where the camera looks (follow)
	sawKiller      bool    // the replay has shown the killer
	shown          int     // frames drawn of this replay
}

// ticks is d in server ticks.
func (k *killCam) ticks(d time.Duration) float64 { return d.Seconds() * float64(k.tickRate) }

// record adds the newest snapshot of vw to the history (once a snapshot):
// the other players as it carried them, the local player as the server had
// it (its aim: aim, radians, the one drawn), and the projectiles as drawn.
func (k *killCam) record(vw *netclient.View, aim float64) {
	if !vw.HaveSnapshot || vw.SnapshotTick == k.lastSnap || vw.TickRate <= 0 {
		return
	}
	if k.players == nil {
		k.players, k.rockets = map[uint16]*camTrack{}, map[uint16]*camTrack{}
	}
	k.lastSnap, k.tickRate, k.self = vw.SnapshotTick, vw.TickRate, vw.ID
	for _, h := range vw.Held {
		hp := 100
		if i := sort.Search(len(vw.Rendered), func(i int) bool { return vw.Rendered[i].ID >= h.ID }); i < len(vw.Rendered) && vw.Rendered[i].ID == h.ID {
			hp = vw.Rendered[i].Health // the newest snapshot's, as the interpolator keeps it
		}
		t := k.track(k.players, h.ID)
		t.add(h.Newest, hp)
		t.bot = h.Flags&proto.FlagBot != 0
	}
	if !vw.Spectating {
		st := vw.ServerState
		k.track(k.players, vw.ID).add(game.Sample{Tick: vw.SnapshotTick, X: st.X, Y: st.Y, Angle: aim, Alive: !st.Dead}, vw.Health)
	}
	rt := uint32(math.Round(math.Max(vw.RenderTick, 0)))
	for _, pr := range vw.Projectiles {
		t := k.track(k.rockets, pr.ID)
		t.weapon, t.owner = pr.Weapon, pr.Owner
		t.add(game.Sample{Tick: rt, X: pr.X, Y: pr.Y, Angle: pr.Angle, Alive: true}, 0)
	}
	if !k.on { // the replay reads the history: kept whole while it plays
		k.prune(vw.SnapshotTick)
	}
}

// track is tracks[id], made when missing.
func (k *killCam) track(tracks map[uint16]*camTrack, id uint16) *camTrack {
	t := tracks[id]
	if t == nil {
		t = &camTrack{}
		tracks[id] = t
	}
	return t
}

// prune forgets what is older than killCamKeep before tick.
func (k *killCam) prune(tick uint32) {
	keep := uint32(k.ticks(killCamKeep))
	if tick <= keep {
		return
	}
	oldest := tick - keep
	for _, tracks := range []map[uint16]*camTrack{k.players, k.rockets} {
		for id, t := range tracks {
			if t.prune(oldest); len(t.s) == 0 {
				delete(tracks, id)
			}
		}
	}
	i := sort.Search(len(k.events), func(i int) bool { return k.events[i].tick >= oldest })
	k.events = append(k.events[:0], k.events[i:]...)
}

// onEvent records a shot or an explosion, and starts the replay at the
// local player's death by another's hand when enabled (cl_killcam 1 and a
// person at the keys). It reports whether the replay started. The match's
// end (its result matters more), a new match and a new map end a replay;
// a new map also forgets the history, which was of the old one.
func (k *killCam) onEvent(e *proto.Event, vw *netclient.View, enabled bool) bool {
	switch e.Kind {
	case proto.EvMatchEnd, proto.EvMatchStart:
		k.on = false
	case proto.EvChangeLevel:
		k.on = false
		clear(k.players)
		clear(k.rockets)
		k.events = k.events[:0]
	case proto.EvShot:
		if e.X != e.X2 || e.Y != e.Y2 {
			k.addEvent(camEvent{tick: e.Tick, kind: e.Kind, x0: proto.FromFixed(e.X), y0: proto.FromFixed(e.Y),
				x1: proto.FromFixed(e.X2), y1: proto.FromFixed(e.Y2), mine: e.A == vw.ID})
		}
	case proto.EvExplode:
		k.addEvent(camEvent{tick: e.Tick, kind: e.Kind, x0: proto.FromFixed(e.X), y0: proto.FromFixed(e.Y), r: float64(e.Value)})
	case proto.EvKill:
		if e.B == vw.ID && e.A != vw.ID && enabled {
			return k.start(e.A, e.Tick)
		}
	}
	return false
}

// addEvent keeps the events in tick order (they come so, from snapshots
// in order).
func (k *killCam) addEvent(ev camEvent) {
	if n := len(k.events); n > 0 && ev.tick < k.events[n-1].tick {
		return
	}
	k.events = append(k.events, ev)
}

// start replays the killCamSpan before killTick (as much of it as the
// history holds, at least killCamMinSpan) following killer.
func (k *killCam) start(killer uint16, killTick uint32) bool {
	self := k.players[k.self]
	if k.tickRate <= 0 || self == nil || len(self.s) == 0 {
		return false
	}
	from := math.Max(float64(killTick)-k.ticks(killCamSpan), float64(self.s[0].Tick))
	if float64(killTick)-from < k.ticks(killCamMinSpan) {
		return false
	}
	k.on, k.killer, k.t, k.end, k.shown = true, killer, from, float64(killTick)+k.ticks(killCamHold), 0
	k.sawKiller = false
	k.follow()
	return true
}

// update advances the replay by dt of real time (at the game's speed) and
// ends it at its end or when skip (a key was pressed).
func (k *killCam) update(dt time.Duration, skip bool) {
	if !k.on {
		return
	}
	if skip {
		k.on = false
		return
	}
	k.t += k.ticks(dt)
	if k.t >= k.end {
		k.on = false
		return
	}
	k.follow()
}

// follow points the camera at the killer where the replay has it; before
// the killer comes into this client's view, at the local player; after it
// left, where it was last seen.
func (k *killCam) follow() {
	if t := k.players[k.killer]; t != nil {
		if s, ok := t.at(k.t, k.ticks(killCamGap)); ok {
			k.focusX, k.focusY, k.sawKiller = s.X, s.Y, true
			return
		}
	}
	if t := k.players[k.self]; t != nil && !k.sawKiller {
		if s, ok := t.at(k.t, math.Inf(1)); ok {
			k.focusX, k.focusY = s.X, s.Y
		}
	}
}

// camFrame is the replay at its tick: the other players and projectiles
// as a View holds them, the local player apart.
type camFrame struct {
	others   []netclient.RenderedEntity
	self     netclient.RenderedEntity
	haveSelf bool
	rockets  []netclient.RenderedProjectile
}

// frame is the replay at its tick.
func (k *killCam) frame() camFrame {
	var f camFrame
	gap := k.ticks(killCamGap)
	for _, id := range sortedIDs(k.players) {
		t := k.players[id]
		s, ok := t.at(k.t, gap)
		if !ok {
			continue
		}
		e := netclient.RenderedEntity{ID: id, X: s.X, Y: s.Y, Angle: s.Angle, Alive: s.Alive, Health: t.health(k.t), Bot: t.bot}
		if id == k.self {
			f.self, f.haveSelf = e, true
			continue
		}
		f.others = append(f.others, e)
	}
	for _, id := range sortedIDs(k.rockets) {
		t := k.rockets[id]
		if s, ok := t.at(k.t, gap); ok && k.t <= float64(t.s[len(t.s)-1].Tick) {
			f.rockets = append(f.rockets, netclient.RenderedProjectile{ID: id, Owner: t.owner, Weapon: t.weapon, X: s.X, Y: s.Y, Angle: s.Angle})
		}
	}
	return f
}

func sortedIDs(m map[uint16]*camTrack) []uint16 {
	ids := make([]uint16, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// pressedAny reports whether a key, a mouse button or a finger went down
// this frame (not one held since before): what skips the kill cam.
func pressedAny() bool {
	keyBuf = inpututil.AppendJustPressedKeys(keyBuf[:0])
	if len(keyBuf) > 0 {
		return true
	}
	touchBuf = inpututil.AppendJustPressedTouchIDs(touchBuf[:0])
	if len(touchBuf) > 0 {
		return true
	}
	for _, b := range []ebiten.MouseButton{ebiten.MouseButtonLeft, ebiten.MouseButtonRight, ebiten.MouseButtonMiddle} {
		if inpututil.IsMouseButtonJustPressed(b) {
			return true
		}
	}
	return false
}

var (
	keyBuf   []ebiten.Key
	touchBuf []ebiten.TouchID
)

// Kill cam overlay, pixels.
const killCamBar = 44 // the letterbox bars' height

var colKillCamBar = color.RGBA{0x06, 0x07, 0x09, 0xff}

// draw draws the replay's frame over the screen of v: the arena and the
// players where the replay has them, the camera on the killer, the shots'
// tracers and the explosions, letterbox bars saying what it is and how to
// skip it, and the death card.
func (k *killCam) draw(v *frameView, card *deathCard, players *playersLayer) {
	k.shown++
	f := k.frame()
	w := &v.worldView
	w.view.Rendered, w.view.Held, w.view.Projectiles = f.others, nil, f.rockets
	w.noSelf, w.showHitboxes, w.showError, w.corpses = true, false, 0, true
	w.camX, w.camY = game.Camera(w.view.Map.Width, w.view.Map.Height, k.focusX, k.focusY, w.W, w.H)
	arenaLayer{}.draw(w)
	k.drawEvents(w)
	players.drawProjectiles(w)
	players.draw(w, false, false)
	for _, e := range f.others {
		if e.ID == k.killer && e.Alive {
			batch.ring(f32(e.X-w.camX), f32(e.Y-w.camY), 30, 3, palette.HPBad) // who to watch
		}
	}
	if s := f.self; f.haveSelf && s.Alive {
		drawCharacter(s.X-w.camX, s.Y-w.camY, s.Angle, selfColour(&w.view), heldWeapon(&w.view, w.view.ID))
		drawText(w.screen, "you", 13, true, s.X-w.camX, s.Y-w.camY-42, 1, palette.Me)
	}
	b := &batch
	b.use(v.screen)
	b.rect(0, 0, f32(v.W), killCamBar, colKillCamBar)
	b.rect(0, f32(v.H-killCamBar), f32(v.W), killCamBar, colKillCamBar)
	// The replay's progress along the top bar's lower edge.
	from := k.end - k.ticks(killCamHold) - k.ticks(killCamSpan)
	frac := math.Max(0, math.Min(1, (k.t-from)/(k.end-from)))
	b.rect(0, killCamBar-3, f32(v.W*frac), 3, palette.HPBad)
	drawText(v.screen, "KILL CAM", 22, true, 20, 11, 0, palette.HPBad)
	drawText(v.screen, "any key or tap: skip", 16, false, v.W-20, 14, 2, palette.Dim)
	card.draw(v, v.H-killCamBar-card.height()-16, false)
}

// drawEvents draws the replayed shots' tracers and explosions' rings
// around the replay's tick.
func (k *killCam) drawEvents(w *worldView) {
	b := &batch
	tracer, blast := k.ticks(killCamTracer), k.ticks(killCamBlast)
	for _, ev := range k.events {
		age := k.t - float64(ev.tick)
		if age < 0 {
			break
		}
		switch {
		case ev.kind == proto.EvShot && age <= tracer:
			col := palette.TracerOther
			if ev.mine {
				col = palette.TracerMe
			}
			b.line(f32(ev.x0-w.camX), f32(ev.y0-w.camY), f32(ev.x1-w.camX), f32(ev.y1-w.camY), 2, fade(col, 1-age/tracer))
		case ev.kind == proto.EvExplode && age <= blast:
			r := math.Max(ev.r, 24) * (0.3 + 0.7*age/blast)
			b.ring(f32(ev.x0-w.camX), f32(ev.y0-w.camY), f32(r), 4, fade(color.RGBA{0xff, 0xb0, 0x50, 0xff}, 1-age/blast))
		}
	}
}

// drawKillCam draws a frame of the game while the kill cam shows: the
// replay, then the chat and the connection warning over it as in play.
func (p *playScene) drawKillCam(v *frameView) {
	p.cam.draw(v, &p.card, &p.players)
	p.c.MarkDrawn()
	p.g.chat.draw(v)
	p.g.stats.trouble.draw(v)
}
