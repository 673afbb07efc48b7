package proto

import (
	"fmt"
	"math"
	"strings"

	"tickshot/game"
	"tickshot/shared"
)

// MsgType is the first byte of every message: an index into the message
// table (msgTypes).
type MsgType uint8

// Message types: the type bytes of docs/PROTOCOL.md §3, dense from 1. Each
// has its row in msgTypes.
const (
	MsgHello      MsgType = 1  // client -> server: first message
	MsgAccept     MsgType = 2  // server -> client: joined
	MsgReject     MsgType = 3  // server -> client: not joined, with a reason
	MsgCmds       MsgType = 4  // client -> server: usercmds and snapshot ack
	MsgSnapshot   MsgType = 5  // server -> client: world state
	MsgDisconnect MsgType = 6  // both: leaving, with a reason
	MsgSettings   MsgType = 7  // client -> server: changed rates (cl_updaterate, rate, ...)
	MsgCommand    MsgType = 8  // client -> server: a console command for the server (kill, rcon)
	MsgPrint      MsgType = 9  // server -> client: text for the client's console
	MsgSignal     MsgType = 10 // both: WebRTC signalling (offer, answer, ICE candidate), on the WebSocket only
	MsgMatchStats MsgType = 11 // server -> client: the end of a match: winner, statistics, awards
	MsgMapVote    MsgType = 12 // server -> client: the vote for the next map (candidates, tally)
)

// direction says which side sends a message type.
type direction uint8

// Directions, as docs/PROTOCOL.md §3 writes them.
const (
	clientToServer direction = iota + 1
	serverToClient
	bothWays
)

func (d direction) String() string {
	switch d {
	case clientToServer:
		return "client → server"
	case serverToClient:
		return "server → client"
	case bothWays:
		return "both"
	}
	return "unknown"
}

// msgDef is one row of the message table: what the codec needs to know of
// a message type (ioquake3's netField_t table in msg.c, one row per field,
// drives both MSG_WriteDeltaEntity and MSG_ReadDeltaEntity; here one row
// per message type drives Decode, Check and the names in errors).
type msgDef struct {
	// name is the lowercase name errors and docs/PROTOCOL.md §3 use.
	name string
	// dir is the side that sends it.
	dir direction
	// new returns a zero message of the type, for Decode to fill.
	new func() Message
	// check applies the type's structural limits (Check); every row has one.
	check func(Message) error
	// datagram: the type may travel on the datagram path (a WebRTC data
	// channel without order or retransmission: net/rtc) where the
	// transport has one; every other type takes the reliable path, and
	// arriving on the datagram path is a protocol error.
	datagram bool
	// fast, when set, decodes the forms the sender writes without
	// reflection, reporting false for any other (Decode then asks
	// msgpack): cmdsdecode.go.
	fast func(body []byte, m Message) bool
}

// msgTypes is the message table, indexed by type byte; index 0 is no type.
// A new message type is a constant above, a struct with its Type method,
// a row here, and its section in docs/PROTOCOL.md (TestMessageTableDocumented).
var msgTypes = [...]msgDef{
	MsgHello:      msgRow("hello", clientToServer, checkHello),
	MsgAccept:     msgRow("accept", serverToClient, checkAccept),
	MsgReject:     msgRow("reject", serverToClient, func(m *Reject) error { return checkText("reason", m.Reason, MaxReasonLen) }),
	MsgCmds:       fastRow(datagramRow(msgRow("cmds", clientToServer, checkCmds)), decodeCmdsFast),
	MsgSnapshot:   datagramRow(msgRow("snapshot", serverToClient, checkSnapshot)),
	MsgDisconnect: msgRow("disconnect", bothWays, func(m *Disconnect) error { return checkText("reason", m.Reason, MaxReasonLen) }),
	MsgSettings:   msgRow("settings", clientToServer, func(m *Settings) error { return checkInterpRatio(m.InterpRatio) }),
	MsgCommand:    msgRow("command", clientToServer, checkCommand),
	MsgPrint:      msgRow("print", serverToClient, func(m *Print) error { return checkLines("text", m.Text, MaxPrintLen) }),
	MsgSignal:     msgRow("signal", bothWays, checkSignal),
	MsgMatchStats: msgRow("matchstats", serverToClient, checkMatchStats),
	MsgMapVote:    msgRow("mapvote", serverToClient, checkMapVote),
}

// datagramRow marks a row as one that may travel on the datagram path:
// the messages that are sent again anyway (a snapshot every update, each
// usercmd in the next Cmds' backups) and whose late copy is worth less
// than none.
func datagramRow(d msgDef) msgDef {
	d.datagram = true
	return d
}

// fastRow gives a row a decoder without reflection (msgDef.fast).
func fastRow(d msgDef, fast func([]byte, Message) bool) msgDef {
	d.fast = fast
	return d
}

// Datagram reports whether messages of type t may travel on a transport's
// datagram path (Snapshot, Cmds); the others need the reliable path.
func (t MsgType) Datagram() bool {
	d := msgDefOf(t)
	return d != nil && d.datagram
}

// msgRow makes the row of message struct T (sent as *T) from its typed check.
func msgRow[T any, P interface {
	*T
	Message
}](name string, dir direction, check func(P) error) msgDef {
	d := msgDef{name: name, dir: dir, new: func() Message { return P(new(T)) }}
	if check != nil {
		d.check = func(m Message) error { return check(m.(P)) }
	}
	return d
}

// msgDefOf returns the row of type byte t, or nil for a byte that names no
// message type.
func msgDefOf(t MsgType) *msgDef {
	if int(t) >= len(msgTypes) || msgTypes[t].new == nil {
		return nil
	}
	return &msgTypes[t]
}

// String is the type's lowercase name from the message table ("hello"), or
// "unknown".
func (t MsgType) String() string {
	if d := msgDefOf(t); d != nil {
		return d.name
	}
	return "unknown"
}

// Check validates the structural limits of a decoded message: string
// lengths and UTF-8, slice lengths, the interpolation ratio (the check of
// its row in the message table). Rates outside their ranges are clamped by
// the server (ClampRates), game-rule ranges of usercmds checked by
// ValidateUserCmd, which needs the tick rate.
func Check(m Message) error {
	d := msgDefOf(m.Type())
	if d == nil {
		return fmt.Errorf("unknown message type %d", m.Type())
	}
	return d.check(m)
}

func checkHello(m *Hello) error {
	if err := checkName(m.Name); err != nil {
		return err
	}
	if err := checkInterpRatio(m.InterpRatio); err != nil {
		return err
	}
	if err := checkColor(m.Color); err != nil {
		return err
	}
	return checkText("password", m.Password, MaxPasswordLen)
}

func checkColor(c uint8) error {
	if c > MaxColor {
		return fmt.Errorf("colour %d outside [0, %d]", c, MaxColor)
	}
	return nil
}

func checkInterpRatio(r float32) error {
	if math.IsNaN(float64(r)) || r < 0 || r > MaxInterpRatio {
		return fmt.Errorf("cl_interp_ratio %v outside [0, %d]", r, MaxInterpRatio)
	}
	return nil
}

func checkCommand(m *Command) error {
	if err := checkText("command", m.Text, MaxCommandLen); err != nil {
		return err
	}
	return checkText("password", m.Password, MaxPasswordLen)
}

func checkAccept(m *Accept) error {
	if err := checkText("map", m.Map, 64); err != nil {
		return err
	}
	if len(m.Cvars) > 64 {
		return fmt.Errorf("%d cvars, limit 64", len(m.Cvars))
	}
	for _, c := range m.Cvars {
		if err := checkText("cvar", c.Name+c.Value, 128); err != nil {
			return err
		}
	}
	return nil
}

func checkCmds(m *Cmds) error {
	if len(m.Cmds) > MaxCmdsPerMsg {
		return fmt.Errorf("%d usercmds in one message, limit %d", len(m.Cmds), MaxCmdsPerMsg)
	}
	for i := 1; i < len(m.Cmds); i++ {
		if m.Cmds[i].CommandNumber <= m.Cmds[i-1].CommandNumber {
			return fmt.Errorf("usercmds out of order: %d after %d", m.Cmds[i].CommandNumber, m.Cmds[i-1].CommandNumber)
		}
	}
	if n := len(m.AckAges); n != 0 && n != len(m.Cmds) {
		return fmt.Errorf("%d ack ages for %d usercmds", n, len(m.Cmds))
	}
	for i, age := range m.AckAges {
		if uint32(age) > m.Ack {
			return fmt.Errorf("usercmd %d made %d snapshots before ack %d", m.Cmds[i].CommandNumber, age, m.Ack)
		}
		if i > 0 && m.Ack-uint32(age) < m.Ack-uint32(m.AckAges[i-1]) {
			return fmt.Errorf("usercmd %d made with an older snapshot than the one before it", m.Cmds[i].CommandNumber)
		}
	}
	return nil
}

func checkSnapshot(m *Snapshot) error {
	if int(m.Self.Weapon) >= shared.NumWeapons {
		return fmt.Errorf("weapon %d does not exist", m.Self.Weapon)
	}
	if len(m.Self.Ammo) > shared.NumWeapons {
		return fmt.Errorf("%d ammo counts, limit %d", len(m.Self.Ammo), shared.NumWeapons)
	}
	if m.Self.Armour > game.MaxArmour {
		return fmt.Errorf("armour %d over %d", m.Self.Armour, game.MaxArmour)
	}
	if most := shared.Ticks(game.DoubleDamageMs, shared.MaxTickRate); m.Self.PowerTicks > most {
		return fmt.Errorf("%d ticks of double damage, limit %d", m.Self.PowerTicks, most)
	}
	if most := shared.DashCooldownTicks(shared.MaxTickRate); m.Self.DashTicks > most {
		// Dashing lifts the speed clamp while DashTicks is high: an
		// unchecked value would have the client predict a dash for minutes.
		return fmt.Errorf("%d ticks of dash cooldown, limit %d", m.Self.DashTicks, most)
	}
	if len(m.Scores) > MaxScoreRows {
		return fmt.Errorf("%d scoreboard rows, limit %d", len(m.Scores), MaxScoreRows)
	}
	for _, r := range m.Scores {
		if err := checkText("score name", r.Name, MaxNameLen); err != nil {
			return err
		}
		if r.Team > MaxTeam && r.Team != ScoreGone {
			return fmt.Errorf("team %d of player %d does not exist", r.Team, r.ID)
		}
		if err := checkColor(r.Color); err != nil {
			return fmt.Errorf("player %d: %w", r.ID, err)
		}
	}
	return checkMatchClock(m.Match)
}

func checkSignal(m *Signal) error {
	if m.Kind < SignalOffer || m.Kind > SignalRefuse {
		return fmt.Errorf("signal kind %d outside %d..%d", m.Kind, SignalOffer, SignalRefuse)
	}
	// An SDP's lines end in CRLF (RFC 8866 §5); no other control character.
	return checkLines("signal data", strings.ReplaceAll(m.Data, "\r\n", "\n"), MaxSignalLen)
}
