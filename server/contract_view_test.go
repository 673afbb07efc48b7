package server

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tickshot/game"
	"tickshot/net/proto"
)

// docs/PROTOCOL.md stays a contract (issue 19 item 6): what a snapshot's
// view, settled event ID and first scoreboard are, as the document says.

func protocolDocText(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(string(b)), " ") // sentences run over lines
}

// §5.10: the view is placed by the player's position in the snapshot and
// its edges are where the document's formula and examples put them: a
// player exactly on an edge is sent, 1/64 unit beyond it is not.
func TestDocViewEdges(t *testing.T) {
	doc := protocolDocText(t)
	if !strings.Contains(doc, "the camera is placed by **the player's position in that snapshot, `Self.X/64`, `Self.Y/64`**") ||
		!strings.Contains(doc, "`c = max(−40, min(p − V/2, S − V + 40))` when `S > V`, else `c = (S − V)/2`; the view rectangle runs from `c − 160` to `c + V + 160`") {
		t.Error("docs/PROTOCOL.md §5.10 does not give the view's position and edges")
	}
	ex := regexp.MustCompile(`at \((\d+), (\d+)\) sees x from (−?\d+) to (\d+) and y from (−?\d+) to (\d+)`).FindAllStringSubmatch(doc, -1)
	if len(ex) != 2 {
		t.Fatalf("§5.10's examples: found %d, want 2", len(ex))
	}
	num := func(s string) float64 {
		v, err := strconv.ParseFloat(strings.Replace(s, "−", "-", 1), 64)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	s := lcServer(t, Config{Seed: 1}) // arena, 2048 x 1536
	me := s.newPlayer("me", false)
	ss := lcSession(me, 50)
	const step = 1.0 / 64
	for _, e := range ex {
		me.State.X, me.State.Y = num(e[1]), num(e[2])
		want := game.Rect{MinX: num(e[3]), MaxX: num(e[4]), MinY: num(e[5]), MaxY: num(e[6])}
		if got := game.ViewRect(s.w.Map, me.State.X, me.State.Y); got != want {
			t.Errorf("player at (%s, %s): ViewRect %+v, the document says %+v", e[1], e[2], got, want)
		}
		// Others on each edge (in) and just past it (out), in the middle
		// of the other axis.
		midX, midY := (want.MinX+want.MaxX)/2, (want.MinY+want.MaxY)/2
		type probe struct {
			x, y float64
			in   bool
		}
		var probes []probe
		for _, x := range []float64{want.MinX, want.MaxX} {
			out := x - step
			if x == want.MaxX {
				out = x + step
			}
			probes = append(probes, probe{x, midY, true}, probe{out, midY, false})
		}
		for _, y := range []float64{want.MinY, want.MaxY} {
			out := y - step
			if y == want.MaxY {
				out = y + step
			}
			probes = append(probes, probe{midX, y, true}, probe{midX, out, false})
		}
		var others []*game.Player
		for _, pr := range probes {
			o := s.newPlayer("o", false)
			o.State.X, o.State.Y = pr.x, pr.y
			others = append(others, o)
		}
		snap, ents := sendTo(t, s, ss)
		if proto.FromFixed(snap.Self.X) != me.State.X || proto.FromFixed(snap.Self.Y) != me.State.Y {
			t.Fatalf("Self (%d, %d) is not the player's position", snap.Self.X, snap.Self.Y)
		}
		for i, pr := range probes {
			if has(ents, others[i].ID) != pr.in {
				t.Errorf("player at (%s, %s): another at (%v, %v) sent %v, want %v", e[1], e[2], pr.x, pr.y, !pr.in, pr.in)
			}
		}
		for _, o := range others {
			s.w.RemovePlayer(o.ID, "probe done")
		}
	}
}

// §8.2: a snapshot settles the newest event ID the server has given out,
// even when that event is for another client or already dropped; and §5.8:
// a client's first snapshot carries the scoreboard, also on a server that
// has just started (it came only once the server had run 1-2 s).
func TestDocSettledEventAndFirstScoreboard(t *testing.T) {
	doc := protocolDocText(t)
	for _, sentence := range []string{
		"**the newest ID the server has given out when it writes the snapshot** (server-wide: that event may be for another client, outside C's view, or already dropped after 2 s), or, when C's budget made events wait, **the ID just before the first event that waited**",
		"It is in **the client's first snapshot**",
	} {
		if !strings.Contains(doc, sentence) {
			t.Errorf("docs/PROTOCOL.md does not say: %s", sentence)
		}
	}
	s := lcServer(t, Config{Seed: 1})
	me, other := s.newPlayer("me", false), s.newPlayer("other", false)
	ss, os := lcSession(me, 50), lcSession(other, 50)
	s.sessions = []*session{ss, os}
	s.w.Tick = 10 // a server that has just started
	snap, _ := sendTo(t, s, ss)
	if len(snap.Scores) != 2 {
		t.Errorf("first snapshot at tick 10: Scores %+v, want both players", snap.Scores)
	}
	s.addEvent(proto.Event{Kind: proto.EvChat, A: other.ID, Text: "for other only"}, other.ID)
	id := s.events.add(proto.Event{Kind: proto.EvChat, A: other.ID, Text: "again"}, other.ID, s.w.Tick, s.sessions)
	s.w.Tick++
	snap, _ = sendTo(t, s, ss)
	if len(snap.Events) != 0 || ss.out.evDone != id {
		t.Errorf("events for another client: carried %+v, settled %d; want none carried, %d settled", snap.Events, ss.out.evDone, id)
	}
	s.w.Tick += 3 * uint32(s.cfg.TickRate) // both dropped after 2 s
	s.events.trim(s.w.Tick)
	if sendTo(t, s, ss); ss.out.evDone != id {
		t.Errorf("after the events were dropped: settled %d, want %d", ss.out.evDone, id)
	}
}
