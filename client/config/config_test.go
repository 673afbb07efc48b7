package config

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestFieldsQuotesAndComments(t *testing.T) {
	for line, want := range map[string][]string{
		`name "Mr Smith"`:                        {"name", "Mr Smith"},
		`bind "w" "+forward"`:                    {"bind", "w", "+forward"},
		`volume 0.5 // quieter`:                  {"volume", "0.5"},
		`  // only a comment`:                    nil,
		`bind f3 "incrementvar net_graph 0 3 1"`: {"bind", "f3", "incrementvar net_graph 0 3 1"},
		`say "unterminated`:                      {"say", "unterminated"},
	} {
		if got := Fields(line); !reflect.DeepEqual(got, want) {
			t.Errorf("Fields(%q) = %q, want %q", line, got, want)
		}
	}
}

// A config written and read back is the same config: name, cvars in
// order, bindings with the defaults replaced.
func TestConfigRoundTrip(t *testing.T) {
	dir := t.TempDir()
	c := New()
	c.Name = `Ann "the" Gun`
	c.Set("volume", "0.3")
	c.Set("net_graph", "2")
	c.Set("volume", "0.4")
	c.Rebind("+forward", "i")
	c.Bind("f3", "incrementvar net_graph 0 3 1")
	if err := c.Save(dir); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, FileName))
	text := string(b)
	for _, want := range []string{`name "Ann the Gun"`, `volume "0.4"`, `net_graph "2"`, `bind "i" "+forward"`, "unbindall"} {
		if !strings.Contains(text, want) {
			t.Errorf("config.cfg lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, `bind "w" "+forward"`) || strings.Contains(text, `"uparrow" "+forward"`) {
		t.Errorf("the old keys of +forward are still bound:\n%s", text)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Ann the Gun" {
		t.Errorf("name read back %q", got.Name)
	}
	if !reflect.DeepEqual(got.Cvars, [][2]string{{"volume", "0.4"}, {"net_graph", "2"}}) {
		t.Errorf("cvars read back %q", got.Cvars)
	}
	if !reflect.DeepEqual(got.Binds, c.Binds) {
		t.Errorf("binds read back\n%v\nwant\n%v", got.Binds, c.Binds)
	}
	if k := got.KeysOf("+forward"); !reflect.DeepEqual(k, []string{"i"}) {
		t.Errorf("+forward on %v, want [i]", k)
	}
}

func TestLoadMissingAndBadLines(t *testing.T) {
	c, err := Load(t.TempDir())
	if err != nil || c.Name != "" || !reflect.DeepEqual(c.Binds, DefaultBinds()) {
		t.Fatalf("missing file: %+v, %v; want defaults", c, err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, FileName), []byte("name \"bob\"\nbind onlykey\nvolume 0.2\n"+strings.Repeat("x", 300)+"\n"), 0o644)
	c, err = Load(dir)
	if err == nil || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), "line 4") {
		t.Errorf("bad lines: error %v, want lines 2 and 4 named", err)
	}
	if v, _ := c.Get("volume"); c.Name != "bob" || v != "0.2" {
		t.Errorf("the good lines were not kept: %+v", c)
	}
}

func TestRecentServers(t *testing.T) {
	dir := t.TempDir()
	if got := LoadRecent(dir); got != nil {
		t.Fatalf("no file: %v", got)
	}
	for i := 0; i < MaxRecent+3; i++ {
		if _, err := AddRecent(dir, "10.0.0."+string(rune('a'+i))+":27015"); err != nil {
			t.Fatal(err)
		}
	}
	AddRecent(dir, "10.0.0.f:27015") // again: moves to the front, once
	got := LoadRecent(dir)
	if len(got) != MaxRecent || got[0] != "10.0.0.f:27015" || got[1] != "10.0.0.k:27015" {
		t.Fatalf("recent = %v", got)
	}
	n := 0
	for _, a := range got {
		if a == "10.0.0.f:27015" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("10.0.0.f listed %d times", n)
	}
}

func TestDefaultBindsCoverActions(t *testing.T) {
	c := New()
	for _, a := range Actions {
		if len(c.KeysOf(a.Command)) == 0 {
			t.Errorf("%s (%s) has no default key", a.Label, a.Command)
		}
	}
}

// Favourites keep the order they were starred, once each; unstarring
// removes one; at most MaxFavourites are kept (the oldest forgotten).
func TestFavourites(t *testing.T) {
	dir := t.TempDir()
	if got := LoadFavourites(dir); got != nil {
		t.Fatalf("no file: %v", got)
	}
	for _, a := range []string{"a:1", "b:1", " a:1 ", "c:1"} {
		if _, err := SetFavourite(dir, a, true); err != nil {
			t.Fatal(err)
		}
	}
	if got, _ := SetFavourite(dir, "b:1", false); !slices.Equal(got, []string{"a:1", "c:1"}) || !slices.Equal(LoadFavourites(dir), got) {
		t.Errorf("favourites %v, read back %v; want [a:1 c:1]", got, LoadFavourites(dir))
	}
	for i := range MaxFavourites {
		_, _ = SetFavourite(dir, fmt.Sprintf("h%d:1", i), true)
	}
	if got := LoadFavourites(dir); len(got) != MaxFavourites || got[0] != "h0:1" {
		t.Errorf("%d favourites kept, first %q; want %d from h0:1", len(got), got[0], MaxFavourites)
	}
}
