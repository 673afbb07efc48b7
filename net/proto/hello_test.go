package proto

import (
	"strings"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// helloV4 is the Hello of protocol 4: the 8 fields before Spectate.
type helloV4 struct {
	_msgpack    struct{} `msgpack:",as_array"`
	Protocol    uint16
	Name        string
	Rate        uint32
	UpdateRate  uint16
	CmdRate     uint16
	InterpMs    uint16
	InterpRatio float32
	NoDelta     bool
}

// An old client's Hello (protocol 4, 8 fields) decodes far enough for the
// server to answer with the version Reject; a Hello of this version with a
// missing field is refused; Spectate, Accept.Spectator and
// SelfState.Spectator survive a round trip.
func TestHelloVersionsAndSpectatorFields(t *testing.T) {
	body, err := msgpack.Marshal(&helloV4{Protocol: 4, Name: "oldtimer", Rate: 5000, InterpRatio: 2})
	if err != nil {
		t.Fatal(err)
	}
	m, err := Decode(append([]byte{byte(MsgHello)}, body...))
	if err != nil {
		t.Fatalf("protocol 4 Hello: %v", err)
	}
	if h := m.(*Hello); h.Protocol != 4 || h.Name != "oldtimer" || h.Rate != 5000 || h.Spectate {
		t.Errorf("protocol 4 Hello decoded as %+v", h)
	}
	body, _ = msgpack.Marshal(&helloV4{Protocol: ProtocolVersion, Name: "short", InterpRatio: 2})
	if _, err := Decode(append([]byte{byte(MsgHello)}, body...)); err == nil || !strings.Contains(err.Error(), "fields") {
		t.Errorf("an 8-field Hello of protocol %d: error %v, want it refused", ProtocolVersion, err)
	}
	m, err = Decode(MustEncode(&Hello{Protocol: ProtocolVersion, Name: "eve", InterpRatio: 2, Spectate: true}))
	if err != nil || !m.(*Hello).Spectate {
		t.Errorf("Hello.Spectate round trip: %+v, %v", m, err)
	}
	m, err = Decode(MustEncode(&Accept{PlayerID: 3, TickRate: 64, Map: "arena", Spectator: true}))
	if err != nil || !m.(*Accept).Spectator {
		t.Errorf("Accept.Spectator round trip: %+v, %v", m, err)
	}
	var enc Encoder
	snap := &Snapshot{Tick: 9, Self: SelfState{Dead: true, Ammo: []uint8{0, 0}, Spectator: true}}
	m, err = Decode(enc.Append(nil, snap))
	if err != nil || !m.(*Snapshot).Self.Spectator || !m.(*Snapshot).Self.Dead {
		t.Errorf("SelfState.Spectator round trip: %+v, %v", m, err)
	}
}
