//go:build !js

package master

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RegisterTimeout bounds one register: the master's check of /status
// (DefaultCheckTimeout) and the round trips around it.
const RegisterTimeout = 10 * time.Second

// RegisterError is a master's refusal of a register: HTTP Status, the
// master's Code (Code* constants) and its words.
type RegisterError struct {
	Status int
	Code   string
	Msg    string
}

func (e *RegisterError) Error() string {
	if e.Msg == "" {
		return "HTTP " + strconv.Itoa(e.Status)
	}
	return e.Msg
}

// Register sends one register to the master at masterURL (Endpoint adds
// RegisterPath) with client (http.DefaultClient when nil; ctx bounds it)
// and returns the master's reply. Errors: the request failed (wrapped), or
// the master refused (*RegisterError, with the master's reason).
func Register(ctx context.Context, client *http.Client, masterURL string, req RegisterRequest) (RegisterReply, error) {
	if client == nil {
		client = http.DefaultClient
	}
	body, _ := json.Marshal(req)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, Endpoint(masterURL, RegisterPath), bytes.NewReader(body))
	if err != nil {
		return RegisterReply{}, fmt.Errorf("master URL %q: %w", masterURL, err)
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(hr)
	if err != nil {
		return RegisterReply{}, err
	}
	defer resp.Body.Close()
	var rep RegisterReply
	jsonErr := json.NewDecoder(io.LimitReader(resp.Body, 64<<10)).Decode(&rep)
	if resp.StatusCode != http.StatusOK {
		if jsonErr != nil || rep.Error == "" {
			rep.Error = "the master answered " + resp.Status
		}
		return rep, &RegisterError{Status: resp.StatusCode, Code: rep.Code, Msg: rep.Error}
	}
	if jsonErr != nil {
		return rep, fmt.Errorf("the master's answer is not a register reply: %w", jsonErr)
	}
	return rep, nil
}

// RegisterConfig is what a game server registers with its masters.
type RegisterConfig struct {
	// Masters are the masters' URLs (--master, sv_master).
	Masters []string
	// Request is what each register says: the server's HTTP port, and
	// optionally Host and Region.
	Request RegisterRequest
	// After, when not nil, holds the first register back until it is
	// closed (or RegisterEvery has passed): the server's port mapping
	// (--upnp), so that a master does not check the port before the
	// router forwards it and report it unreachable.
	After <-chan struct{}
	// Loopback says the server listens on a loopback address only: a
	// master elsewhere could never reach it, so only masters on loopback
	// (a test, a master on this computer) are registered with, and the
	// others are named in one warning.
	Loopback bool
	// Every is how often to register (RegisterEvery when 0).
	Every time.Duration
	// Logger receives one line per change of each master's outcome
	// (slog.Default() when nil).
	Logger *slog.Logger
	// Client makes the requests (a client with RegisterTimeout when nil).
	Client *http.Client
}

// StartRegister registers with every master of cfg at once and then every
// cfg.Every, each master on a goroutine of its own, until stop is called
// (stop waits for them). It logs a master's first success and each change
// of outcome after it, not every register: a failure repeated every 15 s
// is one line. Without masters it does nothing.
func StartRegister(cfg RegisterConfig) (stop func()) {
	if len(cfg.Masters) == 0 {
		return func() {}
	}
	if cfg.Every <= 0 {
		cfg.Every = RegisterEvery
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Client == nil {
		cfg.Client = &http.Client{Timeout: RegisterTimeout}
	}
	if cfg.Loopback {
		var near, far []string
		for _, u := range cfg.Masters {
			if p, err := url.Parse(u); err == nil && isLoopback(p.Hostname()) {
				near = append(near, u)
			} else {
				far = append(far, u)
			}
		}
		if len(far) > 0 {
			cfg.Logger.Warn("not registered with the master servers: this server listens on loopback only, where nobody else can join; "+
				"listen on :PORT (--addr :27015)", "masters", strings.Join(far, " "))
		}
		cfg.Masters = near
		if len(near) == 0 {
			return func() {}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, u := range cfg.Masters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			registerLoop(ctx, cfg, u)
		}()
	}
	return func() {
		cancel()
		wg.Wait()
	}
}

// isLoopback reports whether host is a loopback IP address or localhost.
func isLoopback(host string) bool {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.IsLoopback()
	}
	return host == "localhost"
}

// registerLoop registers with the master at u until ctx ends.
func registerLoop(ctx context.Context, cfg RegisterConfig, u string) {
	log := cfg.Logger.With("master", u)
	last := "" // the last outcome logged: "listed ADDR" or the error
	if cfg.After != nil {
		wait := time.NewTimer(RegisterEvery)
		select {
		case <-cfg.After:
		case <-wait.C:
		case <-ctx.Done():
		}
		wait.Stop()
	}
	t := time.NewTicker(cfg.Every)
	defer t.Stop()
	for {
		rep, err := Register(ctx, cfg.Client, u, cfg.Request)
		if ctx.Err() != nil {
			return
		}
		outcome := "listed " + rep.Addr
		if err != nil {
			outcome = err.Error()
		}
		if outcome != last {
			logOutcome(log, cfg.Request.Port, cfg.Every, rep, err)
			last = outcome
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// logOutcome writes the line for a register's outcome: listed, or why not
// and what to do.
func logOutcome(log *slog.Logger, port int, every time.Duration, rep RegisterReply, err error) {
	re, refused := err.(*RegisterError)
	switch {
	case err == nil:
		log.Info("listed on the master server: players see it in the internet server list", "addr", rep.Addr)
	case refused && re.Code == CodeUnreachable:
		log.Warn(fmt.Sprintf("the master server could not reach this server from the internet, so players there cannot join either: "+
			"forward TCP and UDP port %d on your router to this computer (docs/HOSTING.md); registering again every %v",
			port, every), "master_said", re.Msg)
	case refused:
		log.Warn("the master server did not list this server", "code", re.Code, "master_said", re.Msg)
	default:
		log.Warn("cannot register with the master server: is the URL right and the master running?", "err", err)
	}
}
