// Package config keeps the player's settings between runs, in the user
// config directory (os.UserConfigDir()/tickshot: $XDG_CONFIG_HOME/tickshot
// on Linux): config.cfg holds the player name, the settings the menu
// changes and the key bindings as console lines, as Source's config.cfg
// does (`name "alice"`, `volume "0.5"`, `bind "w" "+forward"`), so the file
// reads as what one would type in the console; recent.txt lists the
// servers joined last, newest first. Nothing here needs the window: the
// menu writes these files and the game reads them.
package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"tickshot/internal/cvar"
)

// File names inside Dir.
const (
	// FileName is the console lines the menu writes (Source's config.cfg;
	// autoexec.cfg, the player's own file, runs after it).
	FileName = "config.cfg"
	// RecentFileName lists recently joined servers, one address a line.
	RecentFileName = "recent.txt"
	// MaxRecent is how many recent servers are kept.
	MaxRecent = 8
	// maxLine is the longest line read or written, bytes.
	maxLine = 256
)

// Dir returns the game's directory in the user config directory
// (os.UserConfigDir()/tickshot), without creating it.
func Dir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "tickshot"), nil
}

// Bind is one key binding: a key name (Source's: "w", "uparrow", "mouse1",
// "mwheelup", "f3", "tab", "space") and the command it runs ("+forward",
// "slot1", ...). A "+" command is held while the key is down.
type Bind struct {
	Key, Command string
}

// Config is what config.cfg holds.
type Config struct {
	// Name is the player name ("" when none was saved).
	Name string
	// Cvars are the saved console variables, name and value, in the order
	// they were first set.
	Cvars [][2]string
	// Binds are the key bindings, one per key, in the order they were made.
	Binds []Bind
}

// New returns a config with the default bindings and nothing else.
func New() *Config {
	return &Config{Binds: DefaultBinds()}
}

// Get returns a saved cvar's value.
func (c *Config) Get(name string) (string, bool) {
	for _, kv := range c.Cvars {
		if kv[0] == name {
			return kv[1], true
		}
	}
	return "", false
}

// Set saves a cvar's value (replacing an earlier one).
func (c *Config) Set(name, value string) {
	for i, kv := range c.Cvars {
		if kv[0] == name {
			c.Cvars[i][1] = value
			return
		}
	}
	c.Cvars = append(c.Cvars, [2]string{name, value})
}

// KeyOf returns the keys bound to command, in binding order.
func (c *Config) KeysOf(command string) []string {
	var keys []string
	for _, b := range c.Binds {
		if b.Command == command {
			keys = append(keys, b.Key)
		}
	}
	return keys
}

// Bind binds key to command (Source's `bind KEY COMMAND`): the key's
// earlier binding is replaced. Key names are lower case.
func (c *Config) Bind(key, command string) {
	key = strings.ToLower(key)
	for i, b := range c.Binds {
		if b.Key == key {
			c.Binds[i].Command = command
			return
		}
	}
	c.Binds = append(c.Binds, Bind{key, command})
}

// Unbind removes key's binding.
func (c *Config) Unbind(key string) {
	key = strings.ToLower(key)
	kept := c.Binds[:0]
	for _, b := range c.Binds {
		if b.Key != key {
			kept = append(kept, b)
		}
	}
	c.Binds = kept
}

// Rebind makes key the only key of command, as a menu's "press a key"
// does: the command's other keys are unbound and key's old command loses it.
func (c *Config) Rebind(command, key string) {
	for _, k := range c.KeysOf(command) {
		c.Unbind(k)
	}
	c.Bind(key, command)
}

// String writes the config as console lines.
func (c *Config) String() string {
	var b strings.Builder
	b.WriteString("// Written by Tickshot's menu: console lines run at start, before autoexec.cfg.\n")
	if c.Name != "" {
		fmt.Fprintf(&b, "name %s\n", Quote(c.Name))
	}
	for _, kv := range c.Cvars {
		fmt.Fprintf(&b, "%s %s\n", kv[0], Quote(kv[1]))
	}
	b.WriteString("unbindall\n")
	for _, bd := range c.Binds {
		fmt.Fprintf(&b, "bind %s %s\n", Quote(bd.Key), Quote(bd.Command))
	}
	return b.String()
}

// Quote writes s in double quotes, as Source does; the console's quoting
// has no escapes, so double quotes and control characters are dropped.
func Quote(s string) string {
	return `"` + Clean(s) + `"`
}

// Clean drops double quotes and control characters (which a console line
// cannot carry) from s.
func Clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '"' || unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
}

// Fields splits a console line into words as Source's tokenizer does:
// spaces separate words, double quotes group them (no escapes), and "//"
// outside quotes starts a comment (cvar.Fields, which the server's
// server.cfg reader shares).
func Fields(line string) []string { return cvar.Fields(line) }

// Parse reads config.cfg text. It knows `name`, `bind`, `unbind`,
// `unbindall` and takes any other line of two words as a cvar; a line it
// cannot read is an error naming the line (the caller may go on with
// what was read). Without an `unbindall` the default bindings stay, and
// the file's binds change them.
func Parse(text string) (*Config, error) {
	c := New()
	var errs []error
	for i, line := range strings.Split(text, "\n") {
		if len(line) > maxLine {
			errs = append(errs, fmt.Errorf("line %d: longer than %d bytes", i+1, maxLine))
			continue
		}
		f := Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		switch f[0] {
		case "name":
			if len(f) != 2 || Clean(f[1]) == "" {
				errs = append(errs, fmt.Errorf("line %d: want name \"NAME\"", i+1))
				continue
			}
			c.Name = Clean(f[1])
		case "unbindall":
			c.Binds = nil
		case "unbind":
			if len(f) != 2 {
				errs = append(errs, fmt.Errorf("line %d: want unbind KEY", i+1))
				continue
			}
			c.Unbind(f[1])
		case "bind":
			if len(f) != 3 || f[1] == "" || f[2] == "" {
				errs = append(errs, fmt.Errorf("line %d: want bind KEY COMMAND", i+1))
				continue
			}
			c.Bind(f[1], f[2])
		default:
			if len(f) != 2 {
				errs = append(errs, fmt.Errorf("line %d: want NAME VALUE, got %q", i+1, strings.TrimSpace(line)))
				continue
			}
			c.Set(f[0], f[1])
		}
	}
	return c, errors.Join(errs...)
}

// Load reads config.cfg from dir; a missing file is a new config. A file
// with lines it cannot read gives the rest of it and an error.
func Load(dir string) (*Config, error) {
	b, err := os.ReadFile(filepath.Join(dir, FileName))
	if errors.Is(err, os.ErrNotExist) {
		return New(), nil
	}
	if err != nil {
		return New(), err
	}
	c, err := Parse(string(b))
	if err != nil {
		err = fmt.Errorf("%s: %w", filepath.Join(dir, FileName), err)
	}
	return c, err
}

// Save writes config.cfg into dir (created if needed), replacing the old
// file only once the new one is complete.
func (c *Config) Save(dir string) error {
	return writeFile(filepath.Join(dir, FileName), c.String())
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// LoadRecent returns the recently joined servers in dir, newest first
// (none when the file is missing).
func LoadRecent(dir string) []string {
	return readList(filepath.Join(dir, RecentFileName), MaxRecent)
}

// readList reads a file of one address a line (recent.txt,
// favourites.txt): at most n lines, skipping blank ones, comments (#) and
// lines longer than maxLine; none when the file is missing.
func readList(path string, n int) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && len(l) <= maxLine && !strings.HasPrefix(l, "#") && len(out) < n {
			out = append(out, l)
		}
	}
	return out
}

// AddRecent puts addr first in the recent servers of dir (once; at most
// MaxRecent kept) and returns the new list.
func AddRecent(dir, addr string) ([]string, error) {
	addr = strings.TrimSpace(Clean(addr))
	list := []string{addr}
	for _, a := range LoadRecent(dir) {
		if a != addr && len(list) < MaxRecent {
			list = append(list, a)
		}
	}
	return list, writeFile(filepath.Join(dir, RecentFileName), strings.Join(list, "\n")+"\n")
}

// FormatTenths writes n tenths as a decimal: 10 is "1", 15 "1.5".
func FormatTenths(n int) string {
	if n%10 == 0 {
		return fmt.Sprint(n / 10)
	}
	return fmt.Sprintf("%d.%d", n/10, n%10)
}
