package e2e

import (
	"net/http"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// playerTransport polls /status for up to 5 s until player name's
// transport is want, and returns the last one seen.
func playerTransport(t *testing.T, hc *http.Client, addr, name, want string) string {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline) && got != want; time.Sleep(100 * time.Millisecond) {
		if st, err := getStatus(hc, addr); err == nil {
			for _, p := range st.Players {
				if p.Name == name && !p.Bot {
					got = p.Transport
				}
			}
		}
	}
	return got
}

// TestBrowserWebRTC: headless Chromium joins from the server's page and
// plays on a WebRTC data channel (its RTCPeerConnection, through
// syscall/js): snapshots arrive as datagrams, the game plays on past the
// WebSocket's 15 s watchdog although that socket is silent, and /status
// says webrtc. With
// the server's UDP out of reach (it advertises an address nobody answers
// on, as a firewall that drops UDP would leave it) the browser stays on the
// WebSocket 3 s after its offer and plays on without a pause.
func TestBrowserWebRTC(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e: builds the server and runs a browser")
	}
	for _, c := range []struct {
		name  string
		flags []string
		want  string
	}{
		{"datagrams", nil, "webrtc"},
		{"udp-unreachable", []string{"--public-ip", "192.0.2.1"}, "websocket"},
	} {
		t.Run(c.name, func(t *testing.T) {
			chrome, _, addr, hc := browserSetup(t, append([]string{"--bots", "1"}, c.flags...)...)
			ctx, logs := newBrowser(t, chrome, 2*time.Minute)
			if err := chromedp.Run(ctx, chromedp.Navigate("http://"+addr+"/?name=rtcweb&autoplay=1")); err != nil {
				t.Fatal(err)
			}
			joined := waitState(t, ctx, logs, "the invite link to join", 90*time.Second, func(r gameReport) bool {
				return r.Phase == "playing" && r.Snapshots >= 1
			})
			joinedAt := time.Now()
			if c.want == "webrtc" {
				r := waitState(t, ctx, logs, "snapshots as datagrams", 20*time.Second, func(r gameReport) bool {
					return r.Transport == "webrtc" && r.DatagramSnapshots >= 40
				})
				t.Logf("on webrtc %v after joining: %d of %d snapshots as datagrams", time.Since(joinedAt).Round(time.Millisecond),
					r.DatagramSnapshots, r.Snapshots)
				// Past the WebSocket's 15 s watchdog (ws.ReadTimeout): the
				// socket carries nothing while the datagrams flow, and the
				// game must not take the server for gone.
				time.Sleep(time.Until(joinedAt.Add(17 * time.Second)))
				later := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
				if later.Phase != "playing" || later.Transport != "webrtc" || later.DatagramSnapshots < r.DatagramSnapshots+200 {
					t.Errorf("17 s after joining: phase %q (%s), transport %q, %d datagram snapshots (%d at %v)", later.Phase, later.Error,
						later.Transport, later.DatagramSnapshots, r.DatagramSnapshots, time.Since(joinedAt).Round(time.Second))
				}
			} else {
				// Past the 3 s fallback: the game kept its snapshots coming
				// over the WebSocket the whole time.
				time.Sleep(4 * time.Second)
				r := waitState(t, ctx, logs, "a state", 5*time.Second, func(gameReport) bool { return true })
				if r.Transport != "websocket" || r.DatagramSnapshots != 0 {
					t.Errorf("transport %q, %d datagram snapshots, want websocket and none", r.Transport, r.DatagramSnapshots)
				}
				if got := r.Snapshots - joined.Snapshots; got < 60 {
					t.Errorf("%d snapshots in the 4 s after joining, want about 80 at cl_updaterate 20", got)
				}
			}
			if got := playerTransport(t, hc, addr, "rtcweb", c.want); got != c.want {
				t.Errorf("/status says the browser player's transport is %q, want %q", got, c.want)
			}
		})
	}
}
