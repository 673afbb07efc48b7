package server

import (
	"fmt"
	"strconv"
	"strings"

	"tickshot/game"
	"tickshot/net/proto"
)

// Kicks and refusals carry a code beside the sentence the client reads:
// the code, never the words, is what tickshot_kicks_total and
// tickshot_connections_refused_total count (metrics.go), so rewording a
// message cannot move its count (Source's disconnect reasons are text, its
// statistics count by enum). The wire carries the sentence alone.

// kickCode is why a session was kicked (its metric label: kickLabels).
type kickCode uint8

// Kick codes.
const (
	kickFlood          kickCode = iota // more than MaxMsgsPerSecond messages in a second
	kickInvalidUserCmd                 // a usercmd out of range (proto.ValidateUserCmd)
	kickProtocolError                  // a message a client may not send after its Hello
	kickTimeout                        // no usercmds for sv_timeout seconds (squat.go)
	kickRconAuth                       // too many wrong rcon passwords (rcon.go)
	kickAdmin                          // the kick / kickid console command
	numKickCodes
)

// kickLabels are the kick codes' metric labels (KickReasons).
var kickLabels = [numKickCodes + 1]string{
	kickFlood: KickFlood, kickInvalidUserCmd: KickInvalidUserCmd, kickProtocolError: KickProtocolError,
	kickTimeout: KickTimeout, kickRconAuth: KickRconAuth, kickAdmin: KickAdmin,
	numKickCodes: KickOther, // no kick has it: kept so the series stays
}

// refuseCode is why a connection was refused (its metric label:
// refuseLabels).
type refuseCode uint8

// Refusal codes.
const (
	refuseConnLimit        refuseCode = iota // over MaxConns TCP connections (limitListener, listen.go; no Reject)
	refusePendingPerAddr                     // MaxPreHelloPerIP connections from the address wait for their Hello
	refusePendingTotal                       // MaxPreHello connections wait for their Hello
	refuseHandshakeTimeout                   // no Hello within proto.HandshakeTimeout
	refuseNotHello                           // the first message was not a Hello
	refuseProtocolVersion                    // Hello.Protocol is not proto.ProtocolVersion
	refusePasswordNeeded                     // sv_password set, none given
	refusePasswordWrong                      // sv_password set, another given
	refusePlayersPerAddr                     // sv_maxplayers_per_ip reached (squat.go)
	refuseJoinRate                           // the address joins too fast (joinlimit.go)
	refuseServerFull                         // no player nor spectator slot
	refuseSpectatorsFull                     // asked to spectate, no spectator slot
	refuseShutdown                           // the server is stopping
	numRefuseCodes
)

// refuseLabels are the refusal codes' metric labels (RefuseReasons).
var refuseLabels = [numRefuseCodes]string{
	refuseConnLimit: RefuseConnLimit, refusePendingPerAddr: RefusePendingPerAddr, refusePendingTotal: RefusePendingTotal,
	refuseHandshakeTimeout: RefuseHandshakeTimeout, refuseNotHello: RefuseNotHello,
	refuseProtocolVersion: RefuseProtocolVersion, refusePasswordNeeded: RefusePasswordNeeded,
	refusePasswordWrong: RefusePasswordWrong, refusePlayersPerAddr: RefusePlayersPerAddr, refuseJoinRate: RefuseJoinRate,
	refuseServerFull: RefuseServerFull, refuseSpectatorsFull: RefuseSpectatorsFull, refuseShutdown: RefuseOther,
}

// refusal is why a connection is refused: the code the metrics count and
// the sentence the client reads (proto.Reject.Reason). The zero refusal
// (no reason) admits.
type refusal struct {
	code   refuseCode
	reason string
}

// refused reports whether r refuses.
func (r refusal) refused() bool { return r.reason != "" }

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
			p = spectatorByID(s.w, uint16(id))
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
	ss.kick(s, kickAdmin, reason)
	return fmt.Sprintf("kicked %s (#%d): %s", p.Name, p.ID, reason)
}

// spectatorByID is the spectator of w with id, or nil.
func spectatorByID(w *game.World, id uint16) *game.Player {
	for _, p := range w.Spectators {
		if p.ID == id {
			return p
		}
	}
	return nil
}
