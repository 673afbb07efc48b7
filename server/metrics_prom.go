//go:build !js

package server

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"tickshot/net/transport"
)

// The Prometheus side of metrics (metrics.go): the registry, the tick time
// histogram and the collector that a scrape of GET /metrics reads. The
// browser build, which runs the server only in the lag lab's page, has a
// stand-in instead (metrics_js.go) and links no Prometheus client.

// exposition is the Prometheus part of metrics.
type exposition struct {
	reg  *prometheus.Registry
	tick prometheus.Histogram // tick processing time, seconds
}

// tickBuckets are the tick time histogram's upper bounds, seconds: 0.1 ms
// to about 0.2 s, doubling (a 64 Hz tick has 15.6 ms).
var tickBuckets = prometheus.ExponentialBuckets(0.0001, 2, 12)

// newMetrics builds the registry of server s.
func newMetrics(s *Server) *metrics {
	m := &metrics{exposition: exposition{reg: prometheus.NewRegistry()}}
	m.tick = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "tickshot_tick_duration_seconds", Help: "Time the server spent processing one tick, seconds.", Buckets: tickBuckets,
	})
	m.reg.MustRegister(m.tick, &collector{s: s},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
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
	descDownloads    = prometheus.NewDesc("tickshot_downloads", "Downloads of the browser client (the wasm) by state: active (being sent, at most --max-downloads) and waiting (for a turn).", []string{"state"}, nil)
	descDownloadBusy = prometheus.NewDesc("tickshot_downloads_refused_total", "Downloads of the browser client answered 503 (Retry-After) after waiting their turn for the longest wait.", nil, nil)
)

func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descPlayers, descMaxPlayers, descTicks, descTicksBehind, descBytes, descPackets,
		descSnapshots, descSnapBytes, descChoked, descKicks, descRefused, descDecodeErrors, descMatches, descTransports, descOversize,
		descDownloads, descDownloadBusy} {
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
	gauge(descDownloads, float64(c.s.downloads.active()), "active")
	gauge(descDownloads, float64(c.s.downloads.waiting.Load()), "waiting")
	counter(descDownloadBusy, c.s.downloads.refused.Load())
}
