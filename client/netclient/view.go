package netclient

import (
	"fmt"
	"math"
	"sort"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// View is the client as the window draws one frame of it: an immutable
// value that Client.View hands out (ioquake3's cl_cgame.c hands the game a
// snapshot by value the same way). It is built once after the state
// changed (a Poll that handled something, a Frame's ticks, a setting) and
// shared until the next change; its slices and map are never written
// after they are handed out (new scores or names replace them), so a View
// kept from an earlier frame stays as it was.
type View struct {
	ID       uint16        // the local player's id
	TickRate int           // server ticks/s
	Map      *game.Map     // the map played (replaced on a level change)
	World    *shared.World // Map's walls as prediction runs against them
	Accept   proto.Accept  // the server's Accept (Map follows level changes)
	Config   Config        // the settings in force (Client.SetConfig)

	HaveSnapshot bool               // a snapshot has arrived
	Server       proto.SelfState    // newest own state from the server
	ServerState  shared.PlayerState // Server.State(): what prediction compares against
	Health       int                // Server.Health
	Spectating   bool               // no body (spectate.go): Server.Spectator, or before a snapshot Accept.Spectator
	SnapshotTick uint32             // tick of the newest snapshot applied (0: none)

	// Predicted is the local player's state after the newest command (the
	// newest server state with cl_predict 0); LocalPos adds the decaying
	// correction offset (cl_smooth).
	Predicted      shared.PlayerState
	localX, localY float64
	prevX, prevY   float64   // LocalPos before the newest tick a Frame ran (DrawPos)
	tickAt         time.Time // the real time of that tick (zero: none yet)
	CommandNumber  uint32    // newest command made
	// LastCommand is the newest usercmd made or replayed (a demo's window
	// draws the recorded aim from it); its CommandNumber is 0 when none.
	LastCommand shared.UserCmd
	AckCmd      uint32 // newest command the server ran

	ServerTick float64 // estimated current server tick, fractional
	// RenderTick is where others are drawn: that of the next usercmd
	// (so that the server rewinds to exactly it), or with cl_interpolate 0
	// the newest snapshot's tick.
	RenderTick float64
	InterpMs   float64 // interpolation period, whole ms (the usercmd's lerp_msec)

	Rendered    []RenderedEntity     // every other player at RenderTick, by ID
	Held        []HeldEntity         // every other player the newest snapshot carried, by ID
	Projectiles []RenderedProjectile // projectiles at RenderTick, by ID
	Pickups     []PickupView         // the pickups in view, by ID, the local player's predicted takes away (pickups.go)
	Takes       TakeCount            // the local player's predicted takes so far, for feedback (pickups.go)
	Scores      []proto.ScoreEntry   // the scoreboard, by ID (names filled in)
	names       map[uint16]string    // every name heard, by player id

	Stats          Stats                // what the netcode did so far
	FakeConditions proto.FakeConditions // net_fake* simulated on what arrives (SetFakeConditions)
	Recording      bool                 // a demo is being recorded
}

// HeldEntity is another player as the newest snapshot has it (Rendered
// has it where it is drawn).
type HeldEntity struct {
	ID     uint16
	Newest game.Sample // the newest sample of its history
	Flags  uint8       // proto.Flag* bits
}

// Holds returns player id as the newest snapshot has it, if it carried it.
func (v View) Holds(id uint16) (HeldEntity, bool) {
	i := sort.Search(len(v.Held), func(i int) bool { return v.Held[i].ID >= id })
	if i < len(v.Held) && v.Held[i].ID == id {
		return v.Held[i], true
	}
	return HeldEntity{}, false
}

// LocalPos returns where to draw the local player: the prediction plus the
// decaying correction offset (cl_smooth), world units.
func (v View) LocalPos() (float64, float64) { return v.localX, v.localY }

// DrawPos returns where to draw the local player at real time now (the
// clock Frame is given): LocalPos before the newest tick Frame ran, moved
// towards LocalPos after it by the fraction of a tick that has passed since
// that tick's real time (the render interpolation of Fiedler's "Fix Your
// Timestep!"). A 144 Hz display so shows smooth motion instead of steps of
// a tick, at most one tick (1 s / TickRate) behind the prediction; when a
// Frame ran several ticks, only the last is interpolated over. A jump of
// more than 64 world units (a respawn) is not slid across. Before the
// first Frame tick it is LocalPos. World units.
func (v View) DrawPos(now time.Time) (float64, float64) {
	x, y, px, py := v.localX, v.localY, v.prevX, v.prevY
	a, ok := sinceTick(v.tickAt, now, v.TickRate)
	if !ok || math.Hypot(x-px, y-py) > 64 {
		return x, y
	}
	return px + (x-px)*a, py + (y-py)*a
}

// InterpTicks returns the interpolation period in ticks: InterpMs at TickRate.
func (v View) InterpTicks() float64 { return v.InterpMs * float64(v.TickRate) / 1000 }

// Name returns a player's name from the scoreboard ("player N" when none
// was heard).
func (v View) Name(id uint16) string {
	if n, ok := v.names[id]; ok {
		return n
	}
	return fmt.Sprintf("player %d", id)
}

// Team is player id's team as the scoreboard gives it (ScoreEntry.Team,
// Source's numbering: proto.TeamRed, proto.TeamBlue, ...); proto.TeamNone
// in deathmatch or for a player not on the board yet.
func (v View) Team(id uint16) uint8 { return teamOf(v.Scores, id) }

// Color is player id's chosen colour (proto.ScoreEntry.Color) from the
// scoreboard, 0 (automatic) when it has none or is not on it.
func (v View) Color(id uint16) uint8 {
	if r := rowOf(v.Scores, id); r != nil {
		return r.Color
	}
	return 0
}

// rowOf finds id's row in scores, sorted by ID as the server sends them;
// nil when there is none.
func rowOf(scores []proto.ScoreEntry, id uint16) *proto.ScoreEntry {
	i := sort.Search(len(scores), func(i int) bool { return scores[i].ID >= id })
	if i < len(scores) && scores[i].ID == id {
		return &scores[i]
	}
	return nil
}

// teamOf finds id's row in scores, sorted by ID as the server sends them.
func teamOf(scores []proto.ScoreEntry, id uint16) uint8 {
	if r := rowOf(scores, id); r != nil {
		return r.Team
	}
	return proto.TeamNone
}

// View returns this frame's View. It is rebuilt only after the state
// changed, so calling it several times a frame costs a copy.
//
// The scoreboard and names are the Match's as they are now (ApplyTeamEvent
// changes them between two changes of the rest).
func (c *Client) View() View {
	v := c.views.get(c.buildView)
	v.Scores, v.names = c.match.scores, c.match.names
	return v
}

// viewCache keeps the View built since the client's state last changed:
// the window, bots and tools ask for it several times a frame, and building
// it interpolates every entity. Every Client method that changes what a
// View shows calls stale.
type viewCache struct {
	v  View
	ok bool
}

// stale marks the cached View out of date.
func (vc *viewCache) stale() { vc.ok = false }

// get returns the cached View, built anew with build when stale.
func (vc *viewCache) get(build func() View) View {
	if !vc.ok {
		vc.v, vc.ok = build(), true
	}
	return vc.v
}

func (c *Client) buildView() View {
	rt := c.clk.renderTick(c.cfg.drawAt())
	lerp := c.cfg.lerpOpts(c.tickRate)
	v := View{ID: c.id, TickRate: c.tickRate, Map: c.gameMap, World: c.world, Accept: c.accept, Config: c.cfg,
		HaveSnapshot: c.clk.haveSnap, Server: c.server, ServerState: c.server.State(), Health: int(c.server.Health),
		Spectating: spectating(c.clk.haveSnap, c.accept, c.server), SnapshotTick: c.clk.lastSnap,
		CommandNumber: c.pred.cmdNum, AckCmd: c.pred.ackCmd, ServerTick: c.clk.serverTick(), RenderTick: rt,
		InterpMs: c.cfg.lerpMs(), Rendered: c.interp.rendered(rt, lerp), Projectiles: c.interp.projectilesAt(rt, lerp),
		Held: c.interp.held(), Pickups: c.pick.view(c.cfg.Predict), Takes: c.pick.takes, Stats: statsOf(c.link, c.pred, c.clk), Recording: c.link.recording() != nil,
		FakeConditions: c.link.conn.FakeConditions()}
	v.Predicted, v.localX, v.localY = c.pred.local(c.cfg.Predict, v.ServerState)
	v.prevX, v.prevY, v.tickAt = c.prevLX, c.prevLY, c.clk.lastTickAt
	if cmd, ok := c.pred.last(); ok {
		v.LastCommand = cmd
	}
	return v
}
