package proto

import (
	"bytes"
	"encoding/hex"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"tickshot/shared"
)

// The examples of docs/PROTOCOL.md, read from the document itself, are
// what the code produces and accepts: every hex block decodes, the §10
// Cmds and its byte table, the §5.9 EntityDelta, the §2 map-form Command,
// the §2.1 conversions. Editing an example's bytes or figures in the
// document (or the encoding in the code) fails here.

// protocolDoc is docs/PROTOCOL.md.
func protocolDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docSection is the text of the section whose heading line starts with
// heading ("## 10." or "### 5.9"), up to the next heading of any level.
func docSection(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading)
	if i < 0 {
		t.Fatalf("docs/PROTOCOL.md has no section %q", heading)
	}
	s := doc[i+1:]
	if j := regexp.MustCompile(`\n#{2,4} `).FindStringIndex(s[len(heading):]); j != nil {
		s = s[:len(heading)+j[0]]
	}
	return s
}

var (
	fenceRE   = regexp.MustCompile("(?s)\n *```\n(.*?)\n *```")
	hexBytes  = regexp.MustCompile(`^([0-9a-f]{2}( |$))+$`)
	headingRE = regexp.MustCompile(`\n(#{2,4} [^\n]*)`)
)

// hexBlock is a fenced block of the document made only of hex bytes.
type hexBlock struct {
	heading string // the heading it falls under
	data    []byte
}

// hexBlocks returns every fenced block of doc whose lines are all hex bytes.
func hexBlocks(t *testing.T, doc string) []hexBlock {
	t.Helper()
	var out []hexBlock
	for _, m := range fenceRE.FindAllStringSubmatchIndex(doc, -1) {
		text := doc[m[2]:m[3]]
		fields := strings.Fields(text)
		if len(fields) == 0 || !hexBytes.MatchString(strings.Join(fields, " ")) {
			continue
		}
		h := ""
		if hs := headingRE.FindAllStringSubmatch(doc[:m[0]], -1); len(hs) > 0 {
			h = hs[len(hs)-1][1]
		}
		out = append(out, hexBlock{h, mustHex(t, strings.Join(fields, ""))})
	}
	return out
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("hex %q: %v", s, err)
	}
	return b
}

// docCmdsExample is the message of §10.
var docCmdsExample = Cmds{Ack: 24, AckBits: 0x0D, Seq: 57, Cmds: []shared.UserCmd{{CommandNumber: 300, TickCount: 410,
	TickFrac: 128, Msec: 16, LerpMsec: 100, Buttons: shared.ButtonAttack, MoveX: 1, MoveY: -0.5, ViewAngle: 0.25}}}

// Every hex block of the document is a whole frame that decodes and passes
// Check. Those of §2 (the map form) and §10 decode to the messages the text
// describes; any other must be in array form and re-encode to its bytes.
func TestProtocolDocHexBlocks(t *testing.T) {
	doc := protocolDoc(t)
	blocks := hexBlocks(t, doc)
	want := map[string]Message{
		"## 2. Encoding": &Command{Text: "kill"},
		"## 10. Hex example: Cmds with one usercmd": &docCmdsExample,
	}
	seen := map[string]bool{}
	for _, b := range blocks {
		m, err := Decode(b.data)
		if err != nil {
			t.Errorf("%s: the example % x does not decode: %v", b.heading, b.data, err)
			continue
		}
		if w, ok := want[b.heading]; ok {
			seen[b.heading] = true
			if !reflect.DeepEqual(m, w) {
				t.Errorf("%s: the example decodes to %+v, want %+v", b.heading, m, w)
			}
			continue
		}
		if enc := MustEncode(m); !bytes.Equal(enc, b.data) {
			t.Errorf("%s: the example % x re-encodes as % x", b.heading, b.data, enc)
		}
	}
	for h := range want {
		if !seen[h] {
			t.Errorf("docs/PROTOCOL.md lost the hex example under %q", h)
		}
	}
}

// §10: the block is what the encoder writes for the message described, of
// the length stated; the byte table walks the block, row by row, to its
// end; the AckAges alternative and the RenderTick are the code's.
func TestProtocolDocHexExample(t *testing.T) {
	sec := docSection(t, protocolDoc(t), "## 10.")
	blocks := hexBlocks(t, "\n"+sec)
	if len(blocks) != 1 {
		t.Fatalf("§10 has %d hex blocks, want 1", len(blocks))
	}
	enc := MustEncode(&docCmdsExample)
	if !bytes.Equal(blocks[0].data, enc) {
		t.Errorf("§10 block:\n got % x\nwant % x (the encoder's)", blocks[0].data, enc)
	}
	if m := regexp.MustCompile(`\((\d+) bytes;`).FindStringSubmatch(sec); m == nil || m[1] != strconv.Itoa(len(enc)) {
		t.Errorf("§10 states the length as %v, the encoding has %d bytes", m, len(enc))
	}
	var table []byte
	for _, m := range regexp.MustCompile("\n\\| `([0-9a-f ]+)` \\|").FindAllStringSubmatch(sec, -1) {
		table = append(table, mustHex(t, m[1])...)
	}
	if !bytes.Equal(table, enc) {
		t.Errorf("§10's byte table, row by row:\n got % x\nwant % x", table, enc)
	}
	// "with one entry 2 it would be `c4 01 02`: snapshot 22, bits `0d` >> 2"
	m := regexp.MustCompile("with one entry (\\d+) it would be `([0-9a-f ]+)`: snapshot (\\d+)").FindStringSubmatch(sec)
	if m == nil {
		t.Fatal("§10 lost the AckAges alternative")
	}
	age, _ := strconv.Atoi(m[1])
	alt := docCmdsExample
	alt.AckAges = []uint8{uint8(age)}
	altEnc := MustEncode(&alt)
	if tail := mustHex(t, m[2]); !bytes.HasSuffix(altEnc, tail) || !bytes.Equal(altEnc[:len(altEnc)-len(tail)], enc[:len(enc)-1]) {
		t.Errorf("§10 says AckAges [%d] ends the message with % x; the encoding is % x", age, tail, altEnc)
	}
	if seq, bits := alt.MadeAck(0); strconv.Itoa(int(seq)) != m[3] || bits != 0x0d>>age {
		t.Errorf("§10 says the command was made with snapshot %s; MadeAck gives %d, bits %#x", m[3], seq, bits)
	}
	// "This command's RenderTick is 410 + 128/256 − 100·64/1000 = **404.1**."
	rt := regexp.MustCompile(`RenderTick is [^*]*\*\*([0-9.]+)\*\*`).FindStringSubmatch(sec)
	if rt == nil {
		t.Fatal("§10 lost the RenderTick")
	}
	if got := docCmdsExample.Cmds[0].RenderTick(64); strconv.FormatFloat(got, 'f', -1, 64) != rt[1] {
		t.Errorf("§10 says RenderTick %s; UserCmd.RenderTick gives %v", rt[1], got)
	}
}

// §5.9: the EntityDelta example's bytes, read from the text, are what the
// encoder writes for the frames described, and apply back to the new frame.
func TestProtocolDocEntityDeltaExample(t *testing.T) {
	para, docBytes := deltaDocExample(t, "Example: baseline")
	base := []EntityState{{ID: 1, X: 6400}, {ID: 7, X: 5}}
	cur := []EntityState{{ID: 1, X: 6464}, {ID: 9}}
	enc := AppendEntityDelta(nil, base, cur)
	if !bytes.Equal(docBytes, enc) {
		t.Errorf("§5.9 example: the document says % x, the encoder writes % x", docBytes, enc)
	}
	if m := regexp.MustCompile(`: (\d+) bytes\.`).FindStringSubmatch(para); m == nil || m[1] != strconv.Itoa(len(enc)) {
		t.Errorf("§5.9 example states %v bytes, the delta has %d", m, len(enc))
	}
	got, err := ApplyEntityDelta(nil, base, docBytes)
	if err != nil || !reflect.DeepEqual(got, cur) {
		t.Errorf("§5.9 example applied: %+v, %v; want %+v", got, err, cur)
	}
}

// §2.1: "100.3 units → wire 6419 → 100.296875; π rad → wire 31415".
func TestProtocolDocConversionExamples(t *testing.T) {
	sec := docSection(t, protocolDoc(t), "### 2.1")
	m := regexp.MustCompile(`Examples: ([0-9.]+) units → wire (\d+) → ([0-9.]+);\s+π rad → wire (\d+)`).FindStringSubmatch(sec)
	if m == nil {
		t.Fatal("§2.1 lost its examples")
	}
	units, _ := strconv.ParseFloat(m[1], 64)
	back, _ := strconv.ParseFloat(m[3], 64)
	if w := ToFixed(units); strconv.Itoa(int(w)) != m[2] || FromFixed(w) != back {
		t.Errorf("§2.1: %v units → %d → %v; the document says %s → %s", units, w, FromFixed(w), m[2], m[3])
	}
	if w := AngleToWire(math.Pi); strconv.Itoa(int(w)) != m[4] {
		t.Errorf("§2.1: π rad → %d; the document says %s", w, m[4])
	}
}

// §5.9: the fresh-and-held example's bytes are what the encoder writes
// (an empty record for the fresh unchanged entity, none for the held one),
// and apply back to the frame with each entity's Tick.
func TestProtocolDocFreshAndHeldExample(t *testing.T) {
	para, docBytes := deltaDocExample(t, "Fresh and held: baseline")
	base := []EntityState{{ID: 1, X: 6400, Tick: 10}, {ID: 7, X: 5, Tick: 10}}
	cur := []EntityState{{ID: 1, X: 6400, Tick: 13}, {ID: 7, X: 5, Tick: 10}}
	enc := AppendEntityDelta(nil, base, cur)
	if !bytes.Equal(docBytes, enc) {
		t.Errorf("§5.9 fresh-and-held example: the document says % x, the encoder writes % x", docBytes, enc)
	}
	if m := regexp.MustCompile(`: (\d+) bytes\.`).FindStringSubmatch(para); m == nil || m[1] != strconv.Itoa(len(enc)) {
		t.Errorf("§5.9 fresh-and-held example states %v bytes, the delta has %d", m, len(enc))
	}
	got, err := ApplySnapshotDelta(nil, base, docBytes, 13)
	if err != nil || !reflect.DeepEqual(got, cur) {
		t.Errorf("§5.9 fresh-and-held example applied: %+v, %v; want %+v", got, err, cur)
	}
	for i, e := range cur {
		want := 0
		if e.Tick != base[i].Tick {
			want = 2
		}
		if n := len(AppendEntityRecord(nil, base[i], e, true)); n != want {
			t.Errorf("AppendEntityRecord of %+v against %+v: %d bytes, want %d", e, base[i], n, want)
		}
	}
}

// deltaDocExample is the paragraph of §5.9 that starts with start, and the
// bytes it quotes (`01 00`), in order.
func deltaDocExample(t *testing.T, start string) (string, []byte) {
	t.Helper()
	sec := docSection(t, protocolDoc(t), "### 5.9")
	i := strings.Index(sec, start)
	if i < 0 {
		t.Fatalf("§5.9 lost its example %q", start)
	}
	para := sec[i:]
	if j := strings.Index(para, "\n\n"); j >= 0 {
		para = para[:j]
	}
	var docBytes []byte
	for _, m := range regexp.MustCompile("`([0-9a-f]{2}(?: [0-9a-f]{2})*)`").FindAllStringSubmatch(para, -1) {
		docBytes = append(docBytes, mustHex(t, m[1])...)
	}
	return para, docBytes
}
