package proto

import (
	"bytes"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The message table on its own: type bytes dense from 1 (PROTOCOL.md §2:
// "a type byte outside 1..N is refused"), names unique, each row's
// constructor of its own type, and every row round-trips a sample.
func TestMessageTable(t *testing.T) {
	if msgTypes[0].new != nil || msgDefOf(0) != nil {
		t.Error("type byte 0 has a row; the protocol starts at 1")
	}
	if msgDefOf(MsgType(len(msgTypes))) != nil || msgDefOf(255) != nil {
		t.Error("a type byte past the table has a row")
	}
	samples := map[MsgType]Message{}
	for _, m := range sampleMessages() {
		samples[m.Type()] = m
	}
	names := map[string]MsgType{}
	for i := 1; i < len(msgTypes); i++ {
		typ := MsgType(i)
		d := msgDefOf(typ)
		if d == nil {
			t.Errorf("type byte %d has no row: type bytes must be dense from 1", i)
			continue
		}
		if d.name == "" || d.name != strings.ToLower(d.name) || strings.ContainsAny(d.name, " \t") {
			t.Errorf("type %d: name %q, want one lowercase word", i, d.name)
		}
		if prev, dup := names[d.name]; dup {
			t.Errorf("types %d and %d are both named %q", prev, i, d.name)
		}
		names[d.name] = typ
		if d.dir == 0 || d.dir.String() == "unknown" {
			t.Errorf("%s: no direction", d.name)
		}
		if got := d.new().Type(); got != typ {
			t.Errorf("%s: the row's constructor makes a message of type %d, the row is %d", d.name, got, i)
		}
		if typ.String() != d.name {
			t.Errorf("MsgType(%d).String() = %q, the row says %q", i, typ, d.name)
		}
		m, ok := samples[typ]
		if !ok {
			t.Errorf("%s: no sample in sampleMessages", d.name)
			continue
		}
		b := MustEncode(m)
		if MsgType(b[0]) != typ {
			t.Errorf("%s: encoded with type byte %d", d.name, b[0])
		}
		got, err := Decode(b)
		if err != nil {
			t.Errorf("%s: decoding the sample: %v", d.name, err)
			continue
		}
		if !reflect.DeepEqual(got, m) {
			t.Errorf("%s round trip:\n got %+v\nwant %+v", d.name, got, m)
		}
		if b2 := MustEncode(got); !bytes.Equal(b, b2) {
			t.Errorf("%s: re-encoding differs", d.name)
		}
	}
	for typ := range samples {
		if msgDefOf(typ) == nil {
			t.Errorf("sample of type %d has no row", typ)
		}
	}
	if MsgType(0).String() != "unknown" || MsgType(len(msgTypes)).String() != "unknown" {
		t.Error("a type byte without a row has a name")
	}
}

// Every row of the message table has a check and its place in
// docs/PROTOCOL.md: a line of the §3 table (type byte, name, direction,
// struct), a section whose heading names it with its type byte (§5: "Cmds
// (4)"), the range of §2's "outside 1..N" and the name in §2's list of
// names.
func TestMessageTypeHasCheckAndDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range messageTableProblems(msgTypes[:], string(doc)) {
		t.Error(p)
	}
}

// messageTableProblems fails a row added without a check or without its
// documentation: a table with an extra row of its own is refused.
func TestMessageTableProblemsCatchAnUndocumentedRow(t *testing.T) {
	doc, err := os.ReadFile("../../docs/PROTOCOL.md")
	if err != nil {
		t.Fatal(err)
	}
	table := append(msgTypes[:len(msgTypes):len(msgTypes)],
		msgDef{name: "undocumented", dir: clientToServer, new: func() Message { return &undocumented{} }})
	problems := strings.Join(messageTableProblems(table, string(doc)), "\n")
	for _, want := range []string{"undocumented: no check", "undocumented: no line", "undocumented: no section",
		fmt.Sprintf("outside 1..%d", len(table)-1), "the list of names"} {
		if !strings.Contains(problems, want) {
			t.Errorf("an undocumented row without a check: problems do not mention %q:\n%s", want, problems)
		}
	}
}

// undocumented is a message type that only TestMessageTableProblemsCatchAnUndocumentedRow knows.
type undocumented struct{}

func (*undocumented) Type() MsgType { return 11 }

// messageTableProblems lists what table (indexed by type byte) lacks in
// code and in doc, the text of docs/PROTOCOL.md.
func messageTableProblems(table []msgDef, doc string) []string {
	var problems []string
	lines := strings.Split(doc, "\n")
	var names []string
	for i := 1; i < len(table); i++ {
		d := &table[i]
		if d.new == nil {
			continue // TestMessageTable refuses gaps
		}
		names = append(names, d.name)
		if d.check == nil {
			problems = append(problems, fmt.Sprintf("%s: no check in its row of the message table", d.name))
		}
		structName := reflect.TypeOf(d.new()).Elem().Name()
		row := fmt.Sprintf("| %d | %s | %s | `%s` |", i, d.name, d.dir, structName)
		heading := fmt.Sprintf("%s (%d)", d.name, i)
		var hasRow, hasSection bool
		for _, l := range lines {
			hasRow = hasRow || strings.TrimSpace(l) == row
			hasSection = hasSection || strings.HasPrefix(l, "### ") && strings.Contains(strings.ToLower(l), heading)
		}
		if !hasRow {
			problems = append(problems, fmt.Sprintf("%s: no line %q in the table of PROTOCOL.md §3", d.name, row))
		}
		if !hasSection {
			problems = append(problems, fmt.Sprintf("%s: no section of PROTOCOL.md whose heading names %q", d.name, heading))
		}
	}
	if r := fmt.Sprintf("outside 1..%d", len(table)-1); !strings.Contains(doc, r) {
		problems = append(problems, fmt.Sprintf("PROTOCOL.md §2 does not say a type byte %s is refused", r))
	}
	if l := "(" + strings.Join(names, ", ") + ")"; !strings.Contains(strings.Join(strings.Fields(doc), " "), l) {
		problems = append(problems, fmt.Sprintf("PROTOCOL.md §2 does not give the list of names %s", l))
	}
	return problems
}
