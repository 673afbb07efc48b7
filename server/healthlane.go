//go:build !js

package server

import (
	"context"
	"net"
	"net/http"
	"strconv"
)

// The health lane: connections accepted over MaxConns, up to
// HealthReserveConns of them (httplimits.go), serve /status and /metrics
// alone, so health checks are answered when players and downloads hold
// every connection of the cap.

// spareKey marks a request's context as coming on a spare connection.
type spareKey struct{}

// connContext marks the requests of a spare connection (limitListener).
func connContext(ctx context.Context, c net.Conn) context.Context {
	if lc, ok := c.(*limitConn); ok && lc.spare {
		return context.WithValue(ctx, spareKey{}, true)
	}
	return ctx
}

// isHealthPath reports whether path is a health endpoint, served even on a
// spare connection.
func isHealthPath(path string) bool { return path == "/status" || path == "/metrics" }

// healthLane serves only the health endpoints on spare connections, and
// closes those after one answer.
func (l *limitListener) healthLane(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if spare, _ := r.Context().Value(spareKey{}).(bool); spare {
			w.Header().Set("Connection", "close")
			if !isHealthPath(r.URL.Path) {
				l.refused.Add(1)
				w.Header().Set("Retry-After", strconv.Itoa(DownloadRetryAfter))
				http.Error(w, "the server has too many connections; try again in a few seconds", http.StatusServiceUnavailable)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}
