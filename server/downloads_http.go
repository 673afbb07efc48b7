//go:build !js

package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"
)

// gate wraps a download's handler (web.Client.RegisterGated: the wasm) in
// the cap: it waits for a slot (downloads.go), then gives the response a
// whole write timeout of its own from then (withDeadlines set one from the
// request's start, which the wait used up), and answers 503 with
// Retry-After when the wait ran out.
func (d *downloadSlots) gate(write time.Duration) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if err := d.acquire(r.Context()); err != nil {
				if errors.Is(err, errDownloadsBusy) {
					w.Header().Set("Retry-After", strconv.Itoa(DownloadRetryAfter))
					http.Error(w, "the server is sending the game to many players at once; try again in a few seconds", http.StatusServiceUnavailable)
				}
				return
			}
			defer d.release()
			_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(write))
			h.ServeHTTP(w, r)
		})
	}
}
