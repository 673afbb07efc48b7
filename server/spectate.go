package server

import (
	"fmt"

	"tickshot/game"
	"tickshot/net/proto"
)

// Spectators (issue 10): a session whose player has no body in the world
// (game.World.Spectators). It is admitted as one when it asks
// (proto.Hello.Spectate) or when every player slot is taken by a human, up
// to sv_maxspectators (QuakeWorld's maxspectators; Source has
// mp_allowspectators and SourceTV's tv_maxclients); it becomes one with the
// console's `spectate` and plays again with `join`. A spectator is never
// hit or spawned and takes no part in the match; its usercmds are
// acknowledged (Snapshot.AckCmd) but not run; it receives every entity, as
// nothing culls a camera that can go anywhere, which makes it the natural
// view for a stream; it chats and is on the scoreboard with Team
// proto.TeamSpectator.

// DefaultMaxSpectators is sv_maxspectators' default.
const DefaultMaxSpectators = 8

// admitAs decides how a Hello is admitted to world w, with maxPlayers
// player slots and maxSpecs spectator slots: as a player, as a spectator
// (asked for, or the server is full of humans), or not at all (the
// refusal says why). A bot gives up its slot to a human who wants to play.
func admitAs(w *game.World, maxPlayers, maxSpecs int, h *proto.Hello) (spectate bool, r refusal) {
	specs := len(w.Spectators)
	if h.Spectate {
		if specs >= maxSpecs {
			return false, refusal{refuseSpectatorsFull, fmt.Sprintf("no spectator slots (%d/%d spectators)", specs, maxSpecs)}
		}
		return true, refusal{}
	}
	if len(w.Players) < maxPlayers || w.RemoveBot("bot removed to make room") {
		return false, refusal{}
	}
	if specs < maxSpecs {
		return true, refusal{}
	}
	return false, refusal{refuseServerFull,
		fmt.Sprintf("server is full (%d/%d players, %d/%d spectators)", len(w.Players), maxPlayers, specs, maxSpecs)}
}

// spectate takes a player's body out of the world (console `spectate`).
func (ss *session) spectate(s *Server) {
	if ss.spectator {
		ss.print("spectate: you are already spectating (join: play)")
		return
	}
	if n := len(s.w.Spectators); n >= s.vars.maxSpectators.Get() {
		ss.print(fmt.Sprintf("spectate: no spectator slots (%d/%d spectators)", n, s.vars.maxSpectators.Get()))
		return
	}
	p, err := s.w.Spectate(ss.player.ID)
	if err != nil {
		ss.print("spectate: " + err.Error())
		return
	}
	ss.spectator = true
	s.rewinder.forget(p.ID) // no hitbox to rewind any more
	s.log.Info("player spectating", "name", p.Name, "id", p.ID)
}

// spectatorTeam is jointeam where spectators are concerned: `jointeam
// spectator` (or 1) is spectate, and a spectator's jointeam red, blue or
// auto is join on that team (Source's team menu). It reports whether it
// handled the command.
func (ss *session) spectatorTeam(s *Server, t game.Team) bool {
	switch {
	case t == game.TeamSpectator:
		ss.spectate(s)
	case ss.spectator:
		ss.joinGame(s, t)
	default:
		return false
	}
	return true
}

// joinGame brings a spectator back into play (console `join`; jointeam
// with team want) when there is a slot: a free one, or a bot's.
func (ss *session) joinGame(s *Server, want game.Team) {
	if !ss.spectator {
		ss.print("join: you are already playing")
		return
	}
	if len(s.w.Players) >= s.cfg.MaxPlayers && !s.w.RemoveBot("bot removed to make room") {
		ss.print(fmt.Sprintf("join: server is full (%d/%d players); you are still spectating", len(s.w.Players), s.cfg.MaxPlayers))
		return
	}
	p, err := s.w.JoinGame(ss.player.ID, want)
	if err != nil {
		ss.print("join: " + err.Error())
		return
	}
	ss.spectator = false
	s.log.Info("spectator joined the game", "name", p.Name, "id", p.ID)
}
