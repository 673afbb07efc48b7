// Package proto is Tickshot's wire protocol: the message types of
// docs/PROTOCOL.md, listed once in the message table (msgtable.go: type
// byte, name, constructor, check), encoded with msgpack
// (vmihailenco/msgpack/v5, pinned to v5.3.6, which caps declared lengths),
// validation of every field that arrives, messages over any transport
// (Conn), and connection statistics.
//
// Every message is one binary frame of the transport: one byte of message
// type followed by the msgpack encoding of that type's struct, encoded as an
// array (fields in declaration order). Network input is only ever decoded
// into these concrete structs, never into interface{}.
package proto

import (
	"tickshot/game"
	"tickshot/shared"
)

// ProtocolVersion is bumped on every incompatible change of the messages.
const ProtocolVersion = 18

// Message is any of the message structs: a row of the message table
// (msgTypes, msgtable.go) has its type byte.
type Message interface{ Type() MsgType }

// Limits of fields, checked on receipt.
const (
	MaxNameLen     = 24   // bytes of a player name
	MaxReasonLen   = 256  // bytes of a reject/disconnect reason
	MaxChatLen     = 128  // bytes of a chat message (EvChat)
	MaxCommandLen  = 256  // bytes of a console command
	MaxPasswordLen = 48   // bytes of a join or rcon password
	MaxPrintLen    = 8192 // bytes of a Print (may hold several lines)
	MaxCmdsPerMsg  = 32   // usercmds in one Cmds message (new + backup)
	MaxClientFrame = 4096 // bytes of one client -> server frame
	MaxServerFrame = 1 << 18
	MinRate        = 2500    // rate, bytes/s
	MaxRate        = 1 << 20 // rate, bytes/s
	MinUpdateRate  = 10      // cl_updaterate, snapshots/s
	MinCmdRate     = 10      // cl_cmdrate, command packets/s
	MaxInterpMs    = 500     // cl_interp, ms
	MaxInterpRatio = 5       // cl_interp_ratio
	// MaxColor is the highest player colour (Hello.Color, cl_color): 0
	// is the automatic colours, 1..MaxColor the window's palette.Players.
	MaxColor = 8
)

// Hello is the client's handshake.
type Hello struct {
	_msgpack struct{} `msgpack:",as_array"`
	// Protocol must equal ProtocolVersion.
	Protocol uint16
	// Name is the player's name, 1..MaxNameLen bytes of printable UTF-8.
	Name string
	// Rate is the most the client wants to receive, bytes/s (Source's rate).
	Rate uint32
	// UpdateRate is the snapshots/s wanted (cl_updaterate), at most the tick rate.
	UpdateRate uint16
	// CmdRate is the command packets/s the client sends (cl_cmdrate).
	CmdRate uint16
	// InterpMs is cl_interp in ms.
	InterpMs uint16
	// InterpRatio is cl_interp_ratio (snapshot intervals of interpolation).
	InterpRatio float32
	// NoDelta asks for full snapshots only (Quake 3's cl_nodelta): for
	// comparing bandwidth, or a client that cannot keep baselines.
	NoDelta bool
	// Spectate asks to join as a spectator: no body in the world, a view
	// of every entity (the console's spectate, --spectate).
	Spectate bool
	// Password is the join password (the client's password cvar, the
	// server's sv_password: --password), ≤ MaxPasswordLen bytes; "" when
	// the player has none.
	Password string
	// Color is the player's body colour (cl_color), 0..MaxColor: 0 the
	// automatic colours (you one, the others another), else an index
	// from 1 of the window's player colours. Shown in free-for-all only:
	// a team's colour wins in team play.
	Color uint8
}

// Type implements Message.
func (*Hello) Type() MsgType { return MsgHello }

// The Reject reasons for a join password (the client explains them:
// netclient.Describe).
const (
	RejectNeedPassword  = "this server needs a password"
	RejectWrongPassword = "wrong password"
)

// Settings changes the rates a client announced in its Hello, mid-game
// (the same fields and limits).
type Settings struct {
	_msgpack    struct{} `msgpack:",as_array"`
	Rate        uint32
	UpdateRate  uint16
	CmdRate     uint16
	InterpMs    uint16
	InterpRatio float32
	NoDelta     bool // cl_nodelta, as in Hello
}

// Type implements Message.
func (*Settings) Type() MsgType { return MsgSettings }

// Command is a console command the client asks the server to run: "kill"
// (suicide), or, with the server's rcon password, "rcon <cvar> <value>".
type Command struct {
	_msgpack struct{} `msgpack:",as_array"`
	Text     string
	Password string
}

// Type implements Message.
func (*Command) Type() MsgType { return MsgCommand }

// Print is a line of text for the client's console.
type Print struct {
	_msgpack struct{} `msgpack:",as_array"`
	Text     string
}

// Type implements Message.
func (*Print) Type() MsgType { return MsgPrint }

// Signal is one WebRTC signalling message, carried on the WebSocket (never
// on the datagram path it sets up): the client's offer and ICE candidates,
// the server's answer, or the server's refusal (docs/PROTOCOL.md §5.12,
// net/rtc).
type Signal struct {
	_msgpack struct{} `msgpack:",as_array"`
	Kind     uint8    // SignalOffer .. SignalRefuse
	Data     string   // SDP (offer, answer), a candidate as JSON (RTCIceCandidateInit), or a reason (refuse)
}

// Type implements Message.
func (*Signal) Type() MsgType { return MsgSignal }

// Signal kinds.
const (
	SignalOffer     uint8 = 1 // client -> server: SDP offer of the datagram channel
	SignalAnswer    uint8 = 2 // server -> client: SDP answer, with every server candidate
	SignalCandidate uint8 = 3 // client -> server: one trickled ICE candidate
	SignalRefuse    uint8 = 4 // server -> client: no WebRTC here (Data says why); stay on the WebSocket
)

// MaxSignalLen is the most bytes of a Signal's Data: an SDP or a candidate
// (a client's frame limit, MaxClientFrame, holds it with room to spare).
const MaxSignalLen = 3800

// Cvar is a console variable's name and value.
type Cvar struct {
	_msgpack struct{} `msgpack:",as_array"`
	Name     string
	Value    string
}

// Accept admits a client.
type Accept struct {
	_msgpack struct{} `msgpack:",as_array"`
	// PlayerID is the client's own entity id.
	PlayerID uint16
	// TickRate is sv_tickrate in ticks/s.
	TickRate uint16
	// Map is the map name (loadable with game.LoadMap).
	Map string
	// Tick is the server tick when the client was accepted.
	Tick uint32
	// UpdateRate is the snapshot rate granted, snapshots/s.
	UpdateRate uint16
	// Cvars are the server's public console variables (sv_*).
	Cvars []Cvar
	// Spectator says the client joined as a spectator (no body): it asked
	// to (Hello.Spectate) or every player slot was taken by a human.
	Spectator bool
}

// Type implements Message.
func (*Accept) Type() MsgType { return MsgAccept }

// Reject refuses a client, with a reason for a person to read.
type Reject struct {
	_msgpack struct{} `msgpack:",as_array"`
	Reason   string
}

// Type implements Message.
func (*Reject) Type() MsgType { return MsgReject }

// Disconnect ends a connection, with a reason for a person to read.
type Disconnect struct {
	_msgpack struct{} `msgpack:",as_array"`
	Reason   string
}

// Type implements Message.
func (*Disconnect) Type() MsgType { return MsgDisconnect }

// Cmds carries usercmds, oldest first: the new ones plus up to cl_cmdbackup
// that were already sent, so that a lost packet loses no input.
type Cmds struct {
	_msgpack struct{} `msgpack:",as_array"`
	// Ack is the Seq of the newest snapshot the client has received and
	// applied (0: none). The server deltas later snapshots against it.
	Ack uint32
	// AckBits says which earlier snapshots arrived: bit i set means the
	// snapshot whose Seq is (Seq of the acked one) - 1 - i arrived.
	AckBits uint32
	// Seq numbers the command packets: 1, 2, 3, ... (for loss).
	Seq uint32
	// Cmds are in increasing CommandNumber order, at most MaxCmdsPerMsg.
	Cmds []shared.UserCmd
	// AckAges says, per command of Cmds, which snapshot was the newest the
	// client had applied when it made that command: AckAges[i] is Ack less
	// that snapshot's Seq (0: Ack itself). Empty or nil: every command was
	// made with Ack. Lag compensation rewinds a shot with exactly the
	// snapshots its command was made with, also when the message that first
	// carried it was lost and it arrives as a backup beside a newer Ack.
	AckAges []uint8
}

// MaxAckAge is the largest AckAges entry: a command made more than this
// many snapshots before the message's Ack says MaxAckAge.
const MaxAckAge = 255

// MadeAck returns the acknowledgement command i of m was made with: the
// Seq of the newest snapshot the client had then and the AckBits as they
// stood (the bits of Ack shifted by the age; a client applies no snapshot
// older than its newest, so the snapshots that had arrived then are those
// Ack's bits say arrived). An age larger than Ack gives seq 0.
func (m *Cmds) MadeAck(i int) (seq, bits uint32) {
	age := uint32(0)
	if i < len(m.AckAges) {
		age = uint32(m.AckAges[i])
	}
	if age == 0 {
		return m.Ack, m.AckBits
	}
	if age > m.Ack {
		return 0, 0
	}
	if age < 32 {
		bits = m.AckBits >> age
	}
	return m.Ack - age, bits
}

// Type implements Message.
func (*Cmds) Type() MsgType { return MsgCmds }

// Entity flag bits.
const (
	FlagAlive     uint8 = 1 << iota // the player is alive
	FlagBot                         // the player is a server bot
	_                               // 4: reserved (was "firing", never set)
	FlagProtected                   // spawn protection: the player takes no damage (mp_spawnprotection)
	FlagPowered                     // 16: double damage (the power-up, game.Player.Powered)
)

// SelfState is the receiving client's own authoritative state, everything
// prediction needs (shared.PlayerState) plus health. Positions and
// velocities are fixed-point: whole 1/shared.PosScale world units (per s).
type SelfState struct {
	_msgpack    struct{} `msgpack:",as_array"`
	X, Y        int32
	VX, VY      int32
	Dead        bool
	Weapon      uint8
	Ammo        []uint8 // one per weapon, len shared.NumWeapons
	NextAttack  uint16
	ReloadTicks uint16
	SwitchTicks uint16
	Health      uint8
	Teleport    uint8 // increments at every respawn
	// Protected is spawn protection (mp_spawnprotection): no damage until it
	// runs out or the player fires.
	Protected bool
	// Spectator: the client has no body in the world (it watches). The
	// rest of SelfState is then meaningless: the server sends the zero
	// state with Dead set, and AckCmd still acknowledges its commands,
	// which it does not run.
	Spectator bool
	// Armour is the player's armour, 0..game.MaxArmour: it takes
	// game.ArmourAbsorbPct of each hit (pickups, docs/PROTOCOL.md §5.15).
	Armour uint8
	// PowerTicks is the ticks of double damage left, 0 for none (at most
	// game.DoubleDamageMs at the tick rate).
	PowerTicks uint16
	// DashTicks is the ticks left before the next dash may start
	// (shared.PlayerState.DashTicks); the first of them are the dash.
	DashTicks uint16
}

// EntityState is another player as a snapshot carries it.
type EntityState struct {
	_msgpack struct{} `msgpack:",as_array"`
	ID       uint16
	X, Y     int32 // fixed-point 1/shared.PosScale world units
	Angle    int16 // aim, 1/10000 radians
	Health   uint8
	Flags    uint8 // Flag* bits
	Teleport uint8 // increments at every respawn: restart interpolation
	Weapon   uint8 // the weapon held, 0..shared.NumWeapons-1 (drawn in its hands)
	// Tick is the server tick this state is of: not on the wire, derived
	// (delta.go): the snapshot's tick when the snapshot's entity delta has
	// a record of it (fresh, every entity of a full snapshot), else its
	// baseline's Tick (held: not updated in this snapshot). Interpolation
	// samples it at Tick (Sample(es.Tick)), so a held entity adds none.
	Tick uint32 `msgpack:"-"`
}

// Event kinds.
const (
	EvShot uint8 = 1 // A fired from (X, Y) to (X2, Y2): tracer
	EvHit  uint8 = 2 // A hit B for Value damage at (X2, Y2)
	EvKill uint8 = 3 // A killed B with weapon Value; A stood at (X, Y), B at (X2, Y2)
	EvJoin uint8 = 4 // A joined, Text is the name, Value the Team it joined
	EvLeft uint8 = 5 // A left, Text is the reason
	// EvImpact (sv_showimpacts, to the shooter only): for the shooter's
	// command Cmd, the server traced against B's hitbox rewound to (X, Y);
	// Value is 1 when it hit. The client draws it beside where it drew B.
	EvImpact uint8 = 6
	// EvExplode: A's projectile exploded at (X, Y) with radius Value.
	EvExplode uint8 = 7
	// EvMatchEnd: A won the match (Text is the name; A is 0 for a draw);
	// in team deathmatch A is 0, B is the winning Team (0 for a draw) and
	// Text "red team" or "blue team". Value is the intermission in seconds
	// before the next match starts.
	EvMatchEnd uint8 = 8
	// EvMatchStart: a new match started; scores are reset.
	EvMatchStart uint8 = 9
	// EvChat: player A says Text (at most MaxChatLen bytes, control
	// characters stripped by the server). Value ChatTeam marks say_team in
	// team deathmatch: only A's team receives it.
	EvChat uint8 = 10
	// EvTeam: player A is now on Team Value (team deathmatch: jointeam, or
	// moved by mp_autoteambalance, when Text is "auto-balance").
	EvTeam uint8 = 11
	// EvChangeLevel: the server moved to map Text (changelevel, or the
	// next map of its mapcycle at a match's end): the client loads Text
	// before it applies the snapshot that carries the event, and an
	// EvMatchStart follows. Sent to every client.
	EvChangeLevel uint8 = 12
)

// ChatTeam is EvChat's Value for a team-only message (say_team).
const ChatTeam = 1

// ProjectileState is a projectile in flight. Positions and velocities are
// fixed-point 1/shared.PosScale world units (per second).
type ProjectileState struct {
	_msgpack struct{} `msgpack:",as_array"`
	ID       uint16
	Owner    uint16
	Weapon   uint8
	X, Y     int32
	VX, VY   int32
}

// Event is something the client cannot derive from states. Events ride in
// every snapshot until the client acks a snapshot that carried them (or
// for at most EventLifetime, 2 s, on the server), and are applied once each
// (by ID).
type Event struct {
	_msgpack struct{} `msgpack:",as_array"`
	ID       uint32   // increases by one per event, server-wide
	Tick     uint32
	Kind     uint8
	A, B     uint16
	X, Y     int32 // fixed-point world units
	X2, Y2   int32
	Value    int16
	Text     string
	Cmd      uint32 // the command an EvImpact answers
}

// Sample turns an entity state from the snapshot of tick into an
// interpolation sample. The client (rendering) and the server (its copy of
// each client's view, for lag compensation) both use it, so both feed
// game.History the very same values.
func (es *EntityState) Sample(tick uint32) game.Sample {
	return game.Sample{Tick: tick, X: FromFixed(es.X), Y: FromFixed(es.Y),
		Angle: AngleFromWire(es.Angle), Alive: es.Flags&FlagAlive != 0}
}

// ScoreEntry is one scoreboard row.
type ScoreEntry struct {
	_msgpack struct{} `msgpack:",as_array"`
	ID       uint16
	Name     string
	Kills    int16
	Deaths   int16
	PingMs   uint16
	Bot      bool
	// Team is the player's team, Source's numbering: TeamNone (free-for-all),
	// TeamSpectator, TeamRed or TeamBlue.
	Team uint8
	// Color is the colour the player chose (Hello.Color), 0..MaxColor;
	// 0 for bots.
	Color uint8
}

// Teams, numbered as Source numbers them (0 unassigned, 1 spectator, 2 and 3
// the two playing teams).
const (
	TeamNone      uint8 = 0 // free-for-all (mp_gamemode dm)
	TeamSpectator uint8 = 1 // watching, no body
	TeamRed       uint8 = 2
	TeamBlue      uint8 = 3
	// MaxTeam is the highest valid Team value.
	MaxTeam = TeamBlue
	// ScoreGone in a scoreboard row's Team removes that player's row from
	// the client's table (the player left): the row carries nothing else.
	ScoreGone uint8 = 0xff
)

// MaxScoreRows is the most rows one snapshot's scoreboard delta
// (Snapshot.Scores) may carry; the server sends at most 512 bytes of rows
// (about 45 without names).
const MaxScoreRows = 64

// Snapshot is the world as the server sends it to one client.
type Snapshot struct {
	_msgpack struct{} `msgpack:",as_array"`
	// Tick is the server tick the snapshot describes.
	Tick uint32
	// Seq numbers the snapshots sent to this client: 1, 2, 3, ...
	Seq uint32
	// Baseline is the Seq of the snapshot whose entity frame EntityDelta
	// is relative to: one the client acknowledged; 0 for a full snapshot.
	Baseline uint32
	// AckCmd is the last CommandNumber the server ran for this client.
	AckCmd uint32
	// Self is the client's own authoritative state after AckCmd.
	Self SelfState
	// EntityDelta turns the baseline's frame of other players into this
	// snapshot's (AppendEntityDelta, delta.go): a msgpack bin, which the
	// server always sends, empty (never nil) when nothing changed; a nil
	// one reads as empty (docs/PROTOCOL.md §5.9).
	EntityDelta []byte
	// Entities are the other players, sorted by ID: not on the wire; the
	// server fills them before encoding EntityDelta, the client after
	// applying it (ApplyEntityDelta).
	Entities []EntityState `msgpack:"-"`
	// Projectiles are the projectiles in flight.
	Projectiles []ProjectileState
	// EventData holds the events not yet acked by the client, in the
	// compact form of AppendEvents (events.go): a msgpack bin, nil when
	// there is none.
	EventData []byte
	// Events are EventData's events: not on the wire; the server fills
	// them before encoding, the client after DecodeEvents.
	Events []Event `msgpack:"-"`
	// Scores is a scoreboard delta: the rows of the client's table that
	// changed since the scoreboard it acknowledged, at most MaxScoreRows;
	// the client keeps the table and replaces each row by ID, a row whose
	// Name is "" keeps the name it has, a row whose Team is ScoreGone is
	// removed. In the client's first snapshot, then 1 s after the last
	// when it changed, 500 ms after when rows were left out, else 2 s
	// after; nil otherwise (docs/PROTOCOL.md §5.8).
	Scores []ScoreEntry
	// TickTimeUs is the server's mean tick processing time, microseconds.
	TickTimeUs uint32
	// PingMs is the server's measure of this client's round-trip time, ms.
	PingMs uint16
	// TickStdUs is the standard deviation of the server's tick time, µs.
	TickStdUs uint32
	// PingVarMs is the variation of the server's RTT samples for this
	// client (mean deviation, as TCP's RTTVAR), ms.
	PingVarMs uint16
	// CmdLoss is the share of this client's command packets lost on the
	// way to the server over the last 256, in percent.
	CmdLoss uint8
	// Choke counts the snapshots the client's rate held back since the
	// previous snapshot (one per update interval spent in debt).
	Choke uint16
	// CmdQueue is the number of this client's usercmds the server had
	// received and not yet run when it built this snapshot (after the
	// tick's commands ran), at most 255: commands waiting are input delay
	// (one tick each). A client whose commands keep waiting makes its
	// next commands later (its clock is pulled back).
	CmdQueue uint8
	// CmdTarget is the depth, usercmds, the server aims to keep this
	// client's queue at after a tick (its command buffer: more when the
	// client's command packets arrive with jitter or loss, 0 on a clean
	// link). A client whose queue runs below it makes its commands a
	// little faster, above it a little slower (time dilation).
	CmdTarget uint8
	// Match is the match's clock and limits (matchflow.go): with every
	// scoreboard (Scores, even an empty one), nil in the other snapshots.
	Match *MatchClock
	// PickupDelta turns the baseline's frame of pickups into this
	// snapshot's (AppendPickupDelta, pickupdelta.go): the map's pickups in
	// the client's view, a msgpack bin like EntityDelta, empty (never nil)
	// when nothing changed (docs/PROTOCOL.md §5.15).
	PickupDelta []byte
	// Pickups are the pickups in view, sorted by ID: not on the wire; the
	// server fills them before encoding PickupDelta, the client after
	// applying it (ApplyPickupDelta).
	Pickups []PickupState `msgpack:"-"`
}

// Type implements Message.
func (*Snapshot) Type() MsgType { return MsgSnapshot }

// ToFixed converts world units to wire fixed-point.
func ToFixed(v float64) int32 { return int32(shared.Quantize(v) * shared.PosScale) }

// FromFixed converts wire fixed-point to world units.
func FromFixed(v int32) float64 { return float64(v) / shared.PosScale }

// AngleToWire converts radians to 1/10000 radians.
func AngleToWire(a float64) int16 {
	v := a * 10000
	if v > 32767 {
		v = 32767
	} else if v < -32767 {
		v = -32767
	}
	return int16(v)
}

// AngleFromWire converts 1/10000 radians to radians.
func AngleFromWire(a int16) float64 { return float64(a) / 10000 }

// MakeSelf packs a player state and health for the wire. The ammo counts
// are appended to ammo[:0] (pass nil, or a buffer to reuse).
func MakeSelf(s shared.PlayerState, health int, teleport uint8, protected bool, ammo []uint8) SelfState {
	return SelfState{
		X: ToFixed(s.X), Y: ToFixed(s.Y), VX: ToFixed(s.VX), VY: ToFixed(s.VY),
		Dead: s.Dead, Weapon: s.Weapon, Ammo: append(ammo[:0], s.Ammo[:]...),
		NextAttack: s.NextAttack, ReloadTicks: s.ReloadTicks, SwitchTicks: s.SwitchTicks,
		Health: uint8(health), Teleport: teleport, Protected: protected, DashTicks: s.DashTicks,
	}
}

// State unpacks the predicted part of a SelfState.
func (s *SelfState) State() shared.PlayerState {
	p := shared.PlayerState{
		X: FromFixed(s.X), Y: FromFixed(s.Y), VX: FromFixed(s.VX), VY: FromFixed(s.VY),
		Dead: s.Dead, Weapon: s.Weapon,
		NextAttack: s.NextAttack, ReloadTicks: s.ReloadTicks, SwitchTicks: s.SwitchTicks,
		DashTicks: s.DashTicks,
	}
	copy(p.Ammo[:], s.Ammo)
	return p
}
