package game

import (
	"fmt"

	"tickshot/shared"
)

// Spectators: players without a body (Source's spectator team, QuakeWorld's
// spectators). A spectator keeps its id, name, kills and deaths, but it is
// not in Players: it has no hitbox, never spawns, is never hit, its
// commands are not run, and it takes no part in the match (frag and time
// limits look at Players only). World.Spectators holds them, sorted by ID;
// ids are unique across both lists.

// AddSpectator adds a spectator named name (made unique by the caller with
// UniqueName) and announces it with EvJoin, as AddPlayer does a player.
func (w *World) AddSpectator(name string) *Player {
	id := w.newID()
	p := &Player{ID: id, Name: name, State: shared.PlayerState{Dead: true}, Team: TeamSpectator}
	w.insertSpectator(p)
	w.emit(Event{Kind: EvJoin, A: id, Text: name, Value: int(TeamSpectator)})
	return p
}

// Spectate takes player id's body out of the world: it becomes a spectator
// (Team TeamSpectator, announced with EvTeam) with its kills and deaths
// kept. Its projectiles in flight harm no one (as when a player leaves).
// Bots cannot spectate.
func (w *World) Spectate(id uint16) (*Player, error) {
	i := w.PlayerIndex(id)
	if i < 0 {
		if w.Spectator(id) != nil {
			return nil, fmt.Errorf("already spectating")
		}
		return nil, fmt.Errorf("no player %d", id)
	}
	p := w.Players[i]
	if p.Bot {
		return nil, fmt.Errorf("bots do not spectate")
	}
	w.removePlayerAt(i)
	if p.Alive() {
		// Leaving play counts as a death for the respawn delay: spectate
		// then join is no instant respawn at full health (a dead player
		// keeps the RespawnTick it had).
		p.RespawnTick = w.Tick + uint32(shared.Ticks(RespawnDelayMs, w.TickRate))
	}
	p.State = shared.PlayerState{Dead: true, Weapon: p.State.Weapon}
	p.Health, p.ProtectedUntil = 0, 0
	w.insertSpectator(p)
	w.setTeam(p, TeamSpectator, "")
	return p, nil
}

// JoinGame brings spectator id back into play: it spawns as after a death
// (at the spawn point farthest from live enemies, with spawn protection;
// at once, or, when it left play less than RespawnDelayMs ago, when that
// delay since it left is over, so that spectate and join heal no one),
// its kills and deaths as they were, and EvTeam announces its team: in team
// deathmatch want if that is a playing team that mp_autoteambalance allows,
// else the smaller team; in deathmatch none. The caller checks for a free
// slot.
func (w *World) JoinGame(id uint16, want Team) (*Player, error) {
	p := w.takeSpectator(id)
	if p == nil {
		return nil, fmt.Errorf("not spectating")
	}
	t := TeamNone
	if w.teamPlay {
		t = want
		if !t.Playing() || (w.Rules.AutoTeamBalance && w.TeamSize(t)+1-w.TeamSize(t.Other()) >= 2) {
			t = w.smallerTeam(nil)
		}
	}
	w.setTeam(p, t, "")
	if w.Tick >= p.RespawnTick {
		w.spawn(p)
	} // else it left play (or died) within RespawnDelayMs: respawn spawns it at RespawnTick
	w.insertPlayer(p)
	return p, nil
}
