package netclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
	"tickshot/shared"
)

// Spectators, over real websockets on loopback against a real server.

// specInput is what a driven client does in one tick: nil means no input.
type specInput func() netclient.Input

// specDrive runs the clients as the window does, one Frame per 1/64 s of
// real time (FrameFunc with the client's input, none when nil), until
// stop returns true (checked after every frame) or d passes; it reports
// whether stop returned true.
func specDrive(t *testing.T, d time.Duration, cs []*netclient.Client, ins []specInput, stop func() bool) bool {
	t.Helper()
	tk := time.NewTicker(time.Second / 64)
	defer tk.Stop()
	end := time.Now().Add(d)
	for now := range tk.C {
		for i, c := range cs {
			if err := c.Poll(); err != nil {
				t.Fatalf("%s: poll: %v", c.View().Config.Name, err)
			}
			in := func() netclient.Input { return netclient.Input{} }
			if i < len(ins) && ins[i] != nil {
				in = ins[i]
			}
			c.FrameFunc(now, in)
		}
		if stop != nil && stop() {
			return true
		}
		if now.After(end) {
			return false
		}
	}
	return false
}

func spectatorConfig(name string) netclient.Config {
	cfg := netclient.DefaultConfig(name)
	cfg.Spectate = true
	return cfg
}

// scoreRow returns id's scoreboard row as c has it.
func scoreRow(c *netclient.Client, id uint16) (proto.ScoreEntry, bool) {
	for _, r := range c.View().Scores {
		if r.ID == id {
			return r, true
		}
	}
	return proto.ScoreEntry{}, false
}

func getStatus(t *testing.T, addr string) server.Status {
	t.Helper()
	resp, err := http.Get("http://" + addr + "/status")
	if err != nil {
		t.Fatalf("/status: %v", err)
	}
	defer resp.Body.Close()
	var st server.Status
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		t.Fatalf("/status: %v", err)
	}
	return st
}

// A client that joins as a spectator gets no body: no other client ever
// receives an entity with its id; it is on everyone's scoreboard with Team
// spectator; it receives every player, also those far outside any view;
// its commands are acknowledged, it predicts nothing and counts no
// prediction error.
func TestSpectatorJoinsWithoutBody(t *testing.T) {
	srv := startServer(t, server.Config{Bots: 3, Seed: 3})
	alice := connect(t, srv.Addr(), netclient.DefaultConfig("alice"))
	eve := connect(t, srv.Addr(), spectatorConfig("eve"))
	if !eve.View().Accept.Spectator || !eve.View().Spectating {
		t.Fatalf("Accept.Spectator %v, Spectating %v: want a spectator", eve.View().Accept.Spectator, eve.View().Spectating)
	}
	if alice.View().Accept.Spectator {
		t.Fatal("alice was admitted as a spectator")
	}
	cs := []*netclient.Client{alice, eve}
	frames, sawAll := 0, 0
	specDrive(t, 4*time.Second, cs, nil, func() bool {
		frames++
		if _, ok := alice.View().Holds(eve.View().ID); ok {
			t.Fatalf("alice received an entity for spectator %d", eve.View().ID)
		}
		if !eve.View().HaveSnapshot {
			return false
		}
		if !eve.View().Spectating || !eve.View().Server.Spectator || !eve.View().Server.Dead {
			t.Fatalf("spectator's Self %+v: want Spectator and Dead", eve.View().Server)
		}
		// Every player: alice and the 3 bots, wherever they are.
		if len(eve.View().Held) == 4 {
			sawAll++
		}
		return false
	})
	if sawAll < frames/2 {
		t.Errorf("the spectator held all 4 players in %d of %d frames: it must receive every entity", sawAll, frames)
	}
	if _, ok := eve.View().Holds(alice.View().ID); !ok {
		t.Errorf("the spectator does not receive alice")
	}
	// A spectator chats as a player does.
	eve.SendCommand("say hello from the stands", "")
	var heard bool
	specDrive(t, 3*time.Second, cs, nil, func() bool {
		for _, e := range alice.Match().TakeEvents() {
			heard = heard || (e.Kind == proto.EvChat && e.A == eve.View().ID && e.Text == "hello from the stands")
		}
		return heard
	})
	if !heard {
		t.Errorf("alice never heard the spectator's chat")
	}
	row, ok := scoreRow(alice, eve.View().ID)
	if !ok || row.Team != proto.TeamSpectator || alice.View().Name(eve.View().ID) != "eve" {
		t.Errorf("alice's scoreboard row for eve %+v (found %v): want Team %d (spectator) named eve", row, ok, proto.TeamSpectator)
	}
	if row, _ := scoreRow(alice, alice.View().ID); row.Team == proto.TeamSpectator {
		t.Errorf("alice is listed as a spectator")
	}
	if eve.View().CommandNumber < 100 || eve.View().AckCmd+32 < eve.View().CommandNumber {
		t.Errorf("spectator made %d commands, %d acknowledged: its acks must keep running", eve.View().CommandNumber, eve.View().AckCmd)
	}
	if eve.View().Stats.Corrections != 0 || eve.View().Stats.LifeResets != 0 {
		t.Errorf("spectator counted %d prediction errors and %d life resets, want 0", eve.View().Stats.Corrections, eve.View().Stats.LifeResets)
	}
	st := getStatus(t, srv.Addr())
	if st.Spectators != 1 || len(st.SpectatorList) != 1 || st.SpectatorList[0].Name != "eve" || len(st.Players) != 4 {
		t.Errorf("/status: %d players, %d spectators %+v; want 4 players and eve", len(st.Players), st.Spectators, st.SpectatorList)
	}
}

// aimAt returns the input that aims from the client's predicted position
// at (x, y) and fires when the rifle is ready (reloading when empty).
func aimAt(c *netclient.Client, x, y float64) netclient.Input {
	st := c.View().Predicted
	in := netclient.Input{Angle: float32(math.Atan2(y-st.Y, x-st.X))}
	switch {
	case st.Ammo[st.Weapon] == 0:
		in.Buttons = shared.ButtonReload
	case st.NextAttack <= 1 && st.ReloadTicks == 0:
		in.Buttons = shared.ButtonAttack
	}
	return in
}

// A spectator is never hit: a shooter on the range aims at a player and
// its hits are confirmed (the control), then the player spectates and the
// shooter fires on through where it stood: no hit on it is ever
// confirmed, the shots fly through to the wall, and the server's
// sv_showimpacts answers name no hitbox of it.
func TestSpectatorIsNotHit(t *testing.T) {
	srv := startServer(t, server.Config{Map: "range", Bots: 0, NoDamage: true, Seed: 1,
		Cvars: [][2]string{{"mp_spawnprotection", "0"}, {"sv_showimpacts", "1"}}})
	shooter := connect(t, srv.Addr(), netclient.DefaultConfig("shooter"))
	target := connect(t, srv.Addr(), netclient.DefaultConfig("target"))
	cs := []*netclient.Client{shooter, target}

	var tx, ty float64
	seen, hits := false, 0
	aim := func() netclient.Input {
		for _, e := range shooter.View().Rendered {
			if e.ID == target.View().ID {
				tx, ty, seen = e.X, e.Y, true
			}
		}
		if !seen {
			return netclient.Input{}
		}
		return aimAt(shooter, tx, ty)
	}
	countHits := func() {
		for _, e := range shooter.Match().TakeEvents() {
			if e.Kind == proto.EvHit && e.A == shooter.View().ID && e.B == target.View().ID {
				hits++
			}
		}
	}
	if !specDrive(t, 10*time.Second, cs, []specInput{aim, nil}, func() bool { countHits(); return hits >= 3 }) {
		t.Fatalf("control: %d hits on the player in 10 s (seen %v at %.0f, %.0f), want 3", hits, seen, tx, ty)
	}

	target.SendCommand("spectate", "")
	if !specDrive(t, 5*time.Second, cs, []specInput{aim, nil}, func() bool {
		_, held := shooter.View().Holds(target.View().ID)
		return target.View().Spectating && !held
	}) {
		t.Fatal("the target did not become a spectator, out of the shooter's snapshots, within 5 s")
	}
	shooter.Shots().TakeEffects()
	shooter.Match().TakeEvents()
	// Where it stood, as the shooter last drew it; fire through there.
	px, py := tx, ty
	hits = 0
	shots, through, impactsOnIt := 0, 0, 0
	fire := func() netclient.Input { return aimAt(shooter, px, py) }
	specDrive(t, 3*time.Second, cs, []specInput{fire, nil}, func() bool {
		shots += len(shooter.Shots().TakeEffects())
		for _, e := range shooter.Match().TakeEvents() {
			switch {
			case e.Kind == proto.EvHit && e.B == target.View().ID:
				hits++
			case e.Kind == proto.EvShot && e.A == shooter.View().ID:
				if d := math.Hypot(proto.FromFixed(e.X2)-proto.FromFixed(e.X), proto.FromFixed(e.Y2)-proto.FromFixed(e.Y)); d > math.Hypot(px-proto.FromFixed(e.X), py-proto.FromFixed(e.Y))+shared.PlayerRadius {
					through++
				}
			case e.Kind == proto.EvImpact && e.B == target.View().ID:
				impactsOnIt++
			}
		}
		if _, ok := shooter.View().Holds(target.View().ID); ok {
			t.Fatalf("the shooter receives the spectator's entity again")
		}
		return false
	})
	if shots < 10 {
		t.Fatalf("only %d shots fired through the spectator's place", shots)
	}
	if hits != 0 || impactsOnIt != 0 {
		t.Errorf("%d hits and %d impact answers on the spectator from %d shots, want none", hits, impactsOnIt, shots)
	}
	if through < shots/2 {
		t.Errorf("%d of %d shots went past the spectator's place, want them all to fly through", through, shots)
	}
}

// `spectate` then `join` on a live client: its body leaves the world (the
// other client's snapshots drop it, /status lists it as a spectator, the
// scoreboard says spectator with its deaths kept) and comes back (spawned,
// alive, predicted again without a prediction error).
func TestSpectateThenJoin(t *testing.T) {
	srv := startServer(t, server.Config{Bots: 0, Seed: 5, Map: "range"})
	alice := connect(t, srv.Addr(), netclient.DefaultConfig("alice"))
	bob := connect(t, srv.Addr(), netclient.DefaultConfig("bob"))
	cs := []*netclient.Client{alice, bob}
	if !specDrive(t, 5*time.Second, cs, nil, func() bool { _, ok := alice.View().Holds(bob.View().ID); return ok && bob.View().HaveSnapshot }) {
		t.Fatal("alice never received bob")
	}
	bob.SendCommand("kill", "")
	if !specDrive(t, 5*time.Second, cs, nil, func() bool { r, ok := scoreRow(alice, bob.View().ID); return ok && r.Deaths == 1 }) {
		t.Fatal("bob's death never reached the scoreboard")
	}
	bob.SendCommand("spectate", "")
	if !specDrive(t, 5*time.Second, cs, nil, func() bool {
		_, held := alice.View().Holds(bob.View().ID)
		r, _ := scoreRow(alice, bob.View().ID)
		return bob.View().Spectating && !held && r.Team == proto.TeamSpectator
	}) {
		r, _ := scoreRow(alice, bob.View().ID)
		t.Fatalf("after spectate: bob spectating %v, alice holds bob %v, bob's row %+v", bob.View().Spectating, holds(alice, bob.View().ID), r)
	}
	if r, _ := scoreRow(alice, bob.View().ID); r.Deaths != 1 {
		t.Errorf("bob's deaths as a spectator %d, want 1 (kept)", r.Deaths)
	}
	if st := getStatus(t, srv.Addr()); len(st.Players) != 1 || len(st.SpectatorList) != 1 || st.SpectatorList[0].ID != bob.View().ID {
		t.Errorf("/status after spectate: players %+v, spectators %+v", st.Players, st.SpectatorList)
	}
	// Held for a second: the body stays out.
	specDrive(t, time.Second, cs, nil, func() bool {
		if _, ok := alice.View().Holds(bob.View().ID); ok {
			t.Fatal("bob's body came back without join")
		}
		return false
	})
	corr := bob.View().Stats.Corrections
	bob.SendCommand("join", "")
	if !specDrive(t, 5*time.Second, cs, nil, func() bool {
		e, held := alice.View().Holds(bob.View().ID)
		return !bob.View().Spectating && !bob.View().Predicted.Dead && held && e.Flags&proto.FlagAlive != 0
	}) {
		t.Fatalf("after join: bob spectating %v, predicted dead %v, alice holds bob %v", bob.View().Spectating, bob.View().Predicted.Dead, holds(alice, bob.View().ID))
	}
	// Playing again: it moves, and its prediction holds.
	x0 := bob.View().Predicted.X
	right := func() netclient.Input { return netclient.Input{MoveX: 1} }
	specDrive(t, time.Second, cs, []specInput{nil, right}, nil)
	if d := math.Abs(bob.View().Predicted.X - x0); d < 50 {
		t.Errorf("bob moved %.1f units in a second after join, want him to run", d)
	}
	if bob.View().Stats.Corrections != corr {
		t.Errorf("%d prediction errors after join", bob.View().Stats.Corrections-corr)
	}
	specDrive(t, 3*time.Second, cs, nil, func() bool { r, _ := scoreRow(alice, bob.View().ID); return r.Team != proto.TeamSpectator })
	if r, _ := scoreRow(alice, bob.View().ID); r.Team == proto.TeamSpectator || r.Deaths != 1 {
		t.Errorf("bob's row after join %+v: want a player with 1 death", r)
	}
	if st := getStatus(t, srv.Addr()); len(st.Players) != 2 || st.Spectators != 0 {
		t.Errorf("/status after join: %d players, %d spectators; want 2 and 0", len(st.Players), st.Spectators)
	}
}

// The spectator camera follows a player exactly where it is drawn: over
// hundreds of frames its centre equals the followed player's interpolated
// position at the render tick (the entity's history evaluated here, as
// Rendered does), within 1e-9. Next and previous cycle through the living
// players in id order, skipping a dead one; free-fly moves at SpecFlySpeed.
func TestSpectatorFollows(t *testing.T) {
	srv := startServer(t, server.Config{Bots: 3, Seed: 11})
	victim := connect(t, srv.Addr(), netclient.DefaultConfig("victim"))
	eve := connect(t, srv.Addr(), spectatorConfig("eve"))
	cs := []*netclient.Client{victim, eve}
	if !specDrive(t, 5*time.Second, cs, nil, func() bool { return len(eve.View().Rendered) == 4 }) {
		t.Fatalf("the spectator renders %d players, want 4", len(eve.View().Rendered))
	}
	compared, switches := 0, 0
	var worst float64
	specDrive(t, 4*time.Second, cs, nil, func() bool {
		if compared%40 == 39 {
			eve.Spec().Next(eve.View())
			switches++
		}
		x, y, ok := eve.Spec().Centre(eve.View())
		id := eve.Spec().Target()
		if !ok || id == 0 {
			return false
		}
		if _, held := eve.View().Holds(id); !held {
			t.Fatalf("following %d, which the client does not hold", id)
		}
		var smp netclient.RenderedEntity
		ok = false
		for _, r := range eve.View().Rendered {
			if r.ID == id {
				smp, ok = r, true
			}
		}
		if !ok {
			t.Fatalf("followed player %d has no sample at the render tick", id)
		}
		worst = math.Max(worst, math.Max(math.Abs(x-smp.X), math.Abs(y-smp.Y)))
		for _, r := range eve.View().Rendered {
			if r.ID == id && (r.X != x || r.Y != y) {
				t.Fatalf("followed at (%v, %v), Rendered draws %d at (%v, %v)", x, y, id, r.X, r.Y)
			}
		}
		compared++
		return false
	})
	if compared < 150 || switches < 3 {
		t.Fatalf("compared %d frames over %d switches, want at least 150 and 3", compared, switches)
	}
	if worst > 1e-9 {
		t.Errorf("the camera was up to %g units from the followed player's interpolated position, want ≤ 1e-9", worst)
	}

	// Cycling skips a dead player: the victim dies (2 s until it respawns).
	victim.SendCommand("kill", "")
	if !specDrive(t, 3*time.Second, cs, nil, func() bool {
		for _, r := range eve.View().Rendered {
			if r.ID == victim.View().ID {
				return !r.Alive
			}
		}
		return false
	}) {
		t.Fatal("the spectator never drew the victim dead")
	}
	var alive []uint16
	for _, r := range eve.View().Rendered {
		if r.Alive {
			alive = append(alive, r.ID)
		}
	}
	if len(alive) != 3 {
		t.Fatalf("living players %v, want the 3 bots", alive)
	}
	eve.Spec().Next(eve.View())
	start := eve.Spec().Target()
	var next, prev []uint16
	for range alive {
		eve.Spec().Next(eve.View())
		next = append(next, eve.Spec().Target())
	}
	for range alive {
		eve.Spec().Prev(eve.View())
		prev = append(prev, eve.Spec().Target())
	}
	i := indexOf(alive, start)
	for k := range alive {
		if want := alive[(i+1+k)%len(alive)]; next[k] != want {
			t.Errorf("next from %d: %v, want the living players in id order after it %v", start, next, alive)
			break
		}
		if want := alive[(i+len(alive)*2-1-k)%len(alive)]; prev[k] != want {
			t.Errorf("previous from %d: %v, want the living players in reverse id order %v", start, prev, alive)
			break
		}
	}
	if indexOf(next, victim.View().ID) >= 0 || indexOf(prev, victim.View().ID) >= 0 {
		t.Errorf("cycling reached the dead victim %d: next %v, previous %v", victim.View().ID, next, prev)
	}

	// Free-fly: from the followed position, 600 units/s to the right.
	x0, y0, _ := eve.Spec().Centre(eve.View())
	eve.Spec().ToggleFree(eve.View())
	if !eve.Spec().Free() || eve.Spec().Target() != 0 {
		t.Fatalf("free-fly %v, target %d", eve.Spec().Free(), eve.Spec().Target())
	}
	eve.Spec().Fly(eve.View(), -1, 0, 100*time.Millisecond)
	x1, y1, following := eve.Spec().Centre(eve.View())
	if following || math.Abs(x1-math.Max(x0-60, 0)) > 1e-9 || y1 != y0 {
		t.Errorf("free-fly 0.1 s left from (%.1f, %.1f): (%.1f, %.1f) following %v; want %.0f units left", x0, y0, x1, y1, following, netclient.SpecFlySpeed/10)
	}
	eve.Spec().ToggleFree(eve.View())
	if _, _, ok := eve.Spec().Centre(eve.View()); !ok || eve.Spec().Free() || indexOf(alive, eve.Spec().Target()) < 0 {
		t.Errorf("after free-fly: following %v a living player %d", ok, eve.Spec().Target())
	}
}

func indexOf(v []uint16, x uint16) int {
	for i, y := range v {
		if y == x {
			return i
		}
	}
	return -1
}

// A server whose slots are all taken by humans admits the next client as
// a spectator (a bot gives up its slot first), up to sv_maxspectators; the
// one after is refused with a reason, as is a spectator beyond the cap.
// `join` without a free slot keeps the spectator spectating; once a human
// leaves it plays.
func TestFullServerAdmitsSpectators(t *testing.T) {
	srv := startServer(t, server.Config{MaxPlayers: 2, Bots: 1, Cvars: [][2]string{{"sv_maxspectators", "1"}}})
	p1 := connect(t, srv.Addr(), netclient.DefaultConfig("p1"))
	p2 := connect(t, srv.Addr(), netclient.DefaultConfig("p2")) // takes the bot's slot
	if p1.View().Accept.Spectator || p2.View().Accept.Spectator {
		t.Fatalf("players admitted as spectators: p1 %v, p2 %v", p1.View().Accept.Spectator, p2.View().Accept.Spectator)
	}
	late := connect(t, srv.Addr(), netclient.DefaultConfig("late"))
	if !late.View().Accept.Spectator {
		t.Fatal("the client after a server full of humans was not admitted as a spectator")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, cfg := range []netclient.Config{netclient.DefaultConfig("later"), spectatorConfig("watcher")} {
		c, err := netclient.Connect(ctx, netclient.Websocket, srv.Addr(), cfg)
		if err == nil {
			c.Close("test over")
			t.Fatalf("%s was admitted beyond sv_maxspectators 1", cfg.Name)
		}
		var rej *netclient.RejectError
		if !errors.As(err, &rej) || !strings.Contains(rej.Reason, "1/1 spectators") {
			t.Errorf("%s: error %v, want a Reject naming the spectator slots", cfg.Name, err)
		}
	}
	cs := []*netclient.Client{p1, p2, late}
	late.SendCommand("join", "")
	var prints []string
	specDrive(t, 2*time.Second, cs, nil, func() bool { prints = append(prints, late.Match().TakePrints()...); return len(prints) > 0 })
	if !late.View().Spectating || !strings.Contains(strings.Join(prints, "\n"), "full") {
		t.Errorf("join on a full server: spectating %v, told %q; want to stay a spectator, told the server is full", late.View().Spectating, prints)
	}
	p2.Close("leaving")
	cs = []*netclient.Client{p1, late}
	specDrive(t, time.Second, cs, nil, nil)
	late.SendCommand("join", "")
	if !specDrive(t, 5*time.Second, cs, nil, func() bool { return !late.View().Spectating && !late.View().Predicted.Dead }) {
		t.Fatalf("after a player left, join did not bring the spectator into play (prints %q)", late.Match().TakePrints())
	}
}

// Interest management culls for a player, never for a spectator: with 15
// bots spread over the arena the spectator holds all 16 players in every
// frame while the player holds fewer, and what each receives is logged
// (the cost of a stream's view: go test -run TestSpectatorSeesWhatPlayersDoNot -v).
func TestSpectatorSeesWhatPlayersDoNot(t *testing.T) {
	srv := startServer(t, server.Config{Bots: 15, Seed: 21})
	alice := connect(t, srv.Addr(), netclient.DefaultConfig("alice")) // takes a bot's slot
	eve := connect(t, srv.Addr(), spectatorConfig("eve"))
	cs := []*netclient.Client{alice, eve}
	specDrive(t, 2*time.Second, cs, nil, nil) // settle: full snapshots, then deltas
	a0, e0 := alice.ConnStats().BytesIn, eve.ConnStats().BytesIn
	start := time.Now()
	frames, eveAll, aliceFewer := 0, 0, 0
	specDrive(t, 5*time.Second, cs, nil, func() bool {
		frames++
		if len(eve.View().Held) == 16 {
			eveAll++
		}
		if len(alice.View().Held) < 15 {
			aliceFewer++
		}
		return false
	})
	secs := time.Since(start).Seconds()
	aRate, eRate := float64(alice.ConnStats().BytesIn-a0)/secs, float64(eve.ConnStats().BytesIn-e0)/secs
	t.Logf("16 players on arena at cl_updaterate 20: the player receives %.0f B/s holding %d of 15 others; the spectator %.0f B/s holding %d",
		aRate, len(alice.View().Held), eRate, len(eve.View().Held))
	if eveAll < frames*9/10 {
		t.Errorf("the spectator held all 16 players in %d of %d frames", eveAll, frames)
	}
	if aliceFewer < frames/2 {
		t.Errorf("the player held fewer than all 15 others in only %d of %d frames: the arena should cull some", aliceFewer, frames)
	}
}

// holds reports whether c holds player id (the newest snapshot carried it).
func holds(c *netclient.Client, id uint16) bool {
	v := c.View()
	_, ok := v.Holds(id)
	return ok
}
