//go:build !headless

package client

import (
	"context"
	"fmt"
	"time"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"tickshot/client/netclient"
	"tickshot/client/palette"
)

// connectTimeout bounds one connection attempt (dial and handshake).
const connectTimeout = 10 * time.Second

// connectScene connects to a server and then hands over to the game
// (playScene); when the attempt fails, or a game it started ends with an
// error, it shows why (trouble.go) and offers to retry.
type connectScene struct {
	addr string
	// err is the reason on the error screen; nil while connecting.
	err error
	// connectedOnce is set when a game on this server was played before
	// the error, so that it reads "Disconnected" rather than "Could not
	// connect".
	connectedOnce bool

	ch      chan connResult
	cancel  context.CancelFunc
	startAt time.Time // when the attempt under way started
	// escText is what Esc does: go back to Options.Home, or quit.
	escText string
}

type connResult struct {
	c   *netclient.Client
	err error
}

// newConnectScene connects to addr when it becomes current.
func newConnectScene(addr string) *connectScene { return &connectScene{addr: addr} }

// newErrorScene shows err for addr, with Enter to reconnect; connectedOnce
// tells whether a game had been played there.
func newErrorScene(addr string, err error, connectedOnce bool) *connectScene {
	return &connectScene{addr: addr, err: err, connectedOnce: connectedOnce}
}

// OnEnter starts the attempt (not on the error screen).
func (s *connectScene) OnEnter(ctx *SceneContext) {
	s.escText = "Esc: quit"
	if ctx.Game.opt.Home != nil {
		s.escText = "Esc: back"
	}
	if s.err == nil {
		s.start(ctx.Game.opt.Config)
	}
}

// OnLeave gives up an attempt still under way; a client that connects
// anyway is closed.
func (s *connectScene) OnLeave(*SceneContext) {
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	ch := s.ch
	go func() {
		if r := <-ch; r.c != nil {
			r.c.Close("connection abandoned")
		}
	}()
}

func (s *connectScene) start(cfg netclient.Config) {
	s.err, s.connectedOnce, s.startAt = nil, false, time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	s.cancel = cancel
	ch := make(chan connResult, 1)
	s.ch = ch
	addr := s.addr
	go func() {
		c, err := netclient.Connect(ctx, netclient.Dial(cfg.Transport), addr, cfg)
		ch <- connResult{c, err}
	}()
}

// retry connects again from the error screen.
func (s *connectScene) retry(ctx *SceneContext) {
	if s.err != nil {
		s.start(ctx.Game.opt.Config)
	}
}

// Update implements Scene.
func (s *connectScene) Update(ctx *SceneContext) error {
	if s.err != nil {
		if inpututil.IsKeyJustPressed(ebiten.KeyEnter) {
			s.retry(ctx)
		}
		if inpututil.IsKeyJustPressed(ebiten.KeyEscape) || inpututil.IsKeyJustPressed(ebiten.KeyQ) {
			ctx.Home()
		}
		return nil
	}
	select {
	case r := <-s.ch:
		s.cancel()
		s.cancel = nil
		if r.err != nil {
			s.err = r.err
			return nil
		}
		fc := ctx.Game.cv.fakeConditions()
		r.c.SetFakeConditions(fc)
		ctx.Print(fmt.Sprintf("connected to %s: map %s, %d ticks/s, you are #%d", s.addr, r.c.View().Map.Name, r.c.View().TickRate, r.c.View().ID))
		if w := fakeLagWarning(r.c.View().Accept.Cvars, fc); w != "" {
			ctx.Print(w)
		}
		ctx.Play(r.c, s.addr)
	default:
	}
	if inpututil.IsKeyJustPressed(ebiten.KeyEscape) {
		ctx.Home()
	}
	return nil
}

// Draw implements Scene.
func (s *connectScene) Draw(screen *ebiten.Image) {
	screen.Fill(palette.BG)
	W, H := float64(screen.Bounds().Dx()), float64(screen.Bounds().Dy())
	if s.err != nil {
		s.drawError(screen, W, H) // trouble.go
		return
	}
	drawText(screen, "TICKSHOT", 48, true, W/2, H/2-80, 1, palette.Me)
	drawText(screen, fmt.Sprintf("Connecting to %s ...", s.addr), 20, false, W/2, H/2, 1, palette.Text)
	// Progress: after a second, how long the attempt has taken of the
	// connectTimeout it may take (whole seconds, so the text is laid out
	// once a second).
	if el := time.Since(s.startAt); el >= time.Second && !s.startAt.IsZero() {
		drawText(screen, fmt.Sprintf("%d s of %d", int(el.Seconds()), int(connectTimeout.Seconds())), 16, false, W/2, H/2+28, 1, palette.Dim)
	}
	drawText(screen, s.escText, 16, false, W/2, H/2+56, 1, palette.Dim)
}

// report fills the phase and the error of r.
func (s *connectScene) report(r *Report) {
	r.Phase, r.ConnectedOnce = "connecting", s.connectedOnce
	if s.err != nil {
		r.Phase = "error"
		r.Error, r.ErrorDetail = s.errorText(), s.err.Error()
	}
}
