//go:build js

package server

// The browser build runs the server only inside the lag lab's page, where
// nothing scrapes it: metrics keeps its own counters (metrics.go: /status's
// traffic, kicks, refusals, ...) but has no Prometheus registry and no GET
// /metrics, and the tick time histogram counts nothing, so the page links
// no Prometheus client.

// exposition stands in for the Prometheus part of metrics (metrics_prom.go).
type exposition struct {
	tick noHistogram
}

// noHistogram has the one method of prometheus.Histogram that the tick
// calls.
type noHistogram struct{}

// Observe does nothing.
func (noHistogram) Observe(float64) {}

// newMetrics builds the counters of server s.
func newMetrics(*Server) *metrics { return &metrics{} }
