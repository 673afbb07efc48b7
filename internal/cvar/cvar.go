// Package cvar is the one registry of console variables that the client
// and the server share (Source's ConVar: a name, a default, a range, help
// text and flags). A variable is registered once and returns a typed
// handle (*Float, *Int, *Bool, *String) that code reads every frame or
// tick with Get, without looking the name up; the console, command-line
// flags (--cvar NAME=VALUE) and config files set it by name through the
// Registry, which checks the value against the range and keeps it in a
// canonical text form.
//
// The package has no Ebiten import and builds for js/wasm and the headless
// server.
package cvar

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Flags say where a variable lives and what is done with it.
type Flags uint8

const (
	// Client: a variable of the game window.
	Client Flags = 1 << iota
	// Server: a variable of the server (the listen server's host and rcon
	// set it).
	Server
	// Archive: a setting the player keeps, written to the config file.
	Archive
	// Protected: the value is never shown (rcon_password).
	Protected
)

// Kind is a variable's type.
type Kind uint8

// The kinds.
const (
	KindBool Kind = iota
	KindInt
	KindFloat
	KindString
)

// MaxStringLen is the most bytes a string variable holds.
const MaxStringLen = 64

// Var is one console variable: its definition and its value.
type Var struct {
	Name, Help string
	Kind       Kind
	// Min and Max bound a number (a Bool is 0..1).
	Min, Max float64
	// Values, when set, are the names an Int also takes, for Min, Min+1,
	// ... in order (mp_gamemode: dm is 0, tdm is 1); it reads back as
	// the name.
	Values []string
	// Default is the value at start, in canonical text form.
	Default string
	Flags   Flags

	text     string
	num      float64
	onChange []func()
}

// String returns the value in canonical text form: numbers as people
// write them (FormatNumber), an enumerated Int by its name.
func (v *Var) String() string { return v.text }

// Float returns the value as a number (0 for a String).
func (v *Var) Float() float64 { return v.num }

// IsDefault tells whether the value is the default.
func (v *Var) IsDefault() bool { return v.text == v.Default }

// RangeText is the range as the console and help show it: "0 or 1" for a
// Bool, "text" for a String, "dm|tdm" for named values, else "MIN..MAX".
func (v *Var) RangeText() string {
	switch {
	case v.Kind == KindBool:
		return "0 or 1"
	case v.Kind == KindString:
		return "text"
	case len(v.Values) > 0:
		return strings.Join(v.Values, "|")
	}
	return FormatNumber(v.Min) + ".." + FormatNumber(v.Max)
}

// Parse checks value for v without setting it and returns its canonical
// text and its number. The errors name the variable and its range.
func (v *Var) Parse(value string) (string, float64, error) {
	if v.Kind == KindString {
		if len(value) > MaxStringLen {
			return "", 0, fmt.Errorf("%s: longer than %d characters", v.Name, MaxStringLen)
		}
		return value, 0, nil
	}
	for i, name := range v.Values {
		if value == name {
			return name, v.Min + float64(i), nil
		}
	}
	f, err := strconv.ParseFloat(value, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		if len(v.Values) > 0 {
			return "", 0, fmt.Errorf("%s: %q is not one of %s", v.Name, value, strings.Join(v.Values, ", "))
		}
		return "", 0, fmt.Errorf("%s: %q is not a number (range %s)", v.Name, value, v.RangeText())
	}
	if v.Kind != KindFloat && f != math.Trunc(f) {
		return "", 0, fmt.Errorf("%s: %s is not a whole number (range %s)", v.Name, FormatNumber(f), v.RangeText())
	}
	if f < v.Min || f > v.Max {
		return "", 0, fmt.Errorf("%s: %s is outside %s", v.Name, FormatNumber(f), v.RangeText())
	}
	return v.textOf(f), f, nil
}

// textOf is the canonical text of the number f.
func (v *Var) textOf(f float64) string {
	if i := int(f - v.Min); len(v.Values) > 0 && i >= 0 && i < len(v.Values) {
		return v.Values[i]
	}
	return FormatNumber(f)
}

// Set checks and sets the value, then runs the change hooks (OnChange).
// A value it refuses leaves the variable as it was.
func (v *Var) Set(value string) error {
	text, num, err := v.Parse(value)
	if err != nil {
		return err
	}
	v.text, v.num = text, num
	for _, f := range v.onChange {
		f()
	}
	return nil
}

// Reset sets the default again.
func (v *Var) Reset() { _ = v.Set(v.Default) }

// OnChange adds f to what runs after every Set (the client pushes rates
// into the netcode, the server tells its sessions about fake lag).
func (v *Var) OnChange(f func()) { v.onChange = append(v.onChange, f) }

// Float is a handle to a real-valued variable.
type Float struct{ Var }

// Get returns the value.
func (f *Float) Get() float64 { return f.num }

// Int is a handle to a whole-numbered variable.
type Int struct{ Var }

// Get returns the value.
func (i *Int) Get() int { return int(i.num) }

// Bool is a handle to a 0-or-1 variable.
type Bool struct{ Var }

// Get returns the value.
func (b *Bool) Get() bool { return b.num != 0 }

// String is a handle to a text variable.
type String struct{ Var }

// Get returns the value.
func (s *String) Get() string { return s.text }

// Registry is a set of variables by name.
type Registry struct {
	vars   []*Var
	byName map[string]*Var
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byName: map[string]*Var{}} }

// add registers v at its default; a name registered twice, a default
// outside the range or an empty range is a programming error and panics.
func (r *Registry) add(v *Var) {
	if _, dup := r.byName[v.Name]; dup {
		panic("cvar: " + v.Name + " registered twice")
	}
	if v.Min > v.Max {
		panic("cvar: " + v.Name + ": min above max")
	}
	text, num, err := v.Parse(v.Default)
	if err != nil {
		panic("cvar: default: " + err.Error())
	}
	v.Default, v.text, v.num = text, text, num
	r.vars = append(r.vars, v)
	r.byName[v.Name] = v
}

// Float registers a real-valued variable in min..max.
func (r *Registry) Float(name string, def, min, max float64, flags Flags, help string) *Float {
	f := &Float{Var{Name: name, Help: help, Kind: KindFloat, Min: min, Max: max, Default: FormatNumber(def), Flags: flags}}
	r.add(&f.Var)
	return f
}

// Int registers a whole-numbered variable in min..max.
func (r *Registry) Int(name string, def, min, max int, flags Flags, help string) *Int {
	i := &Int{Var{Name: name, Help: help, Kind: KindInt, Min: float64(min), Max: float64(max), Default: strconv.Itoa(def), Flags: flags}}
	r.add(&i.Var)
	return i
}

// Enum registers an Int that also takes the names values (0, 1, ... in
// order) and reads back as the name; def is one of them.
func (r *Registry) Enum(name, def string, values []string, flags Flags, help string) *Int {
	i := &Int{Var{Name: name, Help: help, Kind: KindInt, Min: 0, Max: float64(len(values) - 1), Values: values, Default: def, Flags: flags}}
	r.add(&i.Var)
	return i
}

// Bool registers a 0-or-1 variable.
func (r *Registry) Bool(name string, def bool, flags Flags, help string) *Bool {
	d := "0"
	if def {
		d = "1"
	}
	b := &Bool{Var{Name: name, Help: help, Kind: KindBool, Min: 0, Max: 1, Default: d, Flags: flags}}
	r.add(&b.Var)
	return b
}

// String registers a text variable (at most MaxStringLen bytes).
func (r *Registry) String(name, def string, flags Flags, help string) *String {
	s := &String{Var{Name: name, Help: help, Kind: KindString, Default: def, Flags: flags}}
	r.add(&s.Var)
	return s
}

// Lookup returns the variable called name, or nil.
func (r *Registry) Lookup(name string) *Var { return r.byName[name] }

// All returns the variables in the order they were registered.
func (r *Registry) All() []*Var { return r.vars }

// Names returns the variables' names, sorted.
func (r *Registry) Names() []string {
	names := make([]string, 0, len(r.vars))
	for _, v := range r.vars {
		names = append(names, v.Name)
	}
	sort.Strings(names)
	return names
}

// Set sets the variable called name.
func (r *Registry) Set(name, value string) error {
	v := r.byName[name]
	if v == nil {
		return fmt.Errorf("unknown cvar %q", name)
	}
	return v.Set(value)
}

// FormatNumber writes f as people write numbers: plain decimals, never an
// exponent (1048576, not 1.048576e+06; 0.0001, not 1e-04).
func FormatNumber(f float64) string {
	if f == 0 {
		return "0" // and not "-0"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}
