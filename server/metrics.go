package server

import (
	"sync"
	"sync/atomic"

	"tickshot/net/proto"
)

// Prometheus metrics (GET /metrics, the text exposition format), one
// registry per Server so that several servers in one process (tests, a
// listen server beside a dedicated one) never share or collide.
//
// The hot path stays cheap: nothing is counted per packet here. Traffic,
// chokes and player counts are read from what the server counts anyway
// (the transports' atomic counters, rateControl, the world), summed by the
// tick goroutine when it publishes /status (4 times a second) and read by
// a scrape from that published copy; rare events (kicks, refusals, decode
// errors, match ends, late ticks) are atomic increments. So /metrics and
// /status always agree, and a scrape never takes the tick goroutine's
// state. Names follow Prometheus' conventions (base units in the name:
// _seconds, _bytes; counters end in _total;
// https://prometheus.io/docs/practices/naming/).

// Kick reason codes: the `reason` label of tickshot_kicks_total. A label
// value is one of these, never text from a client or an operator, so the
// number of series stays fixed whatever is sent (label cardinality is an
// attack surface).
const (
	KickFlood          = "flood"           // more than MaxMsgsPerSecond messages in a second
	KickInvalidUserCmd = "invalid_usercmd" // a usercmd out of range (proto.ValidateUserCmd)
	KickProtocolError  = "protocol_error"  // a message a client may not send after its Hello
	KickTimeout        = "timeout"         // no usercmds for sv_timeout seconds
	KickRconAuth       = "rcon_auth"       // too many wrong rcon passwords (RconKickReason)
	KickAdmin          = "admin"           // the kick / kickid console command
	KickOther          = "other"           // kept for the series; no kick has it now (kicks carry a code)
)

// KickReasons are the values of tickshot_kicks_total's reason label, by
// kickCode (kick.go).
var KickReasons = kickLabels

// Refusal reason codes: the `reason` label of
// tickshot_connections_refused_total (a Reject message, or for
// RefuseConnLimit a TCP connection closed on accept).
const (
	RefuseConnLimit        = "conn_limit"        // over MaxConns TCP connections (closed on accept, no Reject)
	RefusePendingPerAddr   = "pending_per_addr"  // MaxPreHelloPerIP connections from the address wait for their Hello
	RefusePendingTotal     = "pending_total"     // MaxPreHello connections wait for their Hello
	RefuseHandshakeTimeout = "handshake_timeout" // no Hello within proto.HandshakeTimeout
	RefuseNotHello         = "not_hello"         // the first message was not a Hello
	RefuseProtocolVersion  = "protocol_version"  // Hello.Protocol is not proto.ProtocolVersion
	RefusePasswordNeeded   = "password_needed"   // sv_password set, none given
	RefusePasswordWrong    = "password_wrong"    // sv_password set, another given
	RefusePlayersPerAddr   = "players_per_addr"  // sv_maxplayers_per_ip reached
	RefuseJoinRate         = "join_rate"         // the address joins too fast (JoinTooFastReason, joinlimit.go)
	RefuseServerFull       = "server_full"       // no player nor spectator slot
	RefuseSpectatorsFull   = "spectators_full"   // asked to spectate, no spectator slot
	RefuseOther            = "other"             // the server is stopping
)

// RefuseReasons are the values of tickshot_connections_refused_total's
// reason label, by refuseCode (kick.go).
var RefuseReasons = refuseLabels

// decodeErrorPrefix starts the reason a proto.Conn closes with when a
// frame does not decode (proto.Conn.handle); the server's own kicks start
// with "kicked: " instead.
const decodeErrorPrefix = "protocol error: "

// TrafficStatus counts the websocket messages (packets) and their payload
// bytes on /ws since the server started: every connection's, admitted or
// refused, read from the transports' own counters, the farewell
// Disconnect included (websocket control frames are not counted). A
// connection's count is final once it has released its socket.
type TrafficStatus struct {
	BytesIn    uint64 `json:"bytes_in"`
	BytesOut   uint64 `json:"bytes_out"`
	PacketsIn  uint64 `json:"packets_in"`
	PacketsOut uint64 `json:"packets_out"`
}

func (t *TrafficStatus) add(s proto.Stats) {
	t.BytesIn += s.BytesIn
	t.BytesOut += s.BytesOut
	t.PacketsIn += s.PacketsIn
	t.PacketsOut += s.PacketsOut
}

// metrics holds what /metrics reads besides the published Status.
type metrics struct {
	// The Prometheus registry and the tick time histogram (metrics_prom.go;
	// in the browser build a stand-in that counts nothing, metrics_js.go).
	exposition

	// Rare events, counted where they happen (any goroutine).
	kicks        [len(kickLabels)]atomic.Uint64   // by kickCode
	refused      [len(refuseLabels)]atomic.Uint64 // by refuseCode
	decodeErrors atomic.Uint64
	ticksBehind  atomic.Uint64
	matches      atomic.Uint64

	// Connections that were never admitted (refused, or left during the
	// handshake), handed over by their goroutines; traffic moves their
	// counts to handshake once they released their sockets.
	mu         sync.Mutex
	unadmitted []*proto.Conn
	handshake  TrafficStatus

	// Owned by the tick goroutine: traffic and chokes of the sessions that
	// ended and whose connections released their sockets, and those still
	// closing.
	ended       TrafficStatus
	endedChokes uint64
	closing     []*proto.Conn
}

// kick counts a kick by its code.
func (m *metrics) kick(code kickCode) { m.kicks[code].Add(1) }

// refuse counts a refusal by its code.
func (m *metrics) refuse(code refuseCode) { m.refused[code].Add(1) }

// addHandshake counts the traffic of a connection that was never admitted
// (any goroutine; it does not wait for the connection to close).
func (m *metrics) addHandshake(conn *proto.Conn) {
	m.mu.Lock()
	m.unadmitted = append(m.unadmitted, conn)
	m.mu.Unlock()
}

// settle adds to total the counts of the connections in *conns, and moves
// those of the connections that released their sockets (final counts)
// to *ended, dropping them from *conns.
func settle(conns *[]*proto.Conn, ended, total *TrafficStatus) {
	kept := (*conns)[:0]
	for _, c := range *conns {
		select {
		case <-c.Closed():
			ended.add(c.Stats())
		default:
			kept = append(kept, c)
			total.add(c.Stats())
		}
	}
	clear((*conns)[len(kept):])
	*conns = kept
}

// sessionEnded hands an ended session's connection and chokes over to the
// totals (tick goroutine).
func (m *metrics) sessionEnded(ss *session) {
	m.endedChokes += uint64(ss.rate.chokesTotal)
	m.closing = append(m.closing, ss.conn)
}

// traffic sums every connection's counters and the chokes of every
// session, those of sessions included (tick goroutine, when /status is
// published).
func (m *metrics) traffic(sessions []*session) (t TrafficStatus, chokes uint64) {
	settle(&m.closing, &m.ended, &t)
	for _, ss := range sessions {
		t.add(ss.conn.Stats())
		chokes += uint64(ss.rate.chokesTotal)
	}
	t.addTotal(m.ended)
	m.mu.Lock()
	settle(&m.unadmitted, &m.handshake, &t)
	t.addTotal(m.handshake)
	m.mu.Unlock()
	return t, chokes + m.endedChokes
}

func (t *TrafficStatus) addTotal(o TrafficStatus) {
	t.BytesIn += o.BytesIn
	t.BytesOut += o.BytesOut
	t.PacketsIn += o.PacketsIn
	t.PacketsOut += o.PacketsOut
}
