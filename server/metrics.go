package server

import (
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tickshot/net/proto"
	"tickshot/net/transport"
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
	reg  *prometheus.Registry
	tick prometheus.Histogram // tick processing time, seconds

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

// tickBuckets are the tick time histogram's upper bounds, seconds: 0.1 ms
// to about 0.2 s, doubling (a 64 Hz tick has 15.6 ms).
var tickBuckets = prometheus.ExponentialBuckets(0.0001, 2, 12)

// newMetrics builds the registry of server s.
func newMetrics(s *Server) *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.tick = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "tickshot_tick_duration_seconds", Help: "Time the server spent processing one tick, seconds.", Buckets: tickBuckets,
	})
	m.reg.MustRegister(m.tick, &collector{s: s},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
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

// handler serves GET /metrics.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// collector exposes the server's own counters at scrape time: the published
// Status (players, traffic, snapshots) and the event counters.
type collector struct{ s *Server }

var (
	descPlayers      = prometheus.NewDesc("tickshot_players", "Players on the server by kind: human and bot players, and spectators.", []string{"kind"}, nil)
	descMaxPlayers   = prometheus.NewDesc("tickshot_max_players", "Player slots (maxplayers), humans and bots together.", nil, nil)
	descTicks        = prometheus.NewDesc("tickshot_ticks_total", "Ticks run since the server started.", nil, nil)
	descTicksBehind  = prometheus.NewDesc("tickshot_ticks_behind_schedule_total", "Ticks that started one tick interval or more after their scheduled time.", nil, nil)
	descBytes        = prometheus.NewDesc("tickshot_network_bytes_total", "Message payload bytes of the players' connections (WebSocket and WebRTC data channel), by direction (in: received, out: sent).", []string{"direction"}, nil)
	descPackets      = prometheus.NewDesc("tickshot_network_packets_total", "Messages on the players' connections (WebSocket and WebRTC data channel), by direction (in: received, out: sent).", []string{"direction"}, nil)
	descSnapshots    = prometheus.NewDesc("tickshot_snapshots_total", "Snapshots sent, by kind (full: no baseline; delta).", []string{"kind"}, nil)
	descSnapBytes    = prometheus.NewDesc("tickshot_snapshot_bytes_total", "Bytes of the snapshots sent, by kind.", []string{"kind"}, nil)
	descChoked       = prometheus.NewDesc("tickshot_snapshots_choked_total", "Snapshots held back because a client's rate (bytes/s) was used up.", nil, nil)
	descKicks        = prometheus.NewDesc("tickshot_kicks_total", "Players and spectators kicked, by reason code.", []string{"reason"}, nil)
	descRefused      = prometheus.NewDesc("tickshot_connections_refused_total", "Connections refused, by reason code.", []string{"reason"}, nil)
	descDecodeErrors = prometheus.NewDesc("tickshot_decode_errors_total", "Connections closed because a frame did not decode as a Tickshot message.", nil, nil)
	descMatches      = prometheus.NewDesc("tickshot_matches_total", "Matches played to their end (frag or time limit).", nil, nil)
	descTransports   = prometheus.NewDesc("tickshot_clients_by_transport", "Connected players and spectators by transport (webrtc: snapshots and usercmds on a data channel; websocket).", []string{"transport"}, nil)
	descOversize     = prometheus.NewDesc("tickshot_datagrams_oversize_total", "Snapshots sent on the WebSocket instead of the data channel because they were over 1200 bytes.", nil, nil)
)

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descPlayers, descMaxPlayers, descTicks, descTicksBehind, descBytes, descPackets,
		descSnapshots, descSnapBytes, descChoked, descKicks, descRefused, descDecodeErrors, descMatches, descTransports, descOversize} {
		ch <- d
	}
}

func (c *collector) Collect(ch chan<- prometheus.Metric) {
	st, m := c.s.CurrentStatus(), c.s.metrics
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	counter := func(d *prometheus.Desc, v uint64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v), labels...)
	}
	bots := 0
	for _, p := range st.Players {
		if p.Bot {
			bots++
		}
	}
	gauge(descPlayers, float64(len(st.Players)-bots), "human")
	gauge(descPlayers, float64(bots), "bot")
	gauge(descPlayers, float64(st.Spectators), "spectator")
	byTransport := map[string]int{transport.KindWebSocket: 0, transport.KindWebRTC: 0}
	for _, p := range append(st.Players[:len(st.Players):len(st.Players)], st.SpectatorList...) {
		if p.Transport != "" {
			byTransport[p.Transport]++
		}
	}
	for kind, n := range byTransport {
		gauge(descTransports, float64(n), kind)
	}
	counter(descOversize, c.s.hs.rtc.Oversize())
	gauge(descMaxPlayers, float64(st.MaxPlayers))
	counter(descTicks, uint64(st.Tick))
	counter(descTicksBehind, m.ticksBehind.Load())
	counter(descBytes, st.Traffic.BytesIn, "in")
	counter(descBytes, st.Traffic.BytesOut, "out")
	counter(descPackets, st.Traffic.PacketsIn, "in")
	counter(descPackets, st.Traffic.PacketsOut, "out")
	counter(descSnapshots, st.Snapshots.Full, "full")
	counter(descSnapshots, st.Snapshots.Delta, "delta")
	counter(descSnapBytes, st.Snapshots.FullBytes, "full")
	counter(descSnapBytes, st.Snapshots.DeltaBytes, "delta")
	counter(descChoked, st.Snapshots.Choked)
	for i, r := range KickReasons {
		counter(descKicks, m.kicks[i].Load(), r)
	}
	refused := m.refused[refuseConnLimit].Load()
	if l, ok := c.s.ln.(*limitListener); ok {
		refused += uint64(l.refused.Load())
	}
	for i, r := range RefuseReasons {
		if refuseCode(i) == refuseConnLimit {
			counter(descRefused, refused, r)
			continue
		}
		counter(descRefused, m.refused[i].Load(), r)
	}
	counter(descDecodeErrors, m.decodeErrors.Load())
	counter(descMatches, m.matches.Load())
}
