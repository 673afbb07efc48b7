//go:build !headless

package menu

import (
	"strings"

	"tickshot/client/config"
)

// prefs is what the menu keeps between runs: config.cfg (the player name,
// the settings' cvars, the key bindings), changed through the console as
// a player typing would so that the two never disagree, recent.txt, the
// servers joined, and favourites.txt, the servers starred. Without a directory nothing is written; without a
// console the settings are only saved.
type prefs struct {
	dir     string
	cfg     *config.Config
	console Console
	// warn shows a failure to save config.cfg.
	warn func(string)
}

// save writes config.cfg (when there is a directory); a failure is shown
// through warn.
func (p *prefs) save() {
	if p.dir == "" {
		return
	}
	if err := p.cfg.Save(p.dir); err != nil {
		p.warn("Settings not saved: " + err.Error())
	}
}

// setName takes the name field's text (made a ValidName), saving it when
// it changed.
func (p *prefs) setName(s string) {
	if n := ValidName(s); n != p.cfg.Name {
		p.cfg.Name = n
		p.save()
	}
}

// cvar reads a console variable: the console's value, else config.cfg's,
// else def.
func (p *prefs) cvar(name, def string) string {
	if p.console != nil {
		if v := p.console.Cvar(name); v != "" {
			return v
		}
	}
	if v, ok := p.cfg.Get(name); ok {
		return v
	}
	return def
}

// setCvar sets a console variable through the console, as typing
// `name value` would (quoted when empty or of several words), and saves it in config.cfg when the console took
// it. It returns the console's refusal ("" when taken).
func (p *prefs) setCvar(name, value string) (refusal string) {
	if p.console != nil {
		if out := p.console.Exec(name + " " + consoleWord(value)); refused(out) {
			return out
		}
	}
	p.cfg.Set(name, value)
	p.save()
	return ""
}

// rebind makes key the one key of command, through the console's unbind
// and bind commands, and saves it. It returns the console's refusal (""
// when taken; then nothing is saved).
func (p *prefs) rebind(command, key string) (refusal string) {
	if p.console != nil {
		for _, k := range p.cfg.KeysOf(command) {
			p.console.Exec("unbind " + config.Quote(k))
		}
		if out := p.console.Exec("bind " + config.Quote(key) + " " + config.Quote(command)); refused(out) {
			return out
		}
	}
	p.cfg.Rebind(command, key)
	p.save()
	return ""
}

// defaultKeys puts the default bindings back (unbindall, then a bind a
// key) and saves them.
func (p *prefs) defaultKeys() {
	if p.console != nil {
		p.console.Exec("unbindall")
		for _, b := range config.DefaultBinds() {
			p.console.Exec("bind " + config.Quote(b.Key) + " " + config.Quote(b.Command))
		}
	}
	p.cfg.Binds = config.DefaultBinds()
	p.save()
}

// recent is recent.txt's servers, newest first (none without a
// directory).
func (p *prefs) recent() []string {
	if p.dir == "" {
		return nil
	}
	return config.LoadRecent(p.dir)
}

// addRecent puts addr first in recent.txt (when there is a directory).
// A failure to write it only loses the entry.
func (p *prefs) addRecent(addr string) {
	if p.dir != "" {
		_, _ = config.AddRecent(p.dir, addr)
	}
}

// consoleWord is value as one word of a console line: quoted
// (config.Quote) when it is empty or has spaces, as a player would type it.
func consoleWord(value string) string {
	if value == "" || strings.ContainsAny(value, " \t\"") {
		return config.Quote(value)
	}
	return value
}

// favourites is favourites.txt's servers, oldest first (none without a
// directory).
func (p *prefs) favourites() []string {
	if p.dir == "" {
		return nil
	}
	return config.LoadFavourites(p.dir)
}

// setFavourite stars addr (on) or unstars it in favourites.txt and
// returns the favourites; a failure to write it is shown through warn.
func (p *prefs) setFavourite(addr string, on bool) []string {
	if p.dir == "" {
		return nil
	}
	list, err := config.SetFavourite(p.dir, addr, on)
	if err != nil {
		p.warn("Favourites not saved: " + err.Error())
	}
	return list
}

// refused reports whether console output is a refusal.
func refused(out string) bool {
	return strings.HasPrefix(out, "error") || strings.HasPrefix(out, "unknown")
}
