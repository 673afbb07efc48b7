// Package botclient runs headless network players: real clients (package
// netclient: prediction, reconciliation, interpolation) driven by the same
// bot brain as the server's bots, without rendering. It is the tool for
// end-to-end tests, load checks and measurements (`tickshot bot`).
package botclient

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/net/transport"
)

// Options configure a run of headless bots.
type Options struct {
	Server   string        // host:port
	Count    int           // number of clients
	Duration time.Duration // how long to play; 0 = until ctx ends
	Name     string        // name prefix
	Config   netclient.Config
	Fake     proto.FakeConditions // simulated conditions on received messages
	Seed     uint64
	// Dial opens each bot's transport (netclient.Websocket when nil) and
	// Transport names it in the summaries (when empty: the transport the
	// bot ended on, netclient.NetStats.Transport, else "websocket").
	Dial      netclient.Dialer
	Transport string
}

// Summary is one bot's result.
type Summary struct {
	Name              string  `json:"name"`
	ID                uint16  `json:"id"`
	Seconds           float64 `json:"seconds"`
	SnapshotsReceived int     `json:"snapshots_received"`
	SnapshotRate      float64 `json:"snapshot_rate"`
	CmdsSent          int     `json:"cmds_sent"`
	Corrections       int     `json:"prediction_corrections"`
	MeanRTTMs         float64 `json:"mean_rtt_ms"`
	Kills             int     `json:"kills"`
	Deaths            int     `json:"deaths"`
	HitsDealt         int     `json:"hits_dealt"`
	HitsTaken         int     `json:"hits_taken"`
	ShotsFired        int     `json:"shots_fired"`
	OthersSeen        int     `json:"others_seen"`
	OthersMoved       int     `json:"others_moved"`
	BytesInPerSec     float64 `json:"bytes_in_per_s"`
	BytesOutPerSec    float64 `json:"bytes_out_per_s"`
	// ServerTicks is how many ticks the server ran from the bot's first
	// snapshot to its last, by the snapshots' ticks: the server's clock,
	// which a busy machine may run slower than the wall clock (Seconds).
	ServerTicks int `json:"server_ticks"`
	// CmdTicksDropped are the ticks of real time the bot made no command
	// for (netclient.Stats.FrameTicksDropped: frames past MaxFrameTime).
	CmdTicksDropped int `json:"cmd_ticks_dropped"`
	// Transport is what carried the game ("websocket").
	Transport string `json:"transport"`
	// SnapshotGapMs, FreezesOver250ms and ExtrapolatingPct are how
	// smoothly the world reached the bot (Smoothness): the time between
	// snapshot arrivals, ms; the gaps over FreezeMs; the share of frames
	// drawn past the newest snapshot, percent.
	SnapshotGapMs    GapStats `json:"snapshot_gap_ms"`
	FreezesOver250ms int      `json:"freezes_over_250ms"`
	ExtrapolatingPct float64  `json:"extrapolating_pct"`
	// FreezesOnDatagrams are the FreezesOver250ms that began once the
	// bot's snapshots came as WebRTC datagrams (from the first one applied,
	// netclient.NetStats.DatagramSnapshots; Smoothness.OnDatagrams; 0 on a
	// WebSocket alone).
	FreezesOnDatagrams int    `json:"freezes_on_datagrams"`
	Error              string `json:"error,omitempty"`
}

// Run starts opt.Count bots, plays until the duration passes or ctx ends,
// and returns one summary per bot. A bot that cannot connect reports the
// error in its summary.
func Run(ctx context.Context, opt Options) []Summary {
	if opt.Count <= 0 {
		opt.Count = 1
	}
	if opt.Name == "" {
		opt.Name = "netbot"
	}
	if opt.Duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opt.Duration)
		defer cancel()
	}
	out := make([]Summary, opt.Count)
	var wg sync.WaitGroup
	for i := 0; i < opt.Count; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cfg := opt.Config
			cfg.Name = fmt.Sprintf("%s%d", opt.Name, i+1)
			out[i] = playOne(ctx, opt, cfg, opt.Seed+uint64(i)*7919+1)
		}(i)
	}
	wg.Wait()
	return out
}

func playOne(ctx context.Context, opt Options, cfg netclient.Config, seed uint64) Summary {
	sum := Summary{Name: cfg.Name, Transport: opt.Transport}
	dial := opt.Dial
	if dial == nil {
		dial = netclient.Websocket
	}
	c, err := netclient.Connect(ctx, dial, opt.Server, cfg)
	if err != nil {
		sum.Error = err.Error()
		if sum.Transport == "" {
			sum.Transport = transport.KindWebSocket
		}
		return sum
	}
	defer c.Close("bot finished")
	c.SetFakeConditions(opt.Fake)
	sum.ID = c.View().ID
	brain := game.NewBot(seed)
	dt := time.Second / time.Duration(c.View().TickRate)
	ticker := time.NewTicker(dt)
	defer ticker.Stop()
	start := time.Now()
	firstPos := map[uint16]game.Point{}
	moved := map[uint16]bool{}
	var rttSum float64
	var rttN int
	var firstTick uint32 // the first snapshot's server tick
	var smooth Smoothness
	for {
		select {
		case <-ctx.Done():
			sum.Seconds = time.Since(start).Seconds()
			return finish(sum, c, &smooth, rttSum, rttN, len(firstPos), len(moved))
		case <-ticker.C:
		}
		if err := c.Poll(); err != nil {
			sum.Error = err.Error()
			sum.Seconds = time.Since(start).Seconds()
			return finish(sum, c, &smooth, rttSum, rttN, len(firstPos), len(moved))
		}
		polled := time.Now()
		if v := c.View(); v.HaveSnapshot {
			if firstTick == 0 {
				firstTick = v.SnapshotTick
			}
			sum.ServerTicks = int(v.SnapshotTick - firstTick)
		}
		for _, e := range c.Match().TakeEvents() {
			switch e.Kind {
			case proto.EvKill:
				if e.A == c.View().ID {
					sum.Kills++
				}
				if e.B == c.View().ID {
					sum.Deaths++
				}
			case proto.EvHit:
				if e.A == c.View().ID {
					sum.HitsDealt++
				}
				if e.B == c.View().ID {
					sum.HitsTaken++
				}
			}
		}
		for _, r := range c.Shots().TakeEffects() {
			if r.Fired {
				sum.ShotsFired++
			}
		}
		if c.View().Stats.PingMs > 0 {
			rttSum += float64(c.View().Stats.PingMs)
			rttN++
		}
		// One command per tick of real time that passed (a ticker drops
		// ticks on a loaded machine), the brain thinking for each.
		c.FrameFunc(time.Now(), func() netclient.Input {
			ents := c.View().Rendered
			boxes := make([]game.Hitbox, 0, len(ents))
			for _, e := range ents {
				boxes = append(boxes, game.NewHitbox(e.ID, e.X, e.Y, e.Alive, game.Team(c.View().Team(e.ID))))
				if p, ok := firstPos[e.ID]; !ok {
					firstPos[e.ID] = game.Point{X: e.X, Y: e.Y}
				} else if math.Hypot(p.X-e.X, p.Y-e.Y) > 50 {
					moved[e.ID] = true
				}
			}
			brain.Team = game.Team(c.View().Team(c.View().ID)) // tdm: teammates are not targets
			brain.Heal = brain.Heal[:0]                        // the health pickups it sees: hurt, it heads for one
			for _, pk := range c.View().Pickups {
				if pk.Kind == game.PickupHealth && pk.Present {
					brain.Heal = append(brain.Heal, game.Point{X: pk.X, Y: pk.Y})
				}
			}
			in := brain.Think(c.View().Map, c.View().TickRate, c.View().Predicted, c.View().Health, boxes)
			return netclient.Input{MoveX: in.MoveX, MoveY: in.MoveY, Angle: in.Angle, Buttons: in.Buttons, Weapon: in.Weapon}
		})
		v := c.View() // as this frame draws it
		// Before Frame: the gap that ends at the first datagram is the switch's.
		if c.Net().DatagramSnapshots > 0 {
			smooth.OnDatagrams()
		}
		smooth.Frame(polled, v.Stats.SnapshotsReceived, v.RenderTick, v.SnapshotTick)
	}
}

func finish(s Summary, c *netclient.Client, smooth *Smoothness, rttSum float64, rttN, seen, moved int) Summary {
	s.SnapshotsReceived = c.View().Stats.SnapshotsReceived
	if s.Transport == "" {
		s.Transport = c.Net().Transport // what carried the game at the end
	}
	if s.Transport == "" {
		s.Transport = transport.KindWebSocket
	}
	if s.Seconds > 0 {
		s.SnapshotRate = math.Round(float64(s.SnapshotsReceived)/s.Seconds*10) / 10
		st := c.ConnStats()
		s.BytesInPerSec = math.Round(float64(st.BytesIn) / s.Seconds)
		s.BytesOutPerSec = math.Round(float64(st.BytesOut) / s.Seconds)
	}
	st := c.View().Stats
	s.CmdsSent = st.CmdsSent
	s.CmdTicksDropped = st.FrameTicksDropped
	s.Corrections = st.Corrections
	if rttN > 0 {
		s.MeanRTTMs = math.Round(rttSum/float64(rttN)*10) / 10
	}
	s.OthersSeen, s.OthersMoved = seen, moved
	s.SnapshotGapMs, s.FreezesOver250ms, s.ExtrapolatingPct = smooth.Gaps(), smooth.Freezes(), smooth.ExtrapolatingPct()
	s.FreezesOnDatagrams = smooth.FreezesOnDatagrams()
	return s
}
