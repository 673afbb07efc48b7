package proto

import (
	"encoding/hex"
	"strings"
	"testing"

	"tickshot/shared"
)

// The hex example of docs/PROTOCOL.md §10 is what the encoder produces.
func TestProtocolDocHexExample(t *testing.T) {
	m := &Cmds{Ack: 24, AckBits: 0x0D, Seq: 57, Cmds: []shared.UserCmd{{CommandNumber: 300, TickCount: 410,
		TickFrac: 128, Msec: 16, LerpMsec: 100, Buttons: shared.ButtonAttack, MoveX: 1, MoveY: -0.5, ViewAngle: 0.25}}}
	want := strings.ReplaceAll(`04 95 18 0d 39 91 9a cd 01 2c cd 01 9a cc 80 10 64 01 ca 3f 80 00 00 ca bf 00 00 00
ca 3e 80 00 00 00 c0`, "\n", " ")
	if got := strings.TrimSpace(hexSpaced(MustEncode(m))); got != want {
		t.Errorf("encoding:\n got %s\nwant %s", got, want)
	}
	// And the EntityDelta example of §5.9.
	base := []EntityState{{ID: 1, X: 6400}, {ID: 7, X: 5}}
	cur := []EntityState{{ID: 1, X: 6464}, {ID: 9}}
	if got := hexSpaced(AppendEntityDelta(nil, base, cur)); strings.TrimSpace(got) != "01 01 80 01 07 80 09 00" {
		t.Errorf("EntityDelta example: %s", got)
	}
}

func hexSpaced(b []byte) string {
	var sb strings.Builder
	for _, c := range b {
		sb.WriteString(hex.EncodeToString([]byte{c}) + " ")
	}
	return sb.String()
}
