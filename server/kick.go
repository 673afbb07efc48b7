package server

import (
	"fmt"
	"strconv"
	"strings"

	"tickshot/game"
	"tickshot/net/proto"
)

// KickAdminReason is the kick reason of the kick command, and of kickid
// without a message (Source says "Kicked by Console").
const KickAdminReason = "by the server operator"

// kickCommand runs the server console commands (Source's) `kick NAME`,
// which kicks the player or spectator of that name (the whole rest of the
// line), and `kickid ID [MESSAGE]`, which kicks the one with that player
// id (shown by `status` as #ID) and tells it MESSAGE. Bots cannot be
// kicked: their number is --bots (tick goroutine).
func (s *Server) kickCommand(cmd, line string) string {
	arg := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), cmd))
	if arg == "" {
		return "usage: kick NAME | kickid ID [MESSAGE]"
	}
	var p *game.Player
	reason := KickAdminReason
	if cmd == "kickid" {
		f := strings.Fields(arg)
		id, err := strconv.ParseUint(strings.TrimPrefix(f[0], "#"), 10, 16)
		if err != nil {
			return fmt.Sprintf("kickid: %q is not a player id (see status)", f[0])
		}
		p = s.w.Player(uint16(id))
		if p == nil {
			p = s.spectatorByID(uint16(id))
		}
		if msg := proto.CleanText(strings.TrimSpace(strings.TrimPrefix(arg, f[0])), 64); msg != "" {
			reason = msg
		}
	} else {
		for _, q := range append(append([]*game.Player(nil), s.w.Players...), s.w.Spectators...) {
			if q.Name == arg {
				p = q
				break
			}
		}
	}
	if p == nil {
		return fmt.Sprintf("%s: no player %q", cmd, arg)
	}
	ss := sessionOf(s.sessions, p.ID)
	if ss == nil {
		return fmt.Sprintf("%s: %s is a bot (their number is --bots)", cmd, p.Name)
	}
	s.kickAs(ss, KickAdmin, reason)
	return fmt.Sprintf("kicked %s (#%d): %s", p.Name, p.ID, reason)
}

func (s *Server) spectatorByID(id uint16) *game.Player {
	for _, p := range s.w.Spectators {
		if p.ID == id {
			return p
		}
	}
	return nil
}
