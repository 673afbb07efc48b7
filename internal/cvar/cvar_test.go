package cvar

import (
	"strings"
	"testing"
)

// TestTypedReads: each handle reads its value as its type, at the default
// first and after a Set, with the canonical text beside it.
func TestTypedReads(t *testing.T) {
	r := NewRegistry()
	f := r.Float("cl_interp", 0.1, 0, 0.5, Client|Archive, "interp")
	i := r.Int("cl_updaterate", 20, 10, 128, Client, "updaterate")
	b := r.Bool("cl_predict", true, Client, "predict")
	s := r.String("rcon_password", "", Client|Protected, "password")
	e := r.Enum("mp_gamemode", "dm", []string{"dm", "tdm"}, Server, "mode")
	if f.Get() != 0.1 || i.Get() != 20 || !b.Get() || s.Get() != "" || e.Get() != 0 {
		t.Fatalf("defaults: %v %v %v %q %v", f.Get(), i.Get(), b.Get(), s.Get(), e.Get())
	}
	if f.Default != "0.1" || i.Default != "20" || b.Default != "1" || e.Default != "dm" {
		t.Fatalf("default texts: %q %q %q %q", f.Default, i.Default, b.Default, e.Default)
	}
	for _, c := range []struct {
		v    *Var
		in   string
		text string
		num  float64
	}{
		{&f.Var, "0.25", "0.25", 0.25},
		{&f.Var, " 0.05", "", 0}, // not a number: refused below
		{&i.Var, "64.0", "64", 64},
		{&i.Var, "1e2", "100", 100},
		{&b.Var, "0", "0", 0},
		{&s.Var, "hunter2 x", "hunter2 x", 0},
		{&e.Var, "tdm", "tdm", 1},
		{&e.Var, "0", "dm", 0},
		{&e.Var, "1", "tdm", 1},
	} {
		err := c.v.Set(c.in)
		if c.text == "" {
			if err == nil {
				t.Errorf("%s %q accepted", c.v.Name, c.in)
			}
			continue
		}
		if err != nil || c.v.String() != c.text || c.v.Float() != c.num {
			t.Errorf("%s %q: %v, text %q, number %v; want %q, %v", c.v.Name, c.in, err, c.v.String(), c.v.Float(), c.text, c.num)
		}
	}
	if f.Get() != 0.25 || i.Get() != 100 || b.Get() || s.Get() != "hunter2 x" || e.Get() != 1 {
		t.Fatalf("after Set: %v %v %v %q %v", f.Get(), i.Get(), b.Get(), s.Get(), e.Get())
	}
	if i.IsDefault() {
		t.Error("100 is the default 20?")
	}
	i.Reset()
	if !i.IsDefault() || i.Get() != 20 {
		t.Errorf("after Reset: %v", i.Get())
	}
}

// TestRangesAndParseErrors: out of range, not a number, not whole, too
// long and unknown names are refused with a message naming the variable
// and its range, and leave the value as it was.
func TestRangesAndParseErrors(t *testing.T) {
	r := NewRegistry()
	r.Float("cl_interp_ratio", 2, 1, 5, Client, "ratio")
	r.Int("rate", 196608, 2500, 1048576, Client, "rate")
	r.Bool("cl_predict", true, Client, "predict")
	r.String("name", "x", Client, "name")
	r.Enum("mp_gamemode", "dm", []string{"dm", "tdm"}, Server, "mode")
	for _, c := range []struct{ name, value, want string }{
		{"cl_interp_ratio", "9", "cl_interp_ratio: 9 is outside 1..5"},
		{"cl_interp_ratio", "0.5", "cl_interp_ratio: 0.5 is outside 1..5"},
		{"cl_interp_ratio", "x", `cl_interp_ratio: "x" is not a number (range 1..5)`},
		{"cl_interp_ratio", "NaN", `cl_interp_ratio: "NaN" is not a number (range 1..5)`},
		{"cl_interp_ratio", "Inf", `cl_interp_ratio: "Inf" is not a number (range 1..5)`},
		{"cl_interp_ratio", "", `cl_interp_ratio: "" is not a number (range 1..5)`},
		{"rate", "1000", "rate: 1000 is outside 2500..1048576"},
		{"rate", "3000.5", "rate: 3000.5 is not a whole number (range 2500..1048576)"},
		{"rate", "2e6", "rate: 2000000 is outside 2500..1048576"},
		{"cl_predict", "2", "cl_predict: 2 is outside 0 or 1"},
		{"cl_predict", "0.5", "cl_predict: 0.5 is not a whole number (range 0 or 1)"},
		{"name", strings.Repeat("a", 65), "name: longer than 64 characters"},
		{"mp_gamemode", "ctf", `mp_gamemode: "ctf" is not one of dm, tdm`},
		{"mp_gamemode", "2", "mp_gamemode: 2 is outside dm|tdm"},
		{"nothing", "1", `unknown cvar "nothing"`},
	} {
		before := ""
		if v := r.Lookup(c.name); v != nil {
			before = v.String()
		}
		err := r.Set(c.name, c.value)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s %q: %v, want %q", c.name, c.value, err, c.want)
		}
		if v := r.Lookup(c.name); v != nil && v.String() != before {
			t.Errorf("%s %q changed the value from %q to %q", c.name, c.value, before, v.String())
		}
	}
	// Numbers are written as people write them, never with an exponent.
	if err := r.Set("rate", "1048576"); err != nil || r.Lookup("rate").String() != "1048576" {
		t.Errorf("rate 1048576: %v, %q", err, r.Lookup("rate").String())
	}
	for f, want := range map[float64]string{0.0001: "0.0001", 1048576: "1048576", -0.0: "0", 2.5: "2.5"} {
		if got := FormatNumber(f); got != want {
			t.Errorf("FormatNumber(%v) = %q, want %q", f, got, want)
		}
	}
}

// TestOnChangeAndRegistry: change hooks run after a Set that succeeded and
// see the new value; the registry lists in registration order and by
// sorted name; a name registered twice and a default out of range panic.
func TestOnChangeAndRegistry(t *testing.T) {
	r := NewRegistry()
	lag := r.Float("net_fakelag", 0, 0, 1000, Client, "lag")
	r.Bool("b_first", false, Client, "b")
	var seen []float64
	lag.OnChange(func() { seen = append(seen, lag.Get()) })
	_ = r.Set("net_fakelag", "150")
	_ = r.Set("net_fakelag", "5000") // refused: no hook
	_ = lag.Set("20")
	if len(seen) != 2 || seen[0] != 150 || seen[1] != 20 {
		t.Errorf("hooks saw %v, want [150 20]", seen)
	}
	if all := r.All(); len(all) != 2 || all[0].Name != "net_fakelag" {
		t.Errorf("All: %v", all)
	}
	if n := r.Names(); len(n) != 2 || n[0] != "b_first" {
		t.Errorf("Names: %v", n)
	}
	for name, reg := range map[string]func(){
		"twice":          func() { r.Bool("b_first", true, Client, "again") },
		"default range":  func() { r.Int("x", 5, 0, 1, Client, "x") },
		"min above max":  func() { r.Float("y", 0, 1, 0, Client, "y") },
		"default values": func() { r.Enum("z", "ctf", []string{"dm"}, Server, "z") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			reg()
		}()
	}
}
