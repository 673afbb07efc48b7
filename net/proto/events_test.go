package proto

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

func sampleEvents(rng *rand.Rand, tick uint32, n int) []Event {
	var evs []Event
	id := uint32(rng.IntN(1 << 20))
	for i := 0; i < n; i++ {
		id += 1 + uint32(rng.IntN(5))
		e := Event{ID: id, Tick: tick - uint32(rng.IntN(128)), Kind: uint8(1 + rng.IntN(9))}
		switch rng.IntN(4) {
		case 0: // a shot
			e.A, e.X, e.Y = uint16(rng.IntN(300)), rng.Int32N(1<<17), rng.Int32N(1<<17)
			e.X2, e.Y2 = e.X+rng.Int32N(40000)-20000, e.Y+rng.Int32N(40000)-20000
		case 1: // a hit
			e.A, e.B, e.Value = uint16(rng.IntN(300)), uint16(rng.IntN(300)), int16(rng.IntN(200)-100)
			e.X2, e.Y2 = rng.Int32N(1<<17), -rng.Int32N(1<<17)
		case 2: // a join
			e.A, e.Text = uint16(rng.IntN(65536)), "player ünïcode "+strings.Repeat("x", rng.IntN(20))
		default: // extremes
			e.A, e.B, e.X, e.Y, e.X2, e.Y2 = 65535, 1, -1<<31, 1<<31-1, 1<<31-1, -1<<31
			e.Value, e.Cmd = -32768, 1<<32-1
		}
		evs = append(evs, e)
	}
	return evs
}

func TestEventsRoundTripAndSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	compact, msgp := 0, 0
	for round := 0; round < 300; round++ {
		tick := uint32(1000 + rng.IntN(1<<30))
		evs := sampleEvents(rng, tick, rng.IntN(12))
		data := AppendEvents(nil, tick, evs)
		got, err := DecodeEvents(nil, tick, data)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 && len(got) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, evs) {
			t.Fatalf("round trip:\n got %+v\nwant %+v", got, evs)
		}
		compact += len(data)
		// As they were sent before: a msgpack array of Event arrays.
		var buf bytes.Buffer
		enc := msgpack.NewEncoder(&buf)
		enc.UseCompactInts(true)
		if err := enc.Encode(evs); err != nil {
			t.Fatal(err)
		}
		msgp += buf.Len()
	}
	t.Logf("events: compact %d bytes, msgpack arrays %d (%.0f %%)", compact, msgp, 100*float64(compact)/float64(msgp))
	if compact >= msgp*3/4 {
		t.Errorf("compact events %d bytes against %d as msgpack arrays", compact, msgp)
	}
	// A shot: the typical event.
	shot := []Event{{ID: 5000, Tick: 100, Kind: EvShot, A: 7, X: 64 * 1000, Y: 64 * 700, X2: 64 * 1400, Y2: 64 * 650}}
	if n := len(AppendEvents(nil, 102, shot)); n > 17 {
		t.Errorf("a shot event takes %d bytes, want at most 17", n)
	}
}

func TestDecodeEventsRejectsBrokenInput(t *testing.T) {
	good := AppendEvents(nil, 100, []Event{{ID: 5, Tick: 99, Kind: EvJoin, A: 3, Text: "Alyx"}})
	cases := map[string][]byte{
		"truncated":           good[:len(good)-2],
		"tick after snapshot": {5, 101, 4, 0},
		"unknown mask bit":    {5, 0, 4, 0x80, 0x04},
		"A out of range":      {5, 0, 4, evA, 0x80, 0x80, 0x04},
		"text too long":       append([]byte{5, 0, 4, 0x80, 0x01, 0x81, 0x02}, make([]byte, 257)...),
		"control character":   {5, 0, 4, 0x80, 0x01, 1, 0x07},
		"ids not increasing":  append(append([]byte{}, good...), 0, 0, 4, 0),
		"id beyond uint32":    {0xff, 0xff, 0xff, 0xff, 0x1f, 0, 4, 0},
	}
	for name, d := range cases {
		if _, err := DecodeEvents(nil, 100, d); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	var many []Event
	for i := 1; i <= MaxEvents+1; i++ {
		many = append(many, Event{ID: uint32(i), Tick: 100, Kind: EvShot})
	}
	if _, err := DecodeEvents(nil, 100, AppendEvents(nil, 100, many)); err == nil {
		t.Errorf("%d events accepted", len(many))
	}
	_ = errors.New
}

func FuzzDecodeEvents(f *testing.F) {
	rng := rand.New(rand.NewPCG(1, 2))
	f.Add(AppendEvents(nil, 1000, sampleEvents(rng, 1000, 5)))
	f.Add([]byte{5, 0, 4, 0x80, 0x01, 4, 'A', 'l', 'y', 'x'})
	f.Fuzz(func(t *testing.T, d []byte) {
		got, err := DecodeEvents(nil, 1000, d)
		if err != nil {
			return
		}
		if len(got) > MaxEvents {
			t.Fatalf("%d events", len(got))
		}
		again, err := DecodeEvents(nil, 1000, AppendEvents(nil, 1000, got))
		if err != nil || (len(got) > 0 && !reflect.DeepEqual(again, got)) {
			t.Fatalf("re-encoding accepted events: %v", err)
		}
	})
}
