package server

import (
	"math"
	"runtime"
	"sort"
	"time"

	"tickshot/net/proto"
)

// Status is the JSON body of GET /status.
type Status struct {
	Name       string  `json:"name"` // the server's name (Hostname)
	Map        string  `json:"map"`
	TickRate   int     `json:"tickrate"`
	Tick       uint32  `json:"tick"`
	UptimeSec  float64 `json:"uptime_s"`
	MaxPlayers int     `json:"maxplayers"`
	// Spectators is how many clients watch without a body: they are not
	// in Players and do not count against MaxPlayers (SpectatorList
	// names them).
	Spectators int `json:"spectators"`
	// Protocol is the protocol version (proto.ProtocolVersion): a client
	// of another version cannot join.
	Protocol int `json:"protocol"`
	// Password says whether a join password is needed (never the password).
	Password   bool           `json:"password"`
	TickTimeUs TickTimeStatus `json:"tick_time_us"`
	Players    []PlayerStatus `json:"players"`
	// SpectatorList are the spectators (Spectators of them, at most
	// MaxSpectators: sv_maxspectators).
	SpectatorList []PlayerStatus `json:"spectator_list"`
	MaxSpectators int            `json:"maxspectators"`
	Snapshots     SnapshotStatus `json:"snapshots"`
	LagComp       LagCompStatus  `json:"lag_compensation"`
	// Goroutines is the server process's goroutine count
	// (runtime.NumGoroutine) when the status was published: a few per
	// connection plus a fixed number, so a count that keeps growing at a
	// steady player count is a leak (`make soak` watches it).
	Goroutines int `json:"goroutines"`
	// Traffic counts the messages and bytes on /ws (metrics.go).
	Traffic TrafficStatus `json:"traffic"`
}

// LagCompStatus counts the lag-compensated hitscan shots since the server
// started: rewound to the render time the shooter's command claimed, or
// with the claim refused as not credible (the server's own estimate used
// instead), and those limited by sv_maxunlag (counted in either).
type LagCompStatus struct {
	Shots   uint64 `json:"shots"`
	Claimed uint64 `json:"claimed"`
	Refused uint64 `json:"refused"`
	Clamped uint64 `json:"clamped"`
}

// SnapshotStatus counts the snapshots sent to all clients since the
// server started: full ones (no baseline) and deltas, and their bytes.
type SnapshotStatus struct {
	Full       uint64 `json:"full"`
	Delta      uint64 `json:"delta"`
	FullBytes  uint64 `json:"full_bytes"`
	DeltaBytes uint64 `json:"delta_bytes"`
	MaxBytes   int    `json:"max_bytes"` // the largest snapshot, bytes
	// Choked counts the snapshots held back because a client's rate
	// (bytes/s) was used up (rateControl).
	Choked uint64 `json:"choked"`
}

// TickTimeStatus is the distribution of tick processing time over the last
// tickStatsWindow ticks, in microseconds.
type TickTimeStatus struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// PlayerStatus is one player in /status.
type PlayerStatus struct {
	ID     uint16 `json:"id"`
	Name   string `json:"name"`
	PingMs int    `json:"ping_ms"`
	Kills  int    `json:"kills"`
	Deaths int    `json:"deaths"`
	Bot    bool   `json:"bot"`
	Alive  bool   `json:"alive"`
	// CmdQueue is the usercmds received from this player and not yet run
	// (input delay of one tick each); 0 for a bot.
	CmdQueue int `json:"cmd_queue"`
	// CmdsDropped counts this player's usercmds refused because its queue
	// held CmdBacklogMs of them already.
	CmdsDropped int `json:"cmds_dropped"`
	// Transport is how the player's messages travel (transport.Kind*):
	// "webrtc" while its data channel carries snapshots and usercmds,
	// "websocket" otherwise; empty for a bot.
	Transport string `json:"transport,omitempty"`
	// CmdTarget is the depth its queue is kept at (the command buffer
	// its arrival jitter and loss call for, cmdBufferTarget).
	CmdTarget int `json:"cmd_target"`
	// CmdsLost counts its usercmds that never arrived (every copy of
	// them lost: a command number skipped when a later one ran).
	CmdsLost int `json:"cmds_lost"`
	// CmdJitterMs is the arrival jitter of its command packets, ms
	// (RFC 3550's J).
	CmdJitterMs float64 `json:"cmd_jitter_ms"`
}

const tickStatsWindow = 512

type tickStats struct {
	ring [tickStatsWindow]time.Duration
	n    int
	sum  time.Duration
}

func (t *tickStats) add(d time.Duration) {
	i := t.n % tickStatsWindow
	t.sum += d - t.ring[i]
	t.ring[i] = d
	t.n++
}

func (t *tickStats) meanUs() float64 {
	n := min(t.n, tickStatsWindow)
	if n == 0 {
		return 0
	}
	return float64(t.sum.Microseconds()) / float64(n)
}

func (t *tickStats) stdUs() float64 {
	n := min(t.n, tickStatsWindow)
	if n < 2 {
		return 0
	}
	mean := t.meanUs()
	var ss float64
	for i := 0; i < n; i++ {
		d := float64(t.ring[i])/float64(time.Microsecond) - mean
		ss += d * d
	}
	return math.Sqrt(ss / float64(n-1))
}

func (t *tickStats) summary() TickTimeStatus {
	n := min(t.n, tickStatsWindow)
	if n == 0 {
		return TickTimeStatus{}
	}
	v := make([]float64, n)
	for i := 0; i < n; i++ {
		v[i] = float64(t.ring[i]) / float64(time.Microsecond)
	}
	sort.Float64s(v)
	q := func(p float64) float64 { return math.Round(v[min(int(p*float64(n)), n-1)]*10) / 10 }
	return TickTimeStatus{Mean: math.Round(t.meanUs()*10) / 10, P50: q(0.5), P99: q(0.99), Max: q(1)}
}

func (s *Server) publishStatus() {
	st := Status{
		Name: s.cfg.Hostname, Map: s.w.Map.Name, TickRate: s.cfg.TickRate, Tick: s.w.Tick, Snapshots: s.snap.stats, LagComp: s.rewinder.stats,
		UptimeSec:  math.Round(time.Since(s.start).Seconds()*10) / 10,
		MaxPlayers: s.cfg.MaxPlayers, Protocol: proto.ProtocolVersion, Password: s.cfg.Password != "", TickTimeUs: s.tickStats.summary(),
		Players:    make([]PlayerStatus, 0, len(s.w.Players)),
		Goroutines: runtime.NumGoroutine(),
	}
	byID := sessionsByID(s.sessions)
	for _, p := range s.w.Players {
		ps := PlayerStatus{ID: p.ID, Name: p.Name, Kills: p.Kills, Deaths: p.Deaths, Bot: p.Bot, Alive: p.Alive()}
		ss := byID[p.ID]
		if ss != nil {
			ps.CmdQueue, ps.CmdsDropped, ps.CmdTarget = ss.cmds.depth(), ss.cmds.dropped, ss.cmds.target
			ps.CmdJitterMs, ps.CmdsLost = math.Round(ss.cmds.jitter.Ms()*10)/10, ss.cmds.lost
		}
		st.Players = append(st.Players, withSession(ps, ss))
	}
	st.Traffic, st.Snapshots.Choked = s.metrics.traffic(s.sessions) // metrics.go
	st.Spectators, st.MaxSpectators = len(s.w.Spectators), s.vars.maxSpectators.Get()
	st.SpectatorList = make([]PlayerStatus, 0, len(s.w.Spectators))
	for _, p := range s.w.Spectators {
		ps := PlayerStatus{ID: p.ID, Name: p.Name, Kills: p.Kills, Deaths: p.Deaths}
		st.SpectatorList = append(st.SpectatorList, withSession(ps, byID[p.ID]))
	}
	s.statusMu.Lock()
	s.status = st
	s.statusMu.Unlock()
}

// withSession adds to a player's row what its session knows (nil for a
// bot): the ping and the transport.
func withSession(ps PlayerStatus, ss *session) PlayerStatus {
	if ss == nil {
		return ps
	}
	if ss.acks.rttMs > 0 {
		ps.PingMs = int(math.Round(ss.acks.rttMs))
	}
	ps.Transport = ss.conn.Transport()
	return ps
}

// CurrentStatus returns the latest published status (updated 4 times a second).
func (s *Server) CurrentStatus() Status {
	s.statusMu.Lock()
	defer s.statusMu.Unlock()
	return s.status
}
