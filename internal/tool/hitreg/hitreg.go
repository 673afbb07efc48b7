// Package hitreg is the hit-registration benchmark (`tickshot hitreg`): a
// real server and two real clients over websockets on loopback, with fake
// lag, jitter and loss on both sides. One client strafes at full speed; the
// other aims at the target's centre exactly as its own client renders it
// and fires single shots. It reports the share of shots the server confirms
// and the rewind error: the distance between the centre the shooter drew
// and the one the server traced against (sv_showimpacts). With the shotgun
// (Options.Weapon) it also checks each pellet: the pellets the server
// found on the target (its EvHit's damage) against those the shooter's own
// trace of its predicted shot against the target as drawn hits.
package hitreg

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"sort"
	"time"

	"tickshot/client/netclient"
	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/server"
	"tickshot/shared"
)

// Options of one benchmark run.
type Options struct {
	RTTMs    float64 // round trip added, split evenly between the directions
	JitterMs float64 // random extra delay, each direction
	LossPct  float64 // loss, each direction
	Shots    int     // shots to fire
	Unlag    bool    // sv_unlag
	TickRate int     // sv_tickrate (default 64)
	// WireRTTMs is a round trip, ms, added below the socket by a TCP proxy
	// in front of the server that delays every byte (a real lagged link,
	// which the websocket's pings see). RTTMs, JitterMs and LossPct are
	// net_fakelag and co. on both sides, above the socket: for those the
	// server runs with sv_cheats 1, as a client's held acks look the same.
	WireRTTMs float64
	// WireJitterMs is a random extra delay, 0..this many ms, per chunk of
	// bytes and direction, added by the same proxy (order kept).
	WireJitterMs float64
	Seed         uint64
	// Weapon is the hitscan weapon the shooter fires (shared.WeaponRifle,
	// the default, or shared.WeaponShotgun).
	Weapon   uint8
	Progress io.Writer // one dot per 10 shots, or nil
	// Server is the address (host:port) of a running benchmark server
	// (Serve) to play against instead of starting one in this process:
	// across a real link, such as internal/netem's. Then Unlag and
	// TickRate are the server's, and RTTMs, JitterMs and LossPct apply on
	// the clients' side only.
	Server string
	// Dial opens the clients' transports (netclient.Websocket when nil).
	Dial netclient.Dialer
}

// Result of one run. Distances are world units; the hitbox radius is
// shared.PlayerRadius.
type Result struct {
	RTTMs        float64 `json:"rtt_ms"`
	JitterMs     float64 `json:"jitter_ms"`
	LossPct      float64 `json:"loss_pct"`
	Unlag        bool    `json:"sv_unlag"`
	WireRTTMs    float64 `json:"wire_rtt_ms"`
	WireJitterMs float64 `json:"wire_jitter_ms"`
	Cheats       bool    `json:"sv_cheats"` // on when client-side fake conditions are set
	Shots        int     `json:"shots"`
	Confirmed    int     `json:"confirmed"`
	ConfirmedPct float64 `json:"confirmed_pct"`
	Answered     int     `json:"answered"` // shots the server reported an impact for
	ErrMedian    float64 `json:"rewind_error_median"`
	ErrP99       float64 `json:"rewind_error_p99"`
	ErrMax       float64 `json:"rewind_error_max"`
	// ErrMaxTaken is the largest rewind error of the shots rewound to
	// their claimed render time as is (neither refused nor clamped by
	// sv_maxunlag or the link's round trip): 0 when lag compensation is exact.
	ErrMaxTaken float64 `json:"rewind_error_max_taken"`
	// RewindClaimed, RewindRefused and RewindClamped count the answered
	// shots the server rewound to the render time the command claimed, or
	// with the claim refused (its own estimate used), and those limited by
	// sv_maxunlag (counted in one of the first two as well).
	RewindClaimed int `json:"rewind_claimed"`
	RewindRefused int `json:"rewind_refused"`
	RewindClamped int `json:"rewind_clamped"`
	// Taken counts the answered shots rewound to their claim as is
	// (neither refused nor clamped), TakenConfirmed those of them that hit.
	Taken          int `json:"taken"`
	TakenConfirmed int `json:"taken_confirmed"`
	// AckLeadMedianMs is the median, over the answered shots, of how far
	// the claimed render time was ahead of the newest snapshot the shooter
	// had when it made the command, less its lerp (the server's ack
	// estimate), ms: about 0 for an honest client whose clock follows the
	// server's ticks. AckCredible counts the shots within
	// server.CrossCheckMs (less a tick and a half of rounding) of it, which
	// that estimate alone makes credible; AckCredibleRefused those refused
	// anyway (0 when the server's cross-check works). On a busy machine the
	// server may run fewer ticks than real time while the client's clock
	// runs at real speed, so claims drift off and some are rightly refused.
	AckLeadMedianMs    float64 `json:"ack_lead_median_ms"`
	AckCredible        int     `json:"ack_credible"`
	AckCredibleRefused int     `json:"ack_credible_refused"`
	// WithinSlack counts the answered shots fired while the round trip the
	// server measured from the acks (Stats.PingMs) was within
	// server.UnlagSlackMs of the wire's (WireRTTMs): the link's round trip
	// bounds their rewinds with room to spare. WithinSlackClamped counts
	// those clamped anyway. On a busy machine the acks' round trip may grow
	// past the link's by more than the slack, and such shots are rightly
	// clamped (the bound is the link's, not the acks').
	WithinSlack        int     `json:"within_slack"`
	WithinSlackClamped int     `json:"within_slack_clamped"`
	MeasuredRTTMs      float64 `json:"measured_rtt_ms"`
	SnapshotsLost      int     `json:"snapshots_lost"`
	HitboxRadius       float64 `json:"hitbox_radius"`
	DurationSecond     float64 `json:"duration_s"`
	// Weapon is the weapon's name (shared.Weapons).
	Weapon string `json:"weapon"`
	// Of the shots taken as claimed (Taken): PelletsDrawn counts the
	// pellets that the shooter's trace of its predicted shot against the
	// target where it drew it hits, PelletsServer those the server found on
	// the target (EvHit damage / the weapon's damage), PelletMismatch the
	// shots where the two differ (0 when every pellet is registered
	// exactly). A one-ray weapon counts its one ray.
	PelletsDrawn   int `json:"pellets_drawn"`
	PelletsServer  int `json:"pellets_server"`
	PelletMismatch int `json:"pellet_mismatch"`
}

// Run runs the benchmark.
func Run(ctx context.Context, opt Options) (Result, error) {
	if opt.Shots <= 0 {
		opt.Shots = 200
	}
	if opt.TickRate == 0 {
		opt.TickRate = 64
	}
	if int(opt.Weapon) >= shared.NumWeapons || shared.Weapons[opt.Weapon].Kind != shared.Hitscan {
		return Result{}, fmt.Errorf("weapon %d is not a hitscan weapon", opt.Weapon)
	}
	half := proto.FakeConditions{LagMs: opt.RTTMs / 2, JitterMs: opt.JitterMs, LossPct: opt.LossPct}
	res := Result{RTTMs: opt.RTTMs, JitterMs: opt.JitterMs, LossPct: opt.LossPct, Unlag: opt.Unlag,
		WireRTTMs: opt.WireRTTMs, WireJitterMs: opt.WireJitterMs, Cheats: half != proto.FakeConditions{},
		Shots: opt.Shots, HitboxRadius: shared.PlayerRadius, Weapon: shared.Weapons[opt.Weapon].Name}
	addr := opt.Server
	if addr == "" {
		srv, err := server.New(serverConfig(opt, "127.0.0.1:0", half))
		if err != nil {
			return res, err
		}
		if err := srv.Listen(); err != nil {
			return res, err
		}
		sctx, stop := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- srv.Run(sctx) }()
		defer func() { stop(); <-done }()
		addr = srv.Addr()
	}
	if opt.WireRTTMs > 0 || opt.WireJitterMs > 0 {
		ms := func(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }
		p, err := startDelayProxy(addr, ms(opt.WireRTTMs/2), ms(opt.WireJitterMs))
		if err != nil {
			return res, err
		}
		defer p.Close()
		addr = p.Addr()
	}
	cfg := netclient.DefaultConfig("shooter")
	dial := opt.Dial
	if dial == nil {
		dial = netclient.Websocket
	}
	shooter, err := netclient.Connect(ctx, dial, addr, cfg)
	if err != nil {
		return res, err
	}
	defer shooter.Close("benchmark done")
	cfg.Name = "target"
	target, err := netclient.Connect(ctx, dial, addr, cfg)
	if err != nil {
		return res, err
	}
	defer target.Close("benchmark done")
	shooter.SetFakeConditions(half)
	target.SetFakeConditions(half)

	rng := rand.New(rand.NewPCG(opt.Seed, 99))
	ticker := time.NewTicker(time.Second / time.Duration(opt.TickRate))
	defer ticker.Stop()
	start := time.Now()
	var moveX, moveY float32
	nextTurn := 0
	fired := map[uint32]bool{}
	var errs, leads []float64
	pingAt := map[uint32]int{} // per attack command: the server's ack RTT when it was made, ms
	var rttSum float64
	var rttN int
	pel := newPellets(opt.Weapon)
	warm := 0
	deadline := time.Now().Add(time.Duration(opt.Shots)*time.Second + 60*time.Second)
	targetTicks := 0
	for {
		select {
		case <-ctx.Done():
			return res, ctx.Err()
		case <-ticker.C:
		}
		if time.Now().After(deadline) {
			return res, fmt.Errorf("benchmark did not finish in time (%d of %d shots answered)", res.Answered, opt.Shots)
		}
		for _, c := range []*netclient.Client{shooter, target} {
			if err := c.Poll(); err != nil {
				return res, fmt.Errorf("%s: %w", c.View().Config.Name, err)
			}
		}
		// Both clients make one command per tick of real time that passed
		// (Client.FrameFunc): a ticker drops ticks on a loaded machine, and
		// a client clock that falls behind real time claims render times
		// the server cannot credit.
		now := time.Now()
		// Target: full speed, new direction every 0.25..0.8 s, pulled back
		// towards its spawn when it wanders off.
		target.FrameFunc(now, func() netclient.Input {
			if targetTicks >= nextTurn {
				a := rng.Float64() * 2 * math.Pi
				st := target.View().Predicted
				if dx, dy := 736-st.X, 384-st.Y; math.Hypot(dx, dy) > 160 {
					a = math.Atan2(dy, dx) + (rng.Float64()-0.5)*1.2
				}
				moveX, moveY = float32(math.Cos(a)), float32(math.Sin(a))
				nextTurn = targetTicks + opt.TickRate/4 + rng.IntN(opt.TickRate*55/100)
			}
			targetTicks++
			return netclient.Input{MoveX: moveX, MoveY: moveY}
		})

		// Shooter: aim at the target as rendered, fire when the weapon is ready.
		var attacks []uint32
		shooter.FrameFunc(now, func() netclient.Input {
			in := netclient.Input{Weapon: opt.Weapon}
			var tgt *netclient.RenderedEntity
			for _, e := range shooter.View().Rendered {
				if e.ID == target.View().ID {
					e := e
					tgt = &e
				}
			}
			st := shooter.View().Predicted
			if tgt != nil && tgt.Alive {
				in.Angle = float32(math.Atan2(tgt.Y-st.Y, tgt.X-st.X))
				warm++
				ready := st.NextAttack <= 1 && st.ReloadTicks == 0 && st.Ammo[st.Weapon] > 0 &&
					st.Weapon == opt.Weapon && st.SwitchTicks <= 1
				if warm > opt.TickRate && ready && len(fired)+len(attacks) < opt.Shots {
					in.Buttons = shared.ButtonAttack
					vw := shooter.View()
					attacks = append(attacks, vw.CommandNumber+1)
					pingAt[vw.CommandNumber+1] = vw.Stats.PingMs
				} else if st.Ammo[st.Weapon] == 0 {
					in.Buttons = shared.ButtonReload
				}
			}
			return in
		})
		pel.predicted(shooter, attacks)
		for _, cmd := range attacks {
			if _, ok := shooter.Shots().Of(cmd); ok {
				fired[cmd] = true
				if opt.Progress != nil && len(fired)%10 == 0 {
					fmt.Fprint(opt.Progress, ".")
				}
			}
		}
		for _, e := range shooter.Match().TakeEvents() {
			pel.event(&e, shooter.View().ID, target.View().ID)
			if e.Kind != proto.EvImpact || e.A != shooter.View().ID || !fired[e.Cmd] {
				continue
			}
			delete(fired, e.Cmd)
			fired[e.Cmd|1<<31] = true // answered; keeps the count of shots fired
			res.Answered++
			if e.Value&game.ImpactHit != 0 {
				res.Confirmed++
			}
			if e.Value&game.ImpactRefused != 0 {
				res.RewindRefused++
			} else {
				res.RewindClaimed++
			}
			if e.Value&game.ImpactClamped != 0 {
				res.RewindClamped++
			}
			if float64(pingAt[e.Cmd]) <= opt.WireRTTMs+opt.RTTMs+server.UnlagSlackMs/2 {
				res.WithinSlack++
				if e.Value&game.ImpactClamped != 0 {
					res.WithinSlackClamped++
				}
			}
			if e.Value&(game.ImpactRefused|game.ImpactClamped) == 0 {
				pel.taken(e.Cmd)
				res.Taken++
				if e.Value&game.ImpactHit != 0 {
					res.TakenConfirmed++
				}
			}
			if v, ok := shooter.Shots().Of(e.Cmd); ok {
				lead := v.AckLeadMs(shooter.View().InterpTicks(), opt.TickRate)
				leads = append(leads, lead)
				if math.Abs(lead) <= server.CrossCheckMs-1500/float64(opt.TickRate) {
					res.AckCredible++
					if e.Value&game.ImpactRefused != 0 {
						res.AckCredibleRefused++
					}
				}
				for _, o := range v.Others {
					if o.ID == e.B {
						dx := proto.FromFixed(proto.ToFixed(o.X)) - proto.FromFixed(e.X)
						dy := proto.FromFixed(proto.ToFixed(o.Y)) - proto.FromFixed(e.Y)
						errs = append(errs, math.Hypot(dx, dy))
						if e.Value&(game.ImpactRefused|game.ImpactClamped) == 0 {
							res.ErrMaxTaken = math.Max(res.ErrMaxTaken, math.Round(math.Hypot(dx, dy)*100)/100)
						}
					}
				}
			}
		}
		target.Match().TakeEvents()
		target.Shots().TakeEffects()
		if shooter.View().Stats.PingMs > 0 {
			rttSum += float64(shooter.View().Stats.PingMs)
			rttN++
		}
		if len(fired) >= opt.Shots && (res.Answered >= opt.Shots || pendingTooOld(fired, shooter, opt.TickRate)) {
			break
		}
	}
	pel.tally(&res)
	res.Shots = len(fired)
	if res.Shots > 0 {
		res.ConfirmedPct = math.Round(float64(res.Confirmed)/float64(res.Shots)*1000) / 10
	}
	sort.Float64s(errs)
	if n := len(errs); n > 0 {
		// Nearest rank: the smallest error that at least p of the shots do not exceed.
		q := func(p float64) float64 {
			return math.Round(errs[min(max(int(math.Ceil(p*float64(n)))-1, 0), n-1)]*100) / 100
		}
		res.ErrMedian, res.ErrP99, res.ErrMax = q(0.5), q(0.99), errs[n-1]
		res.ErrMax = math.Round(res.ErrMax*100) / 100
	}
	if n := len(leads); n > 0 {
		sort.Float64s(leads)
		res.AckLeadMedianMs = math.Round(leads[n/2]*10) / 10
	}
	if rttN > 0 {
		res.MeasuredRTTMs = math.Round(rttSum/float64(rttN)*10) / 10
	}
	res.SnapshotsLost = shooter.View().Stats.SnapshotsLost
	res.DurationSecond = math.Round(time.Since(start).Seconds()*10) / 10
	return res, nil
}

// serverConfig is the benchmark's server: the range map, no bots, hits
// that do no damage (the target never dies) and no spawn protection (each
// is reported), impacts shown to the shooter; with client-side fake conditions (fake non-zero) sv_cheats 1 so
// that their held acks are compensated.
func serverConfig(opt Options, addr string, fake proto.FakeConditions) server.Config {
	unlag, cheats := "0", "0"
	if opt.Unlag {
		unlag = "1"
	}
	if fake != (proto.FakeConditions{}) {
		cheats = "1"
	}
	return server.Config{Addr: addr, TickRate: opt.TickRate, Map: "range", Bots: 0,
		NoDamage: true, Fake: fake, Seed: opt.Seed + 1,
		Cvars: [][2]string{{"sv_unlag", unlag}, {"sv_showimpacts", "1"}, {"sv_cheats", cheats},
			{"mp_spawnprotection", "0"}}, // every hit reported (EvHit), from the first shot
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
}

// Serve runs the benchmark's server on addr (host:port) until ctx ends,
// for Run with Options.Server from another host or network namespace.
func Serve(ctx context.Context, opt Options, addr string) error {
	srv, err := NewServer(opt, addr)
	if err != nil {
		return err
	}
	return srv.Run(ctx)
}

// NewServer returns the benchmark's server for addr (host:port), not yet
// listening: Serve's, for a caller that listens itself (in a network
// namespace); opt's Unlag, TickRate and Seed apply.
func NewServer(opt Options, addr string) (*server.Server, error) {
	if opt.TickRate == 0 {
		opt.TickRate = 64
	}
	return server.New(serverConfig(opt, addr, proto.FakeConditions{}))
}

// pendingTooOld reports whether the unanswered shots are older than two
// seconds of commands: their answer was lost with a snapshot beyond resend.
func pendingTooOld(fired map[uint32]bool, c *netclient.Client, tickRate int) bool {
	newest := uint32(0)
	for cmd := range fired {
		if cmd&(1<<31) == 0 && cmd > newest {
			newest = cmd
		}
	}
	return newest == 0 || c.View().CommandNumber-newest > uint32(2*tickRate)
}
