//go:build !headless && !js

package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"tickshot/net/portmap"
	"tickshot/server"
)

// menuReach is the port mapping of games hosted from the menu: the router
// is asked for hostAddr's port (TCP and UDP) the first time the Host a
// game page shows (get), so the page can show the invite link before
// Start, and the mapping is kept, renewed, until the program ends
// (release). A server started from the page listens on that port.
type menuReach struct {
	addr string
	log  *slog.Logger

	mu             sync.Mutex
	sentence, link string
	stop           func() // nil: not asked yet
}

// newMenuReach is the reach of games hosted on addr; nil when on is false.
func newMenuReach(addr string, on bool, log *slog.Logger) *menuReach {
	if !on {
		return nil
	}
	return &menuReach{addr: addr, log: log}
}

// get returns the menu's Reach (nil without port mapping).
func (r *menuReach) get() func() (string, string) {
	if r == nil {
		return nil
	}
	return r.outcome
}

// outcome starts the mapping the first time and returns what is known.
func (r *menuReach) outcome() (string, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop == nil {
		_, p, _ := net.SplitHostPort(r.addr) // checked: checkListenAddr
		port, _ := strconv.Atoi(p)
		r.sentence = portmap.Outcome{Port: port}.Sentence() // "Asking your router..."
		r.stop = server.MapPorts(r.addr, r.addr, r.log, func(sentence, link string) {
			r.mu.Lock()
			r.sentence, r.link = sentence, link
			r.mu.Unlock()
		})
	}
	return r.sentence, r.link
}

// release deletes the mappings, if any were asked.
func (r *menuReach) release() {
	if r == nil {
		return
	}
	r.mu.Lock()
	stop := r.stop
	r.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// clipboardCommands are the programs that put their standard input on the
// system clipboard, tried in order (Wayland, X11, macOS, Windows): Ebiten
// has no clipboard of its own.
var clipboardCommands = [][]string{
	{"wl-copy"}, {"xclip", "-selection", "clipboard"}, {"xsel", "--clipboard", "--input"}, {"pbcopy"}, {"clip.exe"}, {"clip"},
}

// copyText puts text on the system clipboard with the first clipboard
// program found; an error when there is none or it failed within 2 s.
func copyText(text string) error {
	for _, c := range clipboardCommands {
		path, err := exec.LookPath(c[0])
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		cmd := exec.CommandContext(ctx, path, c[1:]...)
		cmd.Stdin = strings.NewReader(text)
		err = cmd.Run()
		cancel()
		return err
	}
	return errors.New("no clipboard program found (wl-copy, xclip, xsel, pbcopy or clip)")
}
