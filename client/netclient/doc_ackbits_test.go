package netclient

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The worked example of docs/PROTOCOL.md §8.1, read from the document, is
// what the client's AckBits bookkeeping (link.trackSeq) does: each row's
// bits after its snapshot arrives, and the Ack and AckBits of the next
// Cmds. Editing the example or the bookkeeping fails here.
func TestProtocolDocAckBitsExample(t *testing.T) {
	b, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "Worked example (64 Hz")
	if i < 0 {
		t.Fatal("§8.1 lost its worked example")
	}
	ex := doc[i:]
	if j := strings.Index(ex, "\n### "); j >= 0 {
		ex = ex[:j]
	}
	rows := regexp.MustCompile("\n\\| (\\d+) \\| (\\d+) \\| ([^|]+) \\| ([^|]+) \\|").FindAllStringSubmatch(ex, -1)
	if len(rows) < 3 {
		t.Fatalf("§8.1's table has %d rows", len(rows))
	}
	var l link
	for _, r := range rows {
		seq, _ := strconv.Atoi(r[1])
		if strings.Contains(r[3], "lost") {
			continue
		}
		l.trackSeq(uint32(seq))
		w := regexp.MustCompile("`([01]+)`").FindStringSubmatch(r[4]) // "`0110` (21 moves to …)"
		if w == nil {
			t.Fatalf("§8.1: the row of Seq %d gives no bits: %q", seq, r[4])
		}
		want := w[1]
		if got := fmt.Sprintf("%0*b", len(want), l.seqBits); got != want {
			t.Errorf("§8.1: after Seq %d the document says bits %s, the client has %s", seq, want, got)
		}
	}
	m := regexp.MustCompile("carries `Ack = (\\d+), AckBits = 0x([0-9A-Fa-f]+)`").FindStringSubmatch(ex)
	if m == nil {
		t.Fatal("§8.1 lost the Cmds that follows the example")
	}
	ack, _ := strconv.Atoi(m[1])
	bits, _ := strconv.ParseUint(m[2], 16, 32)
	if l.newestSeq != uint32(ack) || l.seqBits != uint32(bits) {
		t.Errorf("§8.1 says Ack %d, AckBits %#x; the client has %d, %#x", ack, bits, l.newestSeq, l.seqBits)
	}
}
