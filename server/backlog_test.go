package server_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"tickshot/client/netclient"
	"tickshot/net/proto"
	"tickshot/net/rtc"
	"tickshot/server"
	"tickshot/shared"
)

// TestBacklogDrainsAfterStall is issue 19's backlog test over a real
// websocket: a client makes one usercmd per tick of real time, its link
// stalls for half a second (its commands then arrive in one burst, as TCP
// delivers what a lost packet held back), and it goes on at real time.
// Half a second leaves the test's own loop half a second of lateness on a
// loaded machine before its stall outgrows the command time a client may
// bank (CmdBacklogMs, 1 s): the commands beyond that bank wait as real
// time allows, by design (the speed-hack guard), and a stall the test
// meant as 1 s once became 1.17 s under load.
// The server's queue for it (Snapshot.CmdQueue), beyond the command
// buffer its jitter calls for (CmdTarget, 0 on a quiet loopback), is back
// under 2 commands within 2 s of server ticks of the burst (counted by the
// snapshots' ticks, not the wall clock: on a loaded machine the server
// runs late, and the test holds it to the ticks it actually ran) and no
// command is dropped:
// before, the burst used the 16-tick bank and the rest stayed queued for
// good, as input delay on every later command.
func TestBacklogDrainsAfterStall(t *testing.T) {
	for _, mode := range []rtc.Mode{rtc.ModeWebSocket, rtc.ModeWebRTC} {
		t.Run(string(mode), func(t *testing.T) { testBacklogDrains(t, mode) })
	}
}

// testBacklogDrains runs TestBacklogDrainsAfterStall with its usercmds
// on the WebSocket or as WebRTC datagrams (cl_transport mode).
func testBacklogDrains(t *testing.T, mode rtc.Mode) {
	_, addr := startServer(t, server.Config{Bots: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	tr, err := netclient.Dial(mode)(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	conn := proto.NewConn(tr)
	defer conn.Close("test over")
	conn.Send(&proto.Hello{Protocol: proto.ProtocolVersion, Name: "stalled", Rate: 1 << 20, UpdateRate: 64,
		CmdRate: 64, InterpMs: 100, InterpRatio: 2})

	type sample struct {
		at     time.Time
		tick   uint32 // the server tick the snapshot was taken at
		queue  int    // commands queued beyond the buffer's target
		ackCmd uint32
		seq    uint32
	}
	var (
		mu      sync.Mutex
		samples []sample
		accept  = make(chan *proto.Accept, 1)
	)
	go func() {
		for p := range conn.Recv() {
			switch m := p.Msg.(type) {
			case *proto.Accept:
				accept <- m
			case *proto.Snapshot:
				mu.Lock()
				samples = append(samples, sample{p.At, m.Tick, int(m.CmdQueue) - int(m.CmdTarget), m.AckCmd, m.Seq})
				mu.Unlock()
			}
		}
	}()
	var acc *proto.Accept
	select {
	case acc = <-accept:
	case <-time.After(3 * time.Second):
		t.Fatal("no accept")
	}
	tickRate := int(acc.TickRate)
	newestSeq := func() uint32 {
		mu.Lock()
		defer mu.Unlock()
		if len(samples) == 0 {
			return 0
		}
		return samples[len(samples)-1].seq
	}
	waitFor(t, 2*time.Second, "a first snapshot", func() bool { return newestSeq() > 0 })
	waitFor(t, 5*time.Second, "the "+string(mode)+" transport", func() bool { return conn.Transport() == string(mode) })

	// One command per tick of real time, made by the wall clock as a
	// client's frames make them; held while the link stalls.
	tick := time.Second / time.Duration(tickRate)
	start := time.Now()
	num := uint32(0)
	var held []shared.UserCmd
	send := func(cs []shared.UserCmd) {
		for len(cs) > 0 {
			n := min(len(cs), proto.MaxCmdsPerMsg)
			if !conn.Send(&proto.Cmds{Ack: newestSeq(), Cmds: cs[:n]}) {
				t.Fatalf("send failed: %v", reasonOf(conn))
			}
			cs = cs[n:]
		}
	}
	var burstAt time.Time
	var burstTick uint32 // the newest snapshot's tick when the burst left
	stallFrom, stallTo := time.Second, 1500*time.Millisecond
	for el := time.Duration(0); el < 5*time.Second; el = time.Since(start) {
		for due := uint32(el/tick) + 1; num < due; {
			num++
			c := goodCmd(num, tickRate)
			c.MoveX = 0 // standing: walls play no part
			held = append(held, c)
		}
		if el < stallFrom || el >= stallTo {
			if burstAt.IsZero() && el >= stallTo {
				burstAt = time.Now()
				mu.Lock()
				burstTick = samples[len(samples)-1].tick
				mu.Unlock()
				t.Logf("burst: %d commands held over the %v stall", len(held), stallTo-stallFrom)
			}
			send(held)
			held = held[:0]
		}
		time.Sleep(tick / 2)
	}
	sent := num
	waitFor(t, 2*time.Second, "the last command run", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return samples[len(samples)-1].ackCmd == sent
	})

	mu.Lock()
	defer mu.Unlock()
	// The queue after the burst: the first time it is under 2 again, and
	// never 2 or more for long after that.
	var drainedAt time.Time
	var drainedTick uint32
	deepAfter := 0
	for _, s := range samples {
		if s.tick <= burstTick {
			continue
		}
		if drainedAt.IsZero() {
			if s.queue < 2 {
				drainedAt, drainedTick = s.at, s.tick
			}
			continue
		}
		if s.queue >= 2 && int(s.tick-drainedTick) > tickRate/2 {
			deepAfter++
		}
	}
	if drainedAt.IsZero() {
		t.Fatalf("the queue never fell under 2 commands beyond its target after the burst (last %d)", samples[len(samples)-1].queue)
	}
	ticks := int(drainedTick - burstTick)
	t.Logf("queue under 2 commands %d server ticks (%v) after the burst; %d later snapshots with 2 or more",
		ticks, drainedAt.Sub(burstAt).Round(time.Millisecond), deepAfter)
	if ticks > 2*tickRate {
		t.Errorf("the queue took %d server ticks (%v) to fall under 2 commands beyond its target after the burst, want within %d (2 s)",
			ticks, drainedAt.Sub(burstAt).Round(time.Millisecond), 2*tickRate)
	}
	if deepAfter > len(samples)/20 {
		t.Errorf("%d snapshots after the drain still saw 2 or more commands queued: the backlog stayed", deepAfter)
	}
	st, err := getStatus(addr)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range st.Players {
		if p.Name == "stalled" && p.CmdsDropped != 0 {
			t.Errorf("%d of the stalled client's commands dropped, want none", p.CmdsDropped)
		}
	}
}
