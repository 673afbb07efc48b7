package lab

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"tickshot/client/netclient"
	"tickshot/shared"
	"time"
)

// run runs preset name (with tweak, if any) for its Duration.
func run(t *testing.T, name string, tweak func(*Knobs)) *Lab {
	t.Helper()
	l, err := New(Config{Preset: name, Seed: 1, Tweak: tweak})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.RunFor(PresetByName(name).Duration); err != nil {
		t.Fatal(err)
	}
	return l
}

// settle is how long the presets' placements take to reach both screens
// (every script waits a second before it acts).
const settle = 500 * time.Millisecond

// runFrames are the Frames since the run began and the placements settled.
func runFrames(l *Lab) []Frame {
	var out []Frame
	for _, f := range l.History() {
		if f.At >= l.Started()+settle {
			out = append(out, f)
		}
	}
	return out
}

// sees tells whether a seat's screen shows a clear line from its own
// player to the other.
func (f Frame) sees(seat int) bool {
	s := f.Seats[seat]
	return s.OtherSeen && f.Server.Map.LineOfSight(s.SelfX, s.SelfY, s.OtherDrawnX, s.OtherDrawnY)
}

// The victim (20 ms) runs behind the pillar; the shooter (200 ms) fires at
// it as drawn. The server confirms the hit: rewound, the line is open;
// on the victim's own screen at that moment it was already behind the
// pillar. With sv_unlag 0 the same shot, traced against the present,
// misses.
func TestShotBehindTheWall(t *testing.T) {
	l := run(t, "behind-wall", nil)
	if len(l.Shots()) != 1 {
		t.Fatalf("%d shots, want the shooter's one", len(l.Shots()))
	}
	sh := l.Shots()[0]
	m := l.Frame().Server.Map
	t.Logf("shot at %v: verdict %s, rewound %.0f ms; victim on its own screen at (%.1f, %.1f), rewound at (%.1f, %.1f), present (%.1f, %.1f)",
		sh.At-l.Started(), sh.Verdict, sh.RewindMs, sh.VictimX, sh.VictimY, sh.RewoundX, sh.RewoundY, sh.PresentX, sh.PresentY)
	if sh.Shooter != P1 || sh.Victim != P2 || sh.Verdict != VerdictHit || !sh.Hit {
		t.Errorf("shot %+v: want player 1's confirmed hit on player 2", sh)
	}
	if !sh.VictimSawOK || m.LineOfSight(sh.VictimSawShooterX, sh.VictimSawShooterY, sh.VictimX, sh.VictimY) {
		t.Errorf("on the victim's screen at the shot the line from the shooter (%.1f, %.1f) to itself (%.1f, %.1f) is open; want it behind the pillar",
			sh.VictimSawShooterX, sh.VictimSawShooterY, sh.VictimX, sh.VictimY)
	}
	if !m.LineOfSight(sh.FromX, sh.FromY, sh.RewoundX, sh.RewoundY) {
		t.Errorf("the line from the muzzle (%.1f, %.1f) to the rewound hitbox (%.1f, %.1f) is blocked; want it open", sh.FromX, sh.FromY, sh.RewoundX, sh.RewoundY)
	}
	if sh.RewindErr != 0 {
		t.Errorf("rewind error %.3f units, want 0", sh.RewindErr)
	}

	off := run(t, "behind-wall", func(k *Knobs) { k.Server.Unlag = false })
	if len(off.Shots()) != 1 {
		t.Fatalf("sv_unlag 0: %d shots, want 1", len(off.Shots()))
	}
	if sh := off.Shots()[0]; sh.Hit || sh.Verdict != VerdictMiss {
		t.Errorf("sv_unlag 0: shot %s (hit %v), want a miss: traced against the present, the victim is behind the pillar", sh.Verdict, sh.Hit)
	}
}

// The peeker (120 ms) sees the holder first, by about its one-way latency
// plus the holder's interpolation.
func TestPeekersAdvantage(t *testing.T) {
	l := run(t, "peeker", nil)
	var peekerSaw, holderSaw time.Duration
	for _, f := range runFrames(l) {
		if peekerSaw == 0 && f.sees(P1) {
			peekerSaw = f.At
		}
		if holderSaw == 0 && f.sees(P2) {
			holderSaw = f.At
		}
	}
	if peekerSaw == 0 || holderSaw == 0 {
		t.Fatalf("peeker saw the holder at %v, the holder the peeker at %v: want both to see", peekerSaw, holderSaw)
	}
	k := l.Knobs()
	p1, p2 := k.Seats[P1], k.Seats[P2]
	expect := float64(p1.Up.LagMs) + float64(p2.InterpMs) // the peeker's one-way latency plus the holder's interp
	adv := ms(holderSaw - peekerSaw)
	// Beyond that: the holder's own latency, a snapshot interval and a
	// tick of waiting, and a frame.
	slack := float64(p2.Down.LagMs) + 1000/float64(p2.UpdateRate) + 1000/float64(k.Server.TickRate) + 1000/FrameRate
	t.Logf("peeker's advantage %.0f ms (peeker saw at %v, holder at %v); one-way latency + interp = %.0f ms", adv, peekerSaw-l.Started(), holderSaw-l.Started(), expect)
	if adv < expect-1000/FrameRate || adv > expect+slack {
		t.Errorf("advantage %.0f ms, want %.0f..%.0f", adv, expect-1000/FrameRate, expect+slack)
	}
	for _, sh := range l.Shots() {
		if sh.RewindErr != 0 {
			t.Errorf("shot %d: rewind error %.3f, want 0", sh.N, sh.RewindErr)
		}
	}
	if first := l.Shots(); len(first) == 0 || first[0].Shooter != P1 {
		t.Errorf("shots %+v: want the peeker to fire first", first)
	}
}

// moveDelay is how long after the script's first move (1 s into the run)
// player 1's own player starts moving on its screen.
func moveDelay(t *testing.T, l *Lab) time.Duration {
	t.Helper()
	var x0 float64
	for i, f := range runFrames(l) {
		if i == 0 {
			x0 = f.Seats[P1].SelfX
		}
		if math.Abs(f.Seats[P1].SelfX-x0) > 0.5 {
			return f.At - l.Started() - time.Second
		}
	}
	t.Fatal("player 1 never moved on its screen")
	return 0
}

// Without prediction the own player moves a round trip after the key; with
// it, in the same frame.
func TestNoPrediction(t *testing.T) {
	l := run(t, "no-prediction", nil)
	k := l.Knobs().Seats[P1]
	rtt := time.Duration(k.Up.LagMs+k.Down.LagMs) * time.Millisecond
	d := moveDelay(t, l)
	on := moveDelay(t, run(t, "no-prediction", func(k *Knobs) { k.Seats[P1].Predict = true }))
	t.Logf("first move on screen: %v after the key without prediction (RTT %v), %v with", d, rtt, on)
	if d < rtt || d > rtt+100*time.Millisecond {
		t.Errorf("cl_predict 0: the player moved %v after the key, want a round trip (%v) to %v", d, rtt, rtt+100*time.Millisecond)
	}
	if on > 2*time.Second/FrameRate {
		t.Errorf("cl_predict 1: the player moved %v after the key, want within two frames", on)
	}
}

// changesPerSecond counts how often player 1's drawn position of player 2
// changes, per second of its strafing.
func changesPerSecond(l *Lab) float64 {
	var last float64
	n, frames := 0, 0
	for _, f := range runFrames(l) {
		if f.At-l.Started() < 1500*time.Millisecond { // strafing at speed
			last = f.Seats[P1].OtherDrawnX
			continue
		}
		frames++
		if x := f.Seats[P1].OtherDrawnX; x != last {
			n++
			last = x
		}
	}
	return float64(n) * FrameRate / float64(frames)
}

// Without interpolation the other player moves in steps, one per snapshot.
func TestNoInterpolation(t *testing.T) {
	l := run(t, "no-interpolation", nil)
	rate := float64(l.Knobs().Seats[P1].UpdateRate)
	off := changesPerSecond(l)
	on := changesPerSecond(run(t, "no-interpolation", func(k *Knobs) { k.Seats[P1].Interpolate = true }))
	t.Logf("player 2's drawn position changes %.1f times/s without interpolation (cl_updaterate %.0f), %.1f with (%d frames/s)", off, rate, on, FrameRate)
	if math.Abs(off-rate) > 2 {
		t.Errorf("cl_interpolate 0: %.1f changes/s, want the update rate %.0f", off, rate)
	}
	if on < FrameRate-2 {
		t.Errorf("cl_interpolate 1: %.1f changes/s, want every frame (%d)", on, FrameRate)
	}
}

// Lost usercmds without backups become prediction errors; with backups
// every command arrives.
func TestLossWithoutBackups(t *testing.T) {
	l := run(t, "loss-no-backup", nil)
	st := l.Client(P1).View().Stats
	backed := run(t, "loss-no-backup", func(k *Knobs) { k.Seats[P1].CmdBackup = 2 }).Client(P1).View().Stats
	lost := l.seats[P1].link.lost
	t.Logf("10 %% upstream loss: %d packets lost; cl_cmdbackup 0: %d prediction errors; cl_cmdbackup 2: %d", lost, st.Corrections, backed.Corrections)
	if lost == 0 || st.Corrections == 0 {
		t.Errorf("cl_cmdbackup 0: %d packets lost, %d prediction errors; want both above 0", lost, st.Corrections)
	}
	if backed.Corrections != 0 {
		t.Errorf("cl_cmdbackup 2: %d prediction errors, want 0", backed.Corrections)
	}
}

// kills counts the kill events.
func kills(l *Lab) int {
	n := 0
	for _, e := range l.Events() {
		if e.Kind == "kill" {
			n++
		}
	}
	return n
}

// Two shots that kill each other in one tick: one death with sv_mutualkills
// 0, two with 1.
func TestMutualKill(t *testing.T) {
	first := run(t, "mutual-kill", nil)
	both := run(t, "mutual-kill", func(k *Knobs) { k.Server.MutualKills = true })
	t.Logf("sv_mutualkills 0: %d deaths; 1: %d deaths", kills(first), kills(both))
	if kills(first) != 1 {
		t.Errorf("sv_mutualkills 0: %d deaths, want 1 (the command run first wins)", kills(first))
	}
	if kills(both) != 2 {
		t.Errorf("sv_mutualkills 1: %d deaths, want 2", kills(both))
	}
	for _, l := range []*Lab{first, both} {
		for _, sh := range l.Shots() {
			if sh.RewindErr != 0 {
				t.Errorf("shot %d: rewind error %.3f, want 0", sh.N, sh.RewindErr)
			}
		}
	}
}

// overshoot is how far, world units, player 1 drew player 2 beyond the
// furthest the server ever had it along x.
func overshoot(l *Lab) float64 {
	maxX, minX := math.Inf(-1), math.Inf(1)
	for _, f := range runFrames(l) {
		for _, p := range f.Server.Players {
			if p.Seat == P2 {
				maxX, minX = math.Max(maxX, p.X), math.Min(minX, p.X)
			}
		}
	}
	worst := 0.0
	for _, f := range runFrames(l) {
		if s := f.Seats[P1]; s.OtherSeen {
			worst = math.Max(worst, math.Max(s.OtherDrawnX-maxX, minX-s.OtherDrawnX))
		}
	}
	return worst
}

// Extrapolation draws a strafing player past its turns; interpolation
// never draws it anywhere it was not.
func TestExtrapolationOvershoot(t *testing.T) {
	extra := overshoot(run(t, "extrapolation", nil))
	interp := overshoot(run(t, "extrapolation", func(k *Knobs) { k.Seats[P1].Interpolate = true }))
	t.Logf("overshoot past player 2's turns: %.1f units extrapolating, %.1f interpolating", extra, interp)
	if extra < 5 {
		t.Errorf("extrapolating: overshoot %.1f units, want 5 or more", extra)
	}
	if interp > 0.5 {
		t.Errorf("interpolating: overshoot %.1f units, want none", interp)
	}
}

// Every preset runs the same twice: positions, shots and verdicts (Hash);
// and with lag compensation on, every shot is rewound exactly to what its
// shooter drew.
func TestPresetsAreDeterministicAndExact(t *testing.T) {
	for _, p := range Presets() {
		a, b := run(t, p.Name, nil), run(t, p.Name, nil)
		if a.Hash() != b.Hash() {
			t.Errorf("%s: two runs differ (hash %x, %x)", p.Name, a.Hash(), b.Hash())
		}
		for _, sh := range a.Shots() {
			if sh.RewindErr != 0 {
				t.Errorf("%s: shot %d rewind error %.3f units, want 0", p.Name, sh.N, sh.RewindErr)
			}
		}
	}
}

// A saved run (inputs by keyboard, a knob turned, a driver changed)
// reopens to the same positions, shots and verdicts.
func TestSaveOpenReplays(t *testing.T) {
	l, err := New(Config{Preset: "behind-wall", Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	l.SetDriver(P1, DriveKeyboard)
	l.Advance(700 * time.Millisecond)
	l.SetInput(P1, netclient.Input{MoveY: -1, Angle: 0.3})
	l.Advance(400 * time.Millisecond)
	k := l.Knobs()
	k.Seats[P1].Up.LagMs, k.Server.Unlag = 150, false
	l.SetKnobs(k)
	l.SetInput(P1, netclient.Input{MoveX: 1, Angle: 0.1, Pressed: shared.ButtonAttack})
	l.Advance(1500 * time.Millisecond)
	var buf bytes.Buffer
	if err := l.Save(&buf); err != nil {
		t.Fatal(err)
	}
	saved := buf.String()
	r, err := Open(strings.NewReader(saved))
	if err != nil {
		t.Fatal(err)
	}
	if r.Now() != l.Now() || r.Hash() != l.Hash() || len(r.Shots()) != len(l.Shots()) {
		t.Errorf("reopened at %v with %d shots (hash %x), saved at %v with %d (hash %x)", r.Now(), len(r.Shots()), r.Hash(), l.Now(), len(l.Shots()), l.Hash())
	}
	if r.Knobs() != k {
		t.Errorf("reopened knobs %+v, want the turned ones %+v", r.Knobs(), k)
	}
	for _, bad := range []string{"", "{}", `{"format":"tickshot-lab","version":2}`,
		strings.Replace(saved, `"until_ns":`, `"until_ns":-`, 1), strings.Replace(saved, `"seat":0`, `"seat":7`, 1)} {
		if _, err := Open(strings.NewReader(bad)); err == nil {
			t.Errorf("Open(%.40q) = nil error, want a refusal", bad)
		}
	}
}

// The readout the browser page exposes has three panes' figures and the
// shot with its verdict.
func TestReadout(t *testing.T) {
	l := run(t, "behind-wall", nil)
	var r Readout
	for _, f := range l.History() {
		if len(f.Shots) > 0 {
			r = f.Readout(l.Preset(), l.Started())
			break
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", b)
	if r.Panes[0].Title != "Player 1" || r.Panes[1].Title != "Server" || r.Panes[2].Title != "Player 2" {
		t.Errorf("pane titles %q %q %q", r.Panes[0].Title, r.Panes[1].Title, r.Panes[2].Title)
	}
	if r.Panes[0].RTTMs != 200 || r.Panes[2].RTTMs != 20 || r.Panes[1].Tick == 0 || r.Panes[1].LastCmds[0] == 0 {
		t.Errorf("figures %+v", r.Panes)
	}
	if len(r.Shots) != 1 || r.Shots[0].Verdict != VerdictHit || r.Shots[0].Shooter != 1 || r.Shots[0].RewindMs <= 0 {
		t.Errorf("shots %+v, want player 1's hit with its rewind", r.Shots)
	}
}

// --sv's server knobs: each cvar sets its knob; bad names and values are
// refused with the reason.
func TestSetServerCvar(t *testing.T) {
	k := DefaultKnobs()
	for _, kv := range [][2]string{{"sv_unlag", "0"}, {"sv_mutualkills", "1"}, {"sv_maxunlag", "0.2"}} {
		if err := k.SetServerCvar(kv[0], kv[1]); err != nil {
			t.Fatalf("%s=%s: %v", kv[0], kv[1], err)
		}
	}
	if k.Server.Unlag || !k.Server.MutualKills || k.Server.MaxUnlag != 0.2 {
		t.Errorf("server knobs %+v, want sv_unlag 0, sv_mutualkills 1, sv_maxunlag 0.2", k.Server)
	}
	for _, kv := range [][2]string{{"sv_cheats", "1"}, {"sv_unlag", "maybe"}, {"sv_maxunlag", "2"}, {"sv_maxunlag", "NaN"}} {
		if err := k.SetServerCvar(kv[0], kv[1]); err == nil {
			t.Errorf("%s=%s: no error", kv[0], kv[1])
		}
	}
}
