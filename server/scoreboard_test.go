package server

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vmihailenco/msgpack/v5"

	"tickshot/net/proto"
)

// scoreTable is a server scoreboard of n players with ids 1..n, names and
// pings.
func scoreTable(n int, rng *rand.Rand) []proto.ScoreEntry {
	rows := make([]proto.ScoreEntry, n)
	for i := range rows {
		rows[i] = proto.ScoreEntry{ID: uint16(i + 1), Name: fmt.Sprintf("player-%04d", i+1), PingMs: uint16(20 + rng.IntN(80)), Bot: i%3 == 0}
	}
	return rows
}

// applyScores is what a client does with a delta (netclient.Match): rows
// replace by id, a nameless row keeps the name, a gone row is removed.
func applyScores(table, delta []proto.ScoreEntry) []proto.ScoreEntry {
	for _, r := range delta {
		i, found := slices.BinarySearchFunc(table, r.ID, byID)
		switch {
		case r.Team == proto.ScoreGone:
			if found {
				table = slices.Delete(table, i, i+1)
			}
			continue
		case r.Name == "" && found:
			r.Name = table[i].Name
		}
		if found {
			table[i] = r
		} else {
			table = slices.Insert(table, i, r)
		}
	}
	return table
}

// sameBoard reports whether the client's table is the server's, pings
// within the slack a delta leaves them.
func sameBoard(client, server []proto.ScoreEntry) bool {
	if len(client) != len(server) {
		return false
	}
	for i := range client {
		if client[i].ID != server[i].ID || differs(&server[i], &client[i]) {
			return false
		}
	}
	return true
}

var noneWanted []uint16 // no wanted rows

// A client that starts with nothing holds the 1 024-row table after at
// most 50 acknowledged deltas, none over scoreBytesPerUpdate bytes; the
// first one has its own row, the wanted rows and the leaders; rows of
// players who leave are removed, new players added, changed rows resent,
// names only once.
func TestScoreDeltaConverges(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 1))
	table := scoreTable(1024, rng)
	table[700].Kills, table[900].Kills = 50, 40 // the leaders
	var v scoreView
	var client []proto.ScoreEntry
	const self = 512
	wanted := []uint16{100, 101}
	leaders := leadersOf(nil, table, scoreLeaders)
	if leaders[0] != 701 || leaders[1] != 901 {
		t.Fatalf("leaders %v, want 701 and 901 first", leaders)
	}
	rounds := 0
	for ; !sameBoard(client, table); rounds++ {
		if rounds > 50 {
			t.Fatalf("after %d deltas the client holds %d of %d rows", rounds, len(client), len(table))
		}
		full, wire := v.delta(nil, nil, table, self, wanted, leaders)
		b, _ := compactMsgpack(wire)
		if len(wire) > scoreRowsPerUpdate || len(full) != len(wire) || len(b) > scoreBytesPerUpdate+3 {
			t.Fatalf("delta %d: %d rows (%d full), %d bytes; limits %d rows, %d bytes", rounds, len(wire), len(full), len(b), scoreRowsPerUpdate, scoreBytesPerUpdate)
		}
		if rounds == 0 {
			var ids []uint16
			for _, r := range wire {
				ids = append(ids, r.ID)
			}
			for _, id := range []uint16{self, 100, 101, 701, 901} {
				if !slices.Contains(ids, id) {
					t.Errorf("the first delta %v lacks row %d", ids, id)
				}
			}
		}
		for _, r := range wire {
			if r.Name == "" {
				t.Fatalf("delta %d: row %d without a name the client never had", rounds, r.ID)
			}
		}
		client = applyScores(client, wire)
		v.learn(full) // acknowledged
	}
	if v.pending {
		t.Error("the table is the client's, yet the view says rows are pending")
	}
	// Changes: 30 kills, 10 leave, 5 join (one of them behind a reused id).
	for k := range 30 {
		table[k*30].Kills++
	}
	for k := range 10 {
		i := 100 + 17*k - k // ids 101, 117, ...
		table = slices.Delete(table, i, i+1)
	}
	table[200].Name = "newcomer" // a reused id: the name is sent again
	for k := range 4 {
		table = append(table, proto.ScoreEntry{ID: uint16(2000 + k), Name: fmt.Sprint("late", k)})
	}
	leaders = leadersOf(leaders, table, scoreLeaders)
	named := 0
	for r := 0; !sameBoard(client, table); r++ {
		if r > 2 {
			t.Fatalf("after %d more deltas the client's table differs", r)
		}
		full, wire := v.delta(nil, nil, table, self, noneWanted, leaders)
		for _, row := range wire {
			if row.Name != "" {
				named++
			}
		}
		client = applyScores(client, wire)
		v.learn(full)
	}
	if named != 5 { // the 4 new players and the reused id
		t.Errorf("%d rows carried a name after the table was learnt, want 5", named)
	}
	t.Logf("1024 rows learnt in %d deltas of at most %d bytes", rounds, scoreBytesPerUpdate)
}

// A delta that is not acknowledged is sent again (the next delta is
// written against the same table), and the round goes on from where it
// stopped, so rows far down the ids are not starved by those before.
func TestScoreDeltaUnackedAndRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 2))
	table := scoreTable(100, rng)
	var v scoreView
	_, first := v.delta(nil, nil, table, 1, noneWanted, nil)
	_, again := v.delta(nil, nil, table, 1, noneWanted, nil) // the first was lost
	if len(first) < 20 || len(first) == len(table) || first[0].ID != 1 {
		t.Fatalf("first delta %d rows from %d", len(first), first[0].ID)
	}
	if again[0].ID != 1 || again[1].ID == first[1].ID {
		t.Errorf("after a lost delta: rows from %d, %d; want own row 1, then the round past %d", again[0].ID, again[1].ID, first[len(first)-1].ID)
	}
}

// TestScoreDeltaSteadyBytes: a client holding the table of 1 024 players
// in a busy match (100 kills a second, every ping jittering by up to 8 ms
// and one in a hundred moving by 40 ms a second) for 60 s, a scoreboard
// when the server's schedule says (1 s after a change, 500 ms while rows
// are pending): the scoreboard costs the client at most
// scoreBytesBudget bytes a second, and no changed row waits more than
// 15 s (the own row and the leaders' go first: they never wait).
func TestScoreDeltaSteadyBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 3))
	table := scoreTable(1024, rng)
	var v scoreView
	var client []proto.ScoreEntry
	for !sameBoard(client, table) { // learn the table first
		full, wire := v.delta(nil, nil, table, 1, noneWanted, leadersOf(nil, table, scoreLeaders))
		client = applyScores(client, wire)
		v.learn(full)
	}
	const seconds, steps = 60, 4 // quarter seconds
	bytes, worstWait := 0, 0
	since := map[uint16]int{} // the step a row last started to differ
	last := 0
	for step := range seconds * steps {
		for range 100 / steps {
			table[rng.IntN(len(table))].Kills++
			table[rng.IntN(len(table))].Deaths++
		}
		for i := range table {
			j := int(table[i].PingMs) + rng.IntN(17) - 8
			if rng.IntN(100*steps) == 0 {
				j += 40
			}
			table[i].PingMs = uint16(min(max(j, 5), 400))
		}
		due := step-last >= steps || (v.pending && step-last >= steps/2)
		if due {
			full, wire := v.delta(nil, nil, table, 1, noneWanted, leadersOf(nil, table, scoreLeaders))
			b, err := compactMsgpack(wire)
			if err != nil {
				t.Fatal(err)
			}
			bytes += len(b) + 8 // and the match clock
			client = applyScores(client, wire)
			v.learn(full)
			last = step
		}
		for i := range table {
			j, found := slices.BinarySearchFunc(client, table[i].ID, byID)
			id := table[i].ID
			if found && !differs(&table[i], &client[j]) {
				delete(since, id)
				continue
			}
			if _, ok := since[id]; !ok {
				since[id] = step
			}
			worstWait = max(worstWait, step-since[id])
		}
	}
	perSecond := float64(bytes) / seconds
	if perSecond > scoreBytesBudget {
		t.Errorf("scoreboard %.0f B/s, budget %d", perSecond, scoreBytesBudget)
	}
	if worstWait > 15*steps {
		t.Errorf("a changed row waited %.2f s", float64(worstWait)/steps)
	}
	t.Logf("1024 players, 100 kills/s, 60 s: scoreboard %.0f B/s a client; a changed row waited at most %.2f s", perSecond, float64(worstWait)/steps)
}

// rowBytes is the size of a row's msgpack encoding.
func TestRowBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 4))
	for range 10000 {
		r := proto.ScoreEntry{ID: uint16(rng.IntN(70000)), Name: fmt.Sprintf("%.*s", rng.IntN(25), "abcdefghijklmnopqrstuvwxyz"),
			Kills: int16(rng.IntN(70000) - 35000), Deaths: int16(rng.IntN(300) - 20), PingMs: uint16(rng.IntN(70000)),
			Bot: rng.IntN(2) == 0, Team: uint8(rng.IntN(4)), Color: uint8(rng.IntN(9))}
		if rng.IntN(2) == 0 {
			r.Team = proto.ScoreGone
		}
		b, err := compactMsgpack(&r)
		if err != nil {
			t.Fatal(err)
		}
		if rowBytes(&r) != len(b) {
			t.Fatalf("%+v: rowBytes %d, encoded %d", r, rowBytes(&r), len(b))
		}
	}
}

// compactMsgpack encodes v as the wire does (proto's encoder: integers in
// their compact forms).
func compactMsgpack(v any) ([]byte, error) {
	var b bytes.Buffer
	e := msgpack.NewEncoder(&b)
	e.UseCompactInts(true)
	err := e.Encode(v)
	return b.Bytes(), err
}

// snapNames.ids names, ascending and each once, exactly the IDs the test
// it replaced (a binary search of the entities, a loop over the events)
// wanted, on random snapshots.
func TestSnapNamesIDsMatchTheTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	var ids []uint16
	for round := range 2000 {
		snap := &proto.Snapshot{}
		for id := uint16(1); id < 200; id++ {
			if rng.IntN(8) == 0 {
				snap.Entities = append(snap.Entities, proto.EntityState{ID: id})
			}
		}
		for range rng.IntN(6) {
			snap.Events = append(snap.Events, proto.Event{A: uint16(rng.IntN(200)), B: uint16(rng.IntN(200))})
		}
		wanted := func(id uint16) bool {
			if _, found := slices.BinarySearchFunc(snap.Entities, id, func(e proto.EntityState, id uint16) int { return cmp.Compare(e.ID, id) }); found {
				return true
			}
			for _, e := range snap.Events {
				if e.A == id || e.B == id {
					return true
				}
			}
			return false
		}
		ids = snapNames{snap}.ids(ids)
		var want []uint16
		for id := range uint16(200) {
			if wanted(id) {
				want = append(want, id)
			}
		}
		if !slices.Equal(ids, want) {
			t.Fatalf("round %d: ids %v, the test wants %v", round, ids, want)
		}
	}
}
