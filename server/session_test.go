package server

import (
	"math"
	"testing"
	"time"

	"tickshot/game"
	"tickshot/net/proto"
	"tickshot/shared"
)

// The session's parts, each alone.

func TestCmdQueueBudgetBackupsAndOverflow(t *testing.T) {
	var q cmdQueue
	q.refill(2, 16, 16)
	for n := uint32(1); n <= 4; n++ {
		if !q.push(shared.UserCmd{CommandNumber: n}, 8) {
			t.Fatalf("command %d refused by an empty queue", n)
		}
	}
	q.push(shared.UserCmd{CommandNumber: 3}, 8) // a backup copy: ignored
	var ran []uint32
	for c, ok := q.next(); ok; c, ok = q.next() {
		ran = append(ran, c.CommandNumber)
	}
	if len(ran) != 2 || ran[0] != 1 || ran[1] != 2 || q.lastCmd != 2 {
		t.Fatalf("with 2 ticks of budget ran %v (lastCmd %d), want [1 2]", ran, q.lastCmd)
	}
	q.push(shared.UserCmd{CommandNumber: 2}, 8) // already ran: ignored
	q.refill(100, 16, 16)
	if q.budget != 16 {
		t.Fatalf("budget banked to %d, cap 16", q.budget)
	}
	ran = ran[:0]
	for c, ok := q.next(); ok; c, ok = q.next() {
		ran = append(ran, c.CommandNumber)
	}
	if len(ran) != 2 || ran[0] != 3 || ran[1] != 4 {
		t.Fatalf("then ran %v, want [3 4] (no command buffer: all on arrival)", ran)
	}
	for n := uint32(5); n < 5+8; n++ {
		q.push(shared.UserCmd{CommandNumber: n}, 8)
	}
	if q.push(shared.UserCmd{CommandNumber: 13}, 8) || q.dropped != 1 {
		t.Fatalf("a ninth pending command was accepted (dropped %d)", q.dropped)
	}
}

func TestRateControlUpdateRateAndChoke(t *testing.T) {
	r := rateControl{bytesPerSec: 64000, updateRate: 16, snapAcc: 64}
	var due []int
	for tick := 0; tick < 64; tick++ {
		if r.due(uint32(tick), 64) {
			due = append(due, tick)
			r.sent(100)
		}
	}
	if len(due) != 16 || due[1]-due[0] != 4 {
		t.Fatalf("cl_updaterate 16 at 64 ticks/s: snapshots at ticks %v, want 16, every 4", due)
	}
	// One snapshot far over the rate: half a second's worth, against a
	// bank of a quarter second (full now): 16 000 bytes of debt, paid at
	// 1 000 bytes a tick. The next snapshots are held for 16 ticks, one
	// choke per update interval (4 ticks).
	r.sent(64000 / 2)
	chokedTicks := 0
	for tick := 64; tick < 128 && !r.due(uint32(tick), 64); tick++ {
		chokedTicks++
	}
	if chokedTicks < 15 || chokedTicks > 17 || r.chokesTotal != 4 {
		t.Fatalf("after 16 000 bytes of debt: %d ticks held, %d chokes; want 16 ticks and 4 chokes", chokedTicks, r.chokesTotal)
	}
	if n := r.takeChokes(); n != uint16(r.chokesTotal) || r.takeChokes() != 0 {
		t.Errorf("takeChokes %d of %d total, then not reset", n, r.chokesTotal)
	}
}

func TestAckStateArrivalsRTTAndBaseline(t *testing.T) {
	var a ackState
	a.rttMs = -1
	t0 := time.Unix(1000, 0)
	for i := 0; i < 5; i++ {
		rec := a.record(uint32(100+i), t0.Add(time.Duration(i)*50*time.Millisecond), nil)
		rec.ents = append(rec.ents, proto.EntityState{ID: uint16(i + 1)})
	}
	if a.baseline(6) != nil {
		t.Fatal("a baseline before any ack")
	}
	// Snapshot 4 acked at 80 ms after it was sent; bits say 2 arrived, 3 did not.
	var got []uint32
	if !a.ack(4, 0b10, t0.Add(150*time.Millisecond+80*time.Millisecond)) {
		t.Fatal("ack of a sent snapshot refused")
	}
	a.reached(4, 0b10, func(s *sentSnap) { got = append(got, s.seq) })
	if len(got) != 2 || got[0] != 2 || got[1] != 4 {
		t.Fatalf("arrivals %v, want [2 4] (1 and 3 lost)", got)
	}
	if a.rttMs != 80 || a.ackTick != 103 {
		t.Fatalf("RTT %v ms, ackTick %d; want 80 and 103", a.rttMs, a.ackTick)
	}
	if b := a.baseline(6); b == nil || b.seq != 4 {
		t.Fatalf("baseline for 6: %+v, want snapshot 4", b)
	}
	if a.ack(3, 0, t0) || a.ack(99, 0, t0) {
		t.Fatal("a stale ack or an ack of an unsent snapshot was taken")
	}
	if a.baseline(4+proto.FrameRingSize) != nil {
		t.Fatal("a baseline older than the client's frame ring was used")
	}
}

// viewFixture is a session whose server sent snapshots 1, 2 and 3 with
// player 2 at x = 100, 200 and 300; newest is where the session's view
// has player 2 now, and at a time after all three were sent.
func viewFixture(t *testing.T) (s *Server, ss *session, newest func() float64, at time.Time) {
	s = lcServer(t, Config{})
	ss = testSession(&game.Player{ID: 1}, 0)
	t0 := time.Unix(1000, 0)
	for i := 1; i <= 3; i++ {
		rec := ss.acks.record(uint32(10*i), t0.Add(time.Duration(i)*50*time.Millisecond), ss.view.leave)
		rec.ents = append(rec.ents, proto.EntityState{ID: 2, X: proto.ToFixed(float64(100 * i)), Flags: proto.FlagAlive, Tick: rec.tick})
	}
	newest = func() float64 {
		v := ss.view.entity(2, math.Inf(-1), &ss.acks, s.cfg.TickRate)
		if v == nil || v.Hist.Len() == 0 {
			return 0
		}
		smp, _ := v.Hist.Newest()
		return smp.X
	}
	return s, ss, newest, t0.Add(400 * time.Millisecond)
}

// cmd is usercmd n at the default tick rate.
func cmd(n uint32) shared.UserCmd {
	return shared.UserCmd{CommandNumber: n, Msec: uint8(1000 / DefaultTickRate)}
}

// A backup whose own message was lost arrives beside a newer ack: it is
// rewound with the snapshot it was made with (Cmds.AckAges), not with the
// newer one, which its client had not yet received when it fired.
func TestViewTakesALostMessagesAckFromAckAges(t *testing.T) {
	s, ss, newest, at := viewFixture(t)
	ss.onCmds(s, &proto.Cmds{Ack: 1, Cmds: []shared.UserCmd{cmd(1)}}, at)
	ss.runPending(s)
	// The message with command 2 (made with snapshot 2) is lost; the next
	// one brings it as a backup beside command 3, made with snapshot 3;
	// both queue (no budget left this tick).
	ss.cmds.budget = 0
	m := &proto.Cmds{Ack: 3, AckBits: 3, Cmds: []shared.UserCmd{cmd(1), cmd(2), cmd(3)}, AckAges: []uint8{2, 1, 0}}
	if err := proto.Check(m); err != nil {
		t.Fatal(err)
	}
	ss.onCmds(s, m, at)
	ss.runPending(s)
	if got := newest(); got != 200 {
		t.Fatalf("command 2 next: the view's newest sample at x=%v, want 200 (snapshot 2, which command 2 was made with)", got)
	}
	ss.cmds.refill(1, 16, 16)
	ss.runPending(s)
	if got := newest(); got != 300 {
		t.Fatalf("command 2 ran, 3 next: the view's newest sample at x=%v, want 300", got)
	}
}

// A command queued behind a burst is rewound with the snapshots its client
// had when it made it: the acks of later Cmds messages, which arrive
// before it runs, reach the view only when their own commands run.
func TestViewTakesAcksInCommandOrder(t *testing.T) {
	s, ss, newest, at := viewFixture(t)
	ss.cmds.budget = 1 // room for one command this tick: the rest queue
	// Message 1 brings command 1 with the ack of snapshot 1; it runs at once.
	ss.onCmds(s, &proto.Cmds{Ack: 1, Cmds: []shared.UserCmd{cmd(1)}}, at)
	ss.runPending(s)
	if got := newest(); got != 100 {
		t.Fatalf("after command 1: the view's newest sample at x=%v, want 100 (snapshot 1)", got)
	}
	// Messages 2 and 3 arrive in one tick with no budget left: commands 2
	// and 3 queue. Command 2, next to run, was made with snapshot 2 (its
	// message's ack); snapshot 3 must wait for command 3.
	ss.onCmds(s, &proto.Cmds{Ack: 2, AckBits: 1, Cmds: []shared.UserCmd{cmd(1), cmd(2)}}, at)
	ss.onCmds(s, &proto.Cmds{Ack: 3, AckBits: 3, Cmds: []shared.UserCmd{cmd(2), cmd(3)}}, at)
	ss.runPending(s)
	if got := newest(); got != 200 {
		t.Fatalf("commands 2 and 3 queued: the view's newest sample at x=%v, want 200 (snapshot 3's ack held for command 3)", got)
	}
	if ss.acks.ackSeq != 3 {
		t.Fatalf("the delta baseline is snapshot %d, want 3: holding the view must not hold the acks", ss.acks.ackSeq)
	}
	// Command 2 runs; command 3 is next and was made with snapshot 3.
	ss.cmds.refill(1, 16, 16)
	ss.runPending(s)
	if got, n := newest(), len(ss.cmds.pending)-ss.cmds.head; got != 300 || n != 1 {
		t.Fatalf("after command 2: the view's newest sample at x=%v with %d commands queued, want 300 and 1", got, n)
	}
	ss.cmds.refill(1, 16, 16)
	ss.runPending(s)
	if len(ss.view.held) != 0 {
		t.Fatalf("%d acks still held with no command queued", len(ss.view.held))
	}
}

// A second of commands held back by a stall arrives at once: the queue
// runs it within backlogTicks / sv_maxusrcmdprocessticks ticks while the
// client goes on at one command per tick, and drops none; a client that
// sends two commands per tick of real time (a speed hack) runs no more
// than real time plus the bank.
func TestCmdQueueDrainsABurstWithinRealTime(t *testing.T) {
	cfg := Config{TickRate: 64, MaxUsrCmdProcessTicks: 16}
	bank, perTick, queueCap := cfg.backlogTicks(), cfg.MaxUsrCmdProcessTicks, cfg.backlogTicks()+cfg.MaxUsrCmdProcessTicks
	if bank != 64 {
		t.Fatalf("backlog at 64 ticks/s: %d ticks, want 64 (CmdBacklogMs)", bank)
	}
	var q cmdQueue
	q.budget = perTick
	num := uint32(0)
	ran := 0
	tick := func(arrive int) {
		q.refill(1, bank, perTick)
		for range arrive {
			num++
			if !q.push(shared.UserCmd{CommandNumber: num}, queueCap) {
				t.Fatalf("command %d dropped with %d queued", num, q.depth())
			}
		}
		for _, ok := q.next(); ok; _, ok = q.next() {
			ran++
		}
	}
	for range 64 { // a second at real time
		tick(1)
	}
	for range 63 { // the link stalls a second: nothing arrives...
		tick(0)
	}
	tick(64) // ...then all of it
	drained := -1
	for i := range 128 {
		if q.depth() < 2 && drained < 0 {
			drained = i
		}
		tick(1)
	}
	if drained < 0 || drained > bank/perTick {
		t.Errorf("queue under 2 commands after %d ticks, want within %d", drained, bank/perTick)
	}
	if ran != int(num)-q.depth() || q.depth() > 1 || q.dropped != 0 {
		t.Errorf("ran %d of %d, %d queued, %d dropped; want all but at most one run, none dropped", ran, num, q.depth(), q.dropped)
	}

	// Two commands per tick for 10 s: at most real time plus the bank runs.
	var h cmdQueue
	h.budget = perTick
	num, ran = 0, 0
	q = h
	ticks := 640
	for range ticks {
		q.refill(1, bank, perTick)
		for range 2 {
			num++
			q.push(shared.UserCmd{CommandNumber: num}, queueCap)
		}
		for _, ok := q.next(); ok; _, ok = q.next() {
			ran++
		}
	}
	if ran > ticks+perTick {
		t.Errorf("a speed hack ran %d commands in %d ticks, want at most %d", ran, ticks, ticks+perTick)
	}
	if q.dropped == 0 {
		t.Error("a speed hack's extra commands were all queued, none dropped")
	}
}

// With a command buffer (target 2) the queue runs one command a tick and
// more only while two or more beyond the target wait, and the target
// follows the arrival jitter and loss.
func TestCmdQueueKeepsItsBuffer(t *testing.T) {
	var q cmdQueue
	q.target = 2
	num := uint32(0)
	push := func(n int) {
		for range n {
			num++
			q.push(shared.UserCmd{CommandNumber: num}, 64)
		}
	}
	run := func() (ran int) {
		q.refill(1, 64, 16)
		for _, ok := q.next(); ok; _, ok = q.next() {
			ran++
		}
		return ran
	}
	q.budget = 16
	push(3)
	if r := run(); r != 1 || q.depth() != 2 {
		t.Fatalf("3 queued, target 2: ran %d leaving %d, want 1 leaving 2", r, q.depth())
	}
	push(0)
	if r := run(); r != 1 || q.depth() != 1 {
		t.Fatalf("a tick without arrivals: ran %d leaving %d, want 1 leaving 1 (the buffer covers it)", r, q.depth())
	}
	push(6)
	if r := run(); r != 4 || q.depth() != 3 {
		t.Fatalf("7 queued, target 2: ran %d leaving %d, want 4 leaving 3 (a backlog drains to one beyond)", r, q.depth())
	}
	for _, c := range []struct {
		jitterMs, lossPct float64
		cmdRate, want     int
	}{
		{0, 0, 64, 0}, {2, 0, 64, 0}, {6, 0, 64, 1}, {12, 0, 64, 2}, {0, 2, 64, 1}, {0, 2, 32, 2}, {200, 50, 16, MaxCmdBuffer},
	} {
		if got := cmdBufferTarget(c.jitterMs, c.lossPct, 64, c.cmdRate); got != c.want {
			t.Errorf("target for %v ms jitter, %v %% loss, cl_cmdrate %d at 64 ticks/s: %d, want %d", c.jitterMs, c.lossPct, c.cmdRate, got, c.want)
		}
	}
}

// The command budget follows real time: ticks that each run half an
// interval late grant 1.5 ticks a tick on average (the fractions carry
// over), ticks on time grant 1 each, a tick run early still grants 1 (and
// at most one tick ahead is lent), and a stall grants the bank's limit with
// nothing carried beyond it.
func TestBudgetClockCarriesFractions(t *testing.T) {
	const interval = 15625 * time.Microsecond // 64 ticks/s
	t0 := time.Unix(1000, 0)
	var late budgetClock
	late.ticks(t0, interval, 64)
	total := 0
	for i := 1; i <= 100; i++ {
		total += late.ticks(t0.Add(time.Duration(i)*interval*3/2), interval, 64)
	}
	if total < 149 || total > 150 {
		t.Errorf("100 ticks each 1.5 intervals apart granted %d ticks, want 150 (the fractions carried)", total)
	}
	var onTime budgetClock
	for i := 0; i <= 50; i++ {
		if n := onTime.ticks(t0.Add(time.Duration(i)*interval), interval, 64); n != 1 {
			t.Fatalf("tick %d on time granted %d, want 1", i, n)
		}
	}
	var early budgetClock
	early.ticks(t0, interval, 64)
	total = 0
	for i := 1; i <= 20; i++ {
		total += early.ticks(t0.Add(time.Duration(i)*interval/2), interval, 64)
	}
	if total != 20 {
		t.Errorf("20 ticks run twice as fast granted %d, want 1 each", total)
	}
	if n := early.ticks(t0.Add(10*interval+interval/2), interval, 64); n != 1 {
		t.Errorf("after running ahead, the next tick granted %d, want 1 (at most one tick lent)", n)
	}
	var stall budgetClock
	stall.ticks(t0, interval, 64)
	if n := stall.ticks(t0.Add(10*time.Second), interval, 64); n != 64 {
		t.Errorf("a 10 s stall granted %d, want the limit 64", n)
	}
	if n := stall.ticks(t0.Add(10*time.Second+interval), interval, 64); n != 1 {
		t.Errorf("the tick after a stall granted %d, want 1: nothing carried beyond the limit", n)
	}
}
