// Package agones lets a Tickshot server follow the game server lifecycle of
// Agones (https://agones.dev), the Kubernetes operator for dedicated game
// servers, by calling the SDK sidecar's REST gateway with net/http (the Go
// SDK speaks gRPC and is not needed for the few calls made here).
//
// The sidecar listens on http://localhost:$AGONES_SDK_HTTP_PORT, a variable
// Agones sets in the game server's container. Paths and bodies are those of
// Agones' REST documentation ("REST Game Server Client API",
// https://agones.dev/site/docs/guides/client-sdks/rest/) and its OpenAPI
// files sdks/swagger/sdk.swagger.json and sdks/swagger/alpha.swagger.json:
//
//	POST /ready                  {}                      the server accepts players
//	POST /health                 {}                      a health ping; Agones wants one at least every spec.health.periodSeconds
//	POST /shutdown               {}                      the game is over: Agones deletes the pod
//	PUT  /alpha/player/capacity  {"count":"16"}          player capacity (alphaCount: int64, as a JSON string)
//	POST /alpha/player/connect   {"playerID":"name"}     a player joined  (answers {"bool":true|false})
//	POST /alpha/player/disconnect {"playerID":"name"}    a player left    (answers {"bool":true|false})
//
// The /alpha/player/* calls are Agones' player tracking, an alpha feature
// behind the PlayerTracking feature gate; they are made only when
// Config.PlayerTracking is set. The sidecar may start after the game server
// (the REST guide says to retry), so Ready is retried until it succeeds.
//
// Nothing here blocks the caller: calls are queued to one goroutine that
// makes them in order, and health pings come from their own goroutine.
// Every request has a timeout; a failing sidecar (refused, timing out,
// answering 5xx) is logged once per kind of failure and never stops the
// game.
package agones

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// EnvHTTPPort is the variable Agones sets to the sidecar's REST port.
const EnvHTTPPort = "AGONES_SDK_HTTP_PORT"

// Defaults.
const (
	// DefaultHealthInterval is the time between health pings: well inside
	// Agones' default spec.health.periodSeconds of 5 s, so one lost ping
	// does not count as a failure.
	DefaultHealthInterval = 2 * time.Second
	// DefaultTimeout bounds one request to the sidecar.
	DefaultTimeout = 2 * time.Second
	// MinHealthInterval and MaxHealthInterval bound Config.HealthInterval.
	MinHealthInterval = 10 * time.Millisecond
	MaxHealthInterval = time.Minute
)

// Retry policy: the wait before the next attempt starts at retryBase and
// doubles up to retryMax (exponential backoff). Ready and Shutdown are
// retried until they succeed or the SDK closes; the other calls are tried
// playerAttempts times.
const (
	retryBase      = 250 * time.Millisecond
	retryMax       = 5 * time.Second
	playerAttempts = 3
	queueLen       = 1024
	maxBody        = 64 << 10 // bytes of an answer read (and discarded)
)

// Config sets up an SDK.
type Config struct {
	// BaseURL is the sidecar's REST gateway, e.g. "http://localhost:9358"
	// (URLFromEnv reads it from AGONES_SDK_HTTP_PORT).
	BaseURL string
	// HealthInterval is the time between health pings, default
	// DefaultHealthInterval, MinHealthInterval..MaxHealthInterval. Keep it
	// under the GameServer's spec.health.periodSeconds.
	HealthInterval time.Duration
	// Timeout bounds each request, default DefaultTimeout.
	Timeout time.Duration
	// PlayerTracking reports players to Agones' player tracking (alpha):
	// the capacity before Ready, then a connect and a disconnect per player.
	PlayerTracking bool
	// Capacity is the player capacity set with PlayerTracking; 0 takes
	// the number the server passes to Ready, the humans it admits at once
	// (maxplayers + sv_maxspectators: spectators are tracked players too).
	Capacity int
	// ShutdownWhenEmpty asks Agones to shut the server down at the end of
	// a match when no player is connected, once at least one has joined
	// (see SDK.MatchEnded).
	ShutdownWhenEmpty bool
	// Logger receives the failures (once per kind) and the lifecycle
	// steps; default slog.Default().
	Logger *slog.Logger
	// Healthy, when set, is asked before each health ping (from the
	// health goroutine only): the ping is sent only when it returns true.
	// Pings come from a goroutine of their own, so without it a server
	// whose game loop hung would still be reported Healthy for ever;
	// TickAdvancing makes one from the server's tick.
	Healthy func() bool
}

// TickAdvancing returns a Config.Healthy that is true while tick (read
// from the health goroutine) has changed within the last stall, and false
// once it has stood still longer: a hung tick loop still serves its last
// /status, but its tick no longer moves. Not safe for concurrent use.
func TickAdvancing(tick func() uint32, stall time.Duration) func() bool {
	var last uint32
	var changed time.Time
	return func() bool {
		now := time.Now()
		if t := tick(); changed.IsZero() || t != last {
			last, changed = t, now
		}
		return now.Sub(changed) < stall
	}
}

// URLFromEnv returns the sidecar's base URL from AGONES_SDK_HTTP_PORT;
// ok is false when the variable is unset or empty (not under Agones), err
// set when it is not a port number.
func URLFromEnv() (url string, ok bool, err error) {
	v := strings.TrimSpace(os.Getenv(EnvHTTPPort))
	if v == "" {
		return "", false, nil
	}
	port, err := strconv.Atoi(v)
	if err != nil || port < 1 || port > 65535 {
		return "", false, fmt.Errorf("%s=%q: want a port number 1..65535", EnvHTTPPort, v)
	}
	return "http://localhost:" + strconv.Itoa(port), true, nil
}

// SDK is the server's side of the Agones lifecycle. Its methods are safe
// for concurrent use and never block on the network.
type SDK struct {
	cfg  Config
	log  *slog.Logger
	http *http.Client

	ops         chan op
	ctx         context.Context
	cancel      context.CancelFunc
	workerDone  chan struct{}
	healthDone  chan struct{}
	healthStart chan struct{}
	startHealth sync.Once
	closeOnce   sync.Once

	mu         sync.Mutex
	connected  map[string]bool // players connected now
	everJoined bool            // a player has joined since the start
	readySent  bool
	shutdown   bool // Shutdown queued
	closed     bool // Close called: nothing more is queued
	logged     map[string]bool
	fails      map[string]int // failed requests by path
	oks        map[string]int // successful requests by path
}

// op is one queued request.
type op struct {
	method, path string
	body         any
	attempts     int // 0: until it succeeds or the SDK closes
}

// New checks cfg and starts the SDK's goroutines; Close stops them.
func New(cfg Config) (*SDK, error) {
	if cfg.BaseURL == "" {
		return nil, errors.New("agones: no sidecar URL")
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.HealthInterval == 0 {
		cfg.HealthInterval = DefaultHealthInterval
	}
	if cfg.HealthInterval < MinHealthInterval || cfg.HealthInterval > MaxHealthInterval {
		return nil, fmt.Errorf("agones: health interval %v outside %v..%v", cfg.HealthInterval, MinHealthInterval, MaxHealthInterval)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Capacity < 0 {
		return nil, fmt.Errorf("agones: player capacity %d: want 0 (the server's) or more", cfg.Capacity)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &SDK{cfg: cfg, log: cfg.Logger, http: &http.Client{Timeout: cfg.Timeout},
		ops: make(chan op, queueLen), ctx: ctx, cancel: cancel,
		workerDone: make(chan struct{}), healthDone: make(chan struct{}), healthStart: make(chan struct{}),
		connected: map[string]bool{}, logged: map[string]bool{}, fails: map[string]int{}, oks: map[string]int{}}
	go a.worker()
	go a.health()
	return a, nil
}

// Ready tells Agones the server accepts players (POST /ready), after
// setting the player capacity (PUT /alpha/player/capacity) with
// PlayerTracking. Both are retried until they succeed (a capacity that the
// sidecar refuses with a 4xx, e.g. player tracking disabled in Agones, is
// given up). Health pings start once the first attempt is over. Only the
// first call counts.
func (a *SDK) Ready(humans int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.readySent {
		return
	}
	a.readySent = true
	if a.cfg.Capacity == 0 {
		a.cfg.Capacity = max(humans, 1)
	}
	a.queue(op{path: "/ready"}) // readyStep
}

// PlayerConnected records that player id joined (POST
// /alpha/player/connect with PlayerTracking). id must be unique among the
// connected players.
func (a *SDK) PlayerConnected(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.connected[id] = true
	a.everJoined = true
	if a.cfg.PlayerTracking {
		a.queue(op{method: http.MethodPost, path: "/alpha/player/connect", body: playerID{id}, attempts: playerAttempts})
	}
}

// PlayerDisconnected records that player id left (POST
// /alpha/player/disconnect with PlayerTracking).
func (a *SDK) PlayerDisconnected(id string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	delete(a.connected, id)
	if a.cfg.PlayerTracking {
		a.queue(op{method: http.MethodPost, path: "/alpha/player/disconnect", body: playerID{id}, attempts: playerAttempts})
	}
}

// MatchEnded is called at the end of every match. With ShutdownWhenEmpty,
// the first match end at which no player is connected, once at least one
// player has joined since the start, queues POST /shutdown (retried until
// it succeeds): Agones then stops the pod (SIGTERM) and the fleet starts a
// fresh server. A server nobody has joined yet stays Ready in the fleet's
// pool however many matches its bots finish.
func (a *SDK) MatchEnded() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.cfg.ShutdownWhenEmpty || a.shutdown || !a.everJoined || len(a.connected) > 0 {
		return
	}
	a.shutdown = true
	a.log.Info("agones: last match over and no player left: asking Agones to shut this server down")
	a.queue(op{method: http.MethodPost, path: "/shutdown", body: struct{}{}})
}

// Close stops the health pings and gives queued calls (a Shutdown, the
// last disconnects) up to wait to be made, then stops.
func (a *SDK) Close(wait time.Duration) {
	a.closeOnce.Do(func() {
		a.mu.Lock()
		a.closed = true
		close(a.ops)
		a.mu.Unlock()
		a.startHealth.Do(func() { close(a.healthStart) })
		select {
		case <-a.workerDone:
		case <-time.After(wait):
		}
		a.cancel()
		<-a.workerDone
		<-a.healthDone
	})
}

// Counts returns how many requests to path succeeded and failed so far.
func (a *SDK) Counts(path string) (ok, failed int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.oks[path], a.fails[path]
}

type playerID struct {
	PlayerID string `json:"playerID"`
}

// queue adds o for the worker; a full queue (a sidecar that hangs) drops
// it rather than blocking the game. Callers hold a.mu.
func (a *SDK) queue(o op) {
	if a.closed {
		return
	}
	select {
	case a.ops <- o:
	default:
		a.logOnce("queue full", "agones: sidecar calls queue full; dropping calls", "path", o.path)
	}
}

// worker makes the queued calls in order.
func (a *SDK) worker() {
	defer close(a.workerDone)
	for o := range a.ops {
		a.do(o)
	}
}

// do makes one call, retrying with backoff (see the retry policy).
func (a *SDK) do(o op) {
	wait := retryBase
	st := readyState{capacity: !a.cfg.PlayerTracking}
	for try := 1; ; try++ {
		var err error
		if o.path == "/ready" {
			err = a.readyStep(&st)
			if try == 1 {
				a.startHealth.Do(func() { close(a.healthStart) })
			}
		} else {
			err = a.request(o.method, o.path, o.body)
		}
		if err == nil {
			if o.path == "/ready" {
				a.log.Info("agones: server Ready", "attempts", try)
			}
			return
		}
		var perm permanentError
		if errors.As(err, &perm) || (o.attempts > 0 && try >= o.attempts) {
			a.mu.Lock()
			defer a.mu.Unlock()
			a.logOnce(o.path+" given up", "agones: sidecar call given up", "path", o.path, "attempts", try, "err", err)
			return
		}
		select {
		case <-a.ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, retryMax)
	}
}

func (a *SDK) capacity() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.cfg.Capacity
}

// readyState is what the Ready step has done.
type readyState struct{ capacity, ready bool }

// readyStep sets the capacity and calls Ready, each until it succeeded; it
// fails when either failed and a retry may help.
func (a *SDK) readyStep(st *readyState) error {
	var capErr error
	if !st.capacity {
		capErr = a.request(http.MethodPut, "/alpha/player/capacity", map[string]string{"count": strconv.Itoa(a.capacity())})
		var perm permanentError
		if capErr == nil || errors.As(capErr, &perm) {
			st.capacity, capErr = true, nil
		}
	}
	if !st.ready {
		if err := a.request(http.MethodPost, "/ready", struct{}{}); err != nil {
			return err
		}
		st.ready = true
	}
	return capErr
}

// health pings POST /health every HealthInterval once Ready was tried,
// until Close, while Config.Healthy (if set) says so. A failed ping is not
// retried: the next one is the retry.
func (a *SDK) health() {
	defer close(a.healthDone)
	select {
	case <-a.healthStart:
	case <-a.ctx.Done():
		return
	}
	t := time.NewTicker(a.cfg.HealthInterval)
	defer t.Stop()
	for {
		if a.ctx.Err() != nil {
			return
		}
		if a.cfg.Healthy == nil || a.cfg.Healthy() {
			_ = a.request(http.MethodPost, "/health", struct{}{})
		} else {
			a.mu.Lock()
			a.logOnce("unhealthy", "agones: the game loop is not advancing: health pings withheld, so Agones marks this server Unhealthy")
			a.mu.Unlock()
		}
		select {
		case <-a.ctx.Done():
			return
		case <-t.C:
		}
	}
}

// permanentError is an answer that a retry cannot change (4xx).
type permanentError struct{ status int }

func (e permanentError) Error() string { return fmt.Sprintf("HTTP status %d", e.status) }

// request makes one call with a JSON body, counts it and logs its failure
// once per kind (path and class: refused, timeout, HTTP status, other).
func (a *SDK) request(method, path string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(a.ctx, a.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, a.cfg.BaseURL+path, strings.NewReader(string(b)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.http.Do(req)
	if err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
		switch {
		case resp.StatusCode >= 500:
			err = fmt.Errorf("HTTP status %d", resp.StatusCode)
		case resp.StatusCode >= 300:
			err = permanentError{resp.StatusCode}
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if err == nil {
		a.oks[path]++
		return nil
	}
	a.fails[path]++
	if a.ctx.Err() == nil {
		a.logOnce(path+" "+failureKind(err), "agones: sidecar call failed (logged once per kind; retried)",
			"method", method, "path", path, "err", err)
	}
	return err
}

// failureKind classes an error for logging once per kind.
func failureKind(err error) string {
	var ne net.Error
	var perm permanentError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "refused"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	case errors.As(err, &perm):
		return strconv.Itoa(perm.status)
	case strings.HasPrefix(err.Error(), "HTTP status "):
		return err.Error()
	}
	return "other"
}

// logOnce logs msg at warning level the first time kind is seen. Callers
// hold a.mu.
func (a *SDK) logOnce(kind, msg string, args ...any) {
	if a.logged[kind] {
		return
	}
	a.logged[kind] = true
	a.log.Warn(msg, args...)
}
