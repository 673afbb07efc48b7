package netclient_test

import (
	"math"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/server"
	"tickshot/shared"
)

// TestDashPredictionMatchesServer: a scripted run over 200 ms of round
// trip that dashes again and again (into a wall, across the room, pressed
// again inside the cooldown, while firing the shotgun) is predicted
// exactly: every tick the prediction equals the acknowledged state
// replayed through the newer commands, the server never corrects it
// (Stats.Corrections 0), and at the end prediction and server agree,
// dash cooldown included.
func TestDashPredictionMatchesServer(t *testing.T) {
	srv := startServer(t, server.Config{TickRate: 64, Seed: 7, Fake: proto.FakeConditions{LagMs: 100}})
	c := connect(t, srv.Addr(), netclient.DefaultConfig("dasher"))
	c.SetFakeConditions(proto.FakeConditions{LagMs: 100})
	waitFirstSnapshot(t, c)
	rec := newRecorder(c)
	start := c.View().Predicted
	wdx, wdy, _, _ := nearestOuterWall(c.View().Map, start.X, start.Y)

	type phase struct {
		ticks   int
		move    [2]float32
		buttons uint16
	}
	const hz = 64
	dash := shared.ButtonDash
	script := []phase{
		{ticks: hz / 4, move: [2]float32{wdx, wdy}, buttons: dash},                         // dash towards the nearest wall, held
		{ticks: hz / 2, move: [2]float32{wdx, wdy}, buttons: dash | shared.ButtonAttack},   // into it, pressed again in the cooldown
		{ticks: hz * 2, move: [2]float32{-wdx, -wdy}},                                      // back, the cooldown runs out
		{ticks: hz / 8, move: [2]float32{wdy - wdx, -wdx - wdy}, buttons: dash},            // a diagonal dash
		{ticks: hz * 2, move: [2]float32{0.37, -0.81}, buttons: shared.ButtonAttack},       // fractional axes, firing
		{ticks: hz / 8, move: [2]float32{-0.6, 0.2}, buttons: dash},                        // a partial-input dash
		{ticks: hz / 2, move: [2]float32{0, 0}, buttons: dash},                             // standing: the button does nothing
		{ticks: hz * 2, move: [2]float32{-wdx, -wdy}, buttons: dash | shared.ButtonAttack}, // dash as soon as it is ready
		{ticks: hz, move: [2]float32{0, 0}},                                                // stand still
	}
	dt := time.Second / hz
	ticker := time.NewTicker(dt)
	defer ticker.Stop()
	dashes, blocked := 0, 0
	for pi, ph := range script {
		for i := 0; i < ph.ticks; i++ {
			<-ticker.C
			if err := c.Poll(); err != nil {
				t.Fatalf("poll: %v", err)
			}
			if got, want := c.View().Predicted, rec.replay(); !got.Equal(want) {
				t.Fatalf("phase %d tick %d: prediction %+v differs from the acked state replayed %+v", pi, i, got, want)
			}
			before := c.View().Predicted
			n := c.View().CommandNumber
			rec.tick(dt, netclient.Input{MoveX: ph.move[0], MoveY: ph.move[1], Buttons: ph.buttons, Weapon: shared.WeaponShotgun,
				Angle: float32(math.Remainder(float64(pi)*0.7+float64(i)*0.03, 2*math.Pi))})
			if ph.buttons&dash != 0 && c.View().CommandNumber != n {
				if c.View().Predicted.DashTicks > before.DashTicks {
					dashes++
				} else if before.DashTicks > 0 {
					blocked++
				}
			}
			c.Shots().TakeEffects()
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for c.View().AckCmd != c.View().CommandNumber {
		if time.Now().After(deadline) {
			t.Fatalf("server acked %d of %d commands within 10 s", c.View().AckCmd, c.View().CommandNumber)
		}
		time.Sleep(5 * time.Millisecond)
		if err := c.Poll(); err != nil {
			t.Fatalf("poll: %v", err)
		}
	}
	st := c.View().Stats
	t.Logf("%d commands, %d dashes, %d presses refused by the cooldown, %d corrections", c.View().CommandNumber, dashes, blocked, st.Corrections)
	if pred, auth := c.View().Predicted, c.View().ServerState; !pred.Equal(auth) {
		t.Errorf("after every command was acked: predicted %+v, server %+v", pred, auth)
	}
	if st.Corrections != 0 {
		t.Errorf("prediction corrections = %d (last error %.2f units), want 0", st.Corrections, st.LastErrorDist)
	}
	if dashes < 3 || blocked < 10 {
		t.Errorf("%d dashes and %d presses in the cooldown: the script should dash 4 times (at least 3) and be refused often", dashes, blocked)
	}
}
