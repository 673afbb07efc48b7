package server

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"tickshot/game"
	"tickshot/internal/cvar"
	"tickshot/net/proto"
	"tickshot/net/realip"
)

// A server config file (Source's server.cfg, which srcds runs at start):
// console lines, one a line, each a name and its value(s), read with the
// console's tokenizer (cvar.ConfigFields): words separated by spaces, a
// value with spaces in double quotes, "//" or a word starting with "#"
// outside quotes begins a comment. The names are
//
//	hostname NAME            the server's name (Config.Hostname)
//	sv_password PASSWORD     the join password (Config.Password; "" none)
//	rcon_password PASSWORD   the rcon password (Config.RconPassword; "" off)
//	maxplayers N             player slots, humans and bots (Config.MaxPlayers)
//	sv_tickrate N            ticks/s (Config.TickRate)
//	bot_quota N              server bots (Config.Bots; Source's bot_quota)
//	map NAME                 the first map (Config.Map)
//	mapcycle MAP [MAP ...]   the maps played in turn (Config.MapCycle)
//	sv_master URL            a master server to register with; each line adds one (Config.Masters)
//	sv_region REGION         the country or region the masters list (Config.Region)
//	sv_trusted_proxy CIDR [CIDR ...]  reverse proxies whose X-Forwarded-For
//	                         counts; each line adds (Config.TrustedProxies;
//	                         an address is a /32 or /128; --trusted-proxy)
//	sv_upnp 0|1              ask the router to forward the ports (Config.UPnP)
//	any server cvar VALUE    sv_*, mp_*, bot_*, net_fake* (cvarlist)
//
// Every line is checked: an unknown name, a missing or extra value, or a
// value out of its range is an error naming the file and the line
// ("server.cfg:7: unknown cvar \"sv_foo\""), and the server does not start
// with it. A later line for the same name wins, as in a console.

// Config file limits.
const (
	// MaxConfigBytes is the largest config file read.
	MaxConfigBytes = 64 << 10
	// maxConfigLine is the longest line, bytes.
	maxConfigLine = 1024
	// maxHostnameLen is the longest hostname, bytes (Config.Hostname).
	maxHostnameLen = 64
	// MaxRegionLen is the longest sv_region, bytes: net/master's
	// MaxRegionLen (not imported here: the browser build links this file
	// and must not link net/http; a test holds the two equal).
	MaxRegionLen = 32
	// MaxMasters is the most master servers registered with.
	MaxMasters = 8
)

// CheckMasterURL refuses a master server's URL (sv_master, --master) that
// is not http:// or https:// with a host: e.g. "http://master.example:8300".
func CheckMasterURL(u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" || p.User != nil || p.RawQuery != "" || p.Fragment != "" {
		return fmt.Errorf("master %q: want an URL such as http://master.example:8300", proto.CleanName(u, 256))
	}
	return nil
}

// CheckMasters refuses masters (Config.Masters, --master) and a region
// (Config.Region, --region) that Config would refuse: more than MaxMasters, an
// URL that is not a master's (CheckMasterURL), a region that is longer than
// MaxRegionLen or not printable text.
func CheckMasters(masters []string, region string) error {
	if len(masters) > MaxMasters {
		return fmt.Errorf("%d masters: at most %d", len(masters), MaxMasters)
	}
	for _, m := range masters {
		if err := CheckMasterURL(m); err != nil {
			return err
		}
	}
	if len(region) > MaxRegionLen || proto.CleanName(region, MaxRegionLen) != region {
		return fmt.Errorf("region %q: at most %d bytes of printable text", proto.CleanName(region, MaxRegionLen), MaxRegionLen)
	}
	return nil
}

// LoadConfigFile reads a server config file at path and applies it to cfg
// (ParseConfig). Errors name path and the line.
func LoadConfigFile(path string, cfg *Config) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxConfigBytes+1))
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > MaxConfigBytes {
		return fmt.Errorf("%s: larger than %d bytes", path, MaxConfigBytes)
	}
	return ParseConfig(path, string(b), cfg)
}

// ParseConfig applies the lines of a server config file (text, called name
// in errors) to cfg: the fields its names stand for, and the server cvars
// appended to cfg.Cvars in file order. Every bad line is reported, each as
// "name:LINE: what is wrong", joined; cfg is then partly applied and must
// not be used.
func ParseConfig(name, text string, cfg *Config) error {
	p := configParser{name: name, cfg: cfg, reg: defaultVars().reg}
	for i, line := range strings.Split(text, "\n") {
		p.line = i + 1
		if len(line) > maxConfigLine {
			p.fail("line longer than %d bytes", maxConfigLine)
			continue
		}
		if f := cvar.ConfigFields(line); len(f) > 0 {
			p.apply(f[0], f[1:])
		}
	}
	if p.botsLine > 0 {
		maxp := cfg.MaxPlayers
		if maxp == 0 {
			maxp = DefaultMaxPlayers
		}
		if cfg.Bots > maxp {
			p.line = p.botsLine
			p.fail("bot_quota %d is more than maxplayers (%d)", cfg.Bots, maxp)
		}
	}
	return errors.Join(p.errs...)
}

type configParser struct {
	name     string
	line     int
	cfg      *Config
	reg      *cvar.Registry // to check cvars against their ranges
	errs     []error
	botsLine int // the line of the last bot_quota, for the maxplayers check
}

func (p *configParser) fail(format string, args ...any) {
	p.errs = append(p.errs, fmt.Errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...)))
}

// apply runs one line: key and its values.
func (p *configParser) apply(key string, vals []string) {
	cfg := p.cfg
	switch key {
	case "mapcycle":
		p.mapCycle(vals)
		return
	case "sv_trusted_proxy":
		p.trustedProxies(vals)
		return
	}
	if len(vals) != 1 {
		want := "one value"
		if len(vals) > 1 {
			want += fmt.Sprintf(", got %d (put a value with spaces in double quotes)", len(vals))
		}
		if p.known(key) {
			p.fail("%s takes %s", key, want)
		} else {
			p.fail("unknown cvar %q", key)
		}
		return
	}
	v := vals[0]
	switch key {
	case "hostname":
		if len(v) > maxHostnameLen || strings.ContainsFunc(v, proto.Invisible) {
			p.fail("hostname: at most %d bytes of printable text (no control or invisible characters such as U+202E)", maxHostnameLen)
			return
		}
		cfg.Hostname = v
	case "sv_password", "rcon_password":
		if proto.CleanText(v, proto.MaxPasswordLen) != v {
			p.fail("%s: at most %d bytes of printable text", key, proto.MaxPasswordLen)
			return
		}
		if key == "sv_password" {
			cfg.Password = v
		} else {
			cfg.RconPassword = v
		}
	case "maxplayers":
		if n, ok := p.intIn(key, v, 1, MaxPlayersLimit); ok {
			cfg.MaxPlayers = n
		}
	case "sv_tickrate":
		if n, ok := p.intIn(key, v, MinTickRate, MaxTickRate); ok {
			cfg.TickRate = n
		}
	case "bot_quota":
		if n, ok := p.intIn(key, v, 0, MaxPlayersLimit); ok {
			cfg.Bots, p.botsLine = n, p.line
		}
	case "sv_upnp":
		if n, ok := p.intIn(key, v, 0, 1); ok {
			cfg.UPnP = n == 1
		}
	case "map":
		if p.checkMap(v) {
			cfg.Map = v
		}
	case "sv_master":
		if err := CheckMasters(append(cfg.Masters, v), cfg.Region); err != nil {
			p.fail("sv_master: %v", err)
			return
		}
		cfg.Masters = append(cfg.Masters, v)
	case "sv_region":
		if err := CheckMasters(nil, v); err != nil {
			p.fail("sv_region: %v", err)
			return
		}
		cfg.Region = v
	default:
		c := p.reg.Lookup(key)
		if c == nil {
			p.fail("unknown cvar %q", key)
			return
		}
		if _, _, err := c.Parse(v); err != nil {
			p.fail("%v", err)
			return
		}
		cfg.Cvars = append(cfg.Cvars, [2]string{key, v})
	}
}

// known tells whether key is a name the file takes.
func (p *configParser) known(key string) bool {
	switch key {
	case "hostname", "sv_password", "rcon_password", "maxplayers", "sv_tickrate", "bot_quota", "map", "mapcycle", "sv_master", "sv_region", "sv_trusted_proxy", "sv_upnp":
		return true
	}
	return p.reg.Lookup(key) != nil
}

// intIn parses a whole number in lo..hi, reporting it otherwise.
func (p *configParser) intIn(key, v string, lo, hi int) (int, bool) {
	n, err := strconv.Atoi(v)
	if err != nil {
		p.fail("%s: %q is not a whole number (range %d..%d)", key, v, lo, hi)
		return 0, false
	}
	if n < lo || n > hi {
		p.fail("%s: %d is outside %d..%d", key, n, lo, hi)
		return 0, false
	}
	return n, true
}

// checkMap reports a map that is not among the embedded ones.
func (p *configParser) checkMap(name string) bool {
	if !slices.Contains(game.MapNames(), name) {
		p.fail("no map %q (available: %s)", name, strings.Join(game.MapNames(), ", "))
		return false
	}
	return true
}

// mapCycle sets the map cycle: one or more known maps.
func (p *configParser) mapCycle(maps []string) {
	if len(maps) == 0 {
		p.fail("mapcycle takes one or more map names (available: %s)", strings.Join(game.MapNames(), ", "))
		return
	}
	if len(maps) > MaxMapCycle {
		p.fail("mapcycle: more than %d maps", MaxMapCycle)
		return
	}
	for _, m := range maps {
		if !p.checkMap(m) {
			return
		}
	}
	p.cfg.MapCycle = append([]string(nil), maps...)
}

// trustedProxies adds trusted reverse proxies: one or more addresses or
// CIDR prefixes (realip.ParsePrefix).
func (p *configParser) trustedProxies(vals []string) {
	if len(vals) == 0 {
		p.fail("sv_trusted_proxy takes one or more IP addresses or CIDR prefixes (e.g. 127.0.0.1 10.0.0.0/8)")
		return
	}
	list, err := realip.ParseList(vals)
	if err != nil {
		p.fail("sv_trusted_proxy: %v", err)
		return
	}
	p.cfg.TrustedProxies = append(p.cfg.TrustedProxies, list...)
}
