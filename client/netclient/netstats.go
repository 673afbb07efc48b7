package netclient

import (
	"time"

	"tickshot/net/proto"
)

// GraphSample is one incoming snapshot as the net_graph draws it.
type GraphSample struct {
	At        time.Time
	Size      int     // bytes
	Lost      int     // snapshots lost just before this one (gap in Seq)
	Choked    int     // snapshots the server held back before this one (rate)
	Events    int     // events it carried (colour: content)
	Entities  int     // players it carried
	PingMs    float64 // RTT the server measured at the time
	LerpMs    float64 // interpolation period at the time
	Corrected bool    // a prediction error was found on this snapshot
}

// GraphLen is how many samples the net_graph keeps (a few seconds at 128/s).
const GraphLen = 512

// NetStats is the client's view of its connection, from real traffic: what
// net_graph shows (Source's vgui_netgraphpanel: in/out sizes and rates,
// loss, choke, jitter, server tick time, prediction errors).
type NetStats struct {
	In, Out proto.Meter // frames received / sent
	Loss    proto.SeqTracker
	Jitter  proto.Jitter
	// ChokeTotal and the recent share of choked snapshots.
	ChokeTotal int
	chokeWin   [256]int
	chokeN     int
	// From the server.
	CmdLossPct float64
	TickUs     float64
	TickStdUs  float64
	PingVarMs  float64 // RTT variation as the server measures it

	// Transport is how messages travel now (transport.KindWebRTC,
	// KindWebSocket): net_graph shows it.
	Transport string
	// DatagramSnapshots counts the snapshots applied that arrived on the
	// datagram path (a WebRTC data channel).
	DatagramSnapshots int

	Graph     [GraphLen]GraphSample
	GraphHead int // index of the next sample
	GraphN    int
	lastCorr  int
}

// ChokePct returns the share of recent due snapshots (sent + choked) that
// the server held back because of rate, in percent.
func (n *NetStats) ChokePct() float64 {
	total, choked := 0, 0
	for i := 0; i < min(n.chokeN, len(n.chokeWin)); i++ {
		total += 1 + n.chokeWin[i]
		choked += n.chokeWin[i]
	}
	if total == 0 {
		return 0
	}
	return 100 * float64(choked) / float64(total)
}

// record adds applied snapshot s, which arrived in packet p, at tickRate
// with interpolation period lerpMs, after corrections prediction errors
// in all.
func (n *NetStats) record(s *proto.Snapshot, p proto.Packet, tickRate int, lerpMs float64, corrections int) {
	before := n.Loss.Total
	if p.Datagram {
		n.DatagramSnapshots++
	}
	n.Loss.Arrive(s.Seq)
	n.Jitter.Add(float64(s.Tick)/float64(tickRate), p.At)
	n.ChokeTotal += int(s.Choke)
	n.chokeWin[n.chokeN%len(n.chokeWin)] = int(s.Choke)
	n.chokeN++
	n.CmdLossPct = float64(s.CmdLoss)
	n.TickUs = float64(s.TickTimeUs)
	n.TickStdUs = float64(s.TickStdUs)
	n.PingVarMs = float64(s.PingVarMs)
	g := GraphSample{At: p.At, Size: p.Size, Lost: n.Loss.Total - before, Choked: int(s.Choke),
		Events: len(s.Events), Entities: len(s.Entities), PingMs: float64(s.PingMs), LerpMs: lerpMs,
		Corrected: corrections != n.lastCorr}
	n.lastCorr = corrections
	n.Graph[n.GraphHead] = g
	n.GraphHead = (n.GraphHead + 1) % GraphLen
	if n.GraphN < GraphLen {
		n.GraphN++
	}
}

// GraphAt returns the i-th newest graph sample (0 = newest).
func (n *NetStats) GraphAt(i int) GraphSample {
	return n.Graph[(n.GraphHead-1-i+2*GraphLen)%GraphLen]
}
