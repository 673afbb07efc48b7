// Package lan finds Tickshot servers on the local network and announces
// them: DNS-SD (RFC 6763) over multicast DNS (RFC 6762), the mechanism of
// Apple's Bonjour and Avahi, with github.com/grandcat/zeroconf. A server
// publishes one instance of the service type ServiceType whose TXT record
// says its name, map, players and whether it needs a password; a browser
// asks for that type once a second, and completes every answer from the
// server's own GET /status (the details in the list come from there, and a
// server whose /status does not answer is not listed).
//
// mDNS rather than Source's A2S_INFO broadcast: it finds a server on any
// port (A2S scans a fixed range, 27015-27020), it is a standard that other
// tools already list (avahi-browse -r _tickshot._tcp), and it works on this
// machine's loopback interface even though Linux gives lo no MULTICAST flag
// (the group is joined on lo explicitly), so two games on one computer
// without a network see each other. docs/ARCHITECTURE.md has the details,
// docs/PROTOCOL.md the service type and TXT keys.
//
// The browser build (GOOS=js) has no UDP: there NewBrowser, Browse and
// Announce return ErrUnavailable.
package lan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"tickshot/net/proto"
)

// ServiceType is the DNS-SD service type of a Tickshot server (RFC 6763
// §7: "_" + name + "._tcp"; the game runs over a TCP websocket). Instances
// are published in Domain.
const (
	ServiceType = "_tickshot._tcp"
	Domain      = "local."
)

// Timing of the browser, from RFC 6762's spirit (answers are fresh for a
// few seconds) and the list's promise (a server appears within 3 s and
// disappears within 10 s of stopping).
const (
	// QueryInterval is how often a Browser asks each known server's
	// /status again, and how often it asks the network for servers in its
	// first FastRounds rounds; later it asks every RoundInterval (servers
	// that start announce themselves, and are heard at once).
	QueryInterval = time.Second
	FastRounds    = 3
	RoundInterval = 3 * time.Second
	// Expiry is how long a server stays listed without an mDNS answer.
	Expiry = 6 * time.Second
	// TXTInterval is the least time between two announcements of a
	// server's changed TXT record (players come and go; the list reads
	// /status anyway).
	TXTInterval = 5 * time.Second
	// StatusTimeout bounds one GET /status.
	StatusTimeout = 1500 * time.Millisecond
	// MaxStatusBytes is the most of a /status body read.
	MaxStatusBytes = 1 << 20
	// MaxServers is the most instances a Browser keeps (announcements are
	// network input: a host answering with thousands of instance names
	// would otherwise grow the table and start a /status poll for each).
	// Instances beyond it are ignored until some expire.
	MaxServers = 256
	// MaxCandidates is the most addresses of one instance whose /status
	// is tried (a hostile answer may list hundreds, each a 1.5 s timeout).
	MaxCandidates = 4
)

// ErrUnavailable is returned where LAN discovery cannot work (the browser build).
var ErrUnavailable = errors.New("LAN discovery is not available in the browser")

// Server is one server found on the LAN: what the announcement says, completed from its /status.
type Server struct {
	Addr       string        // host:port a client connects to (websocket game port)
	Name       string        // hostname
	Map        string        // map name
	Players    int           // humans playing
	Bots       int           // server-side bots
	Spectators int           // players watching without a body
	MaxPlayers int           // player slots (humans and bots)
	Password   bool          // a join password is needed
	Ping       time.Duration // round trip of the /status request
	Version    int           // protocol version
	LastSeen   time.Time     // the last mDNS answer or /status reply
	Instance   string        // the DNS-SD instance name (unique on the LAN)
}

// Compatible reports whether this build can join the server (same protocol version).
func (s Server) Compatible() bool { return s.Version == proto.ProtocolVersion }

// AnnounceConfig is what a server announces.
type AnnounceConfig struct {
	// Addr is the address the server listens on, as bound (host:port; the
	// host may be empty or unspecified: every interface). A loopback host
	// is announced on the loopback interface only, since nobody else could
	// connect to it.
	Addr       string
	Name       string // the server's name (Source's hostname)
	Map        string
	Players    int // humans playing
	Bots       int
	MaxPlayers int
	Password   bool // a join password is needed; the password itself is never announced
	Version    int  // protocol version; 0 means proto.ProtocolVersion
	// Refresh, when set, is called every QueryInterval to update the
	// changing fields (players, map); the TXT record is announced again
	// when it changed, at most every TXTInterval.
	Refresh func(*AnnounceConfig)
}

// TXT keys (RFC 6763 §6: key=value strings). txtvers first, as §6.7 advises.
const (
	txtVers     = "txtvers"
	txtName     = "name"
	txtMap      = "map"
	txtPlayers  = "players"
	txtBots     = "bots"
	txtMax      = "max"
	txtPassword = "password"
	txtProto    = "proto"
)

// MaxNameLen is the most bytes of a server's or a map's name in the list
// (proto.CleanName's max; a server's hostname is at most 64 bytes too).
const MaxNameLen = 64

// TXT returns the announcement's TXT record strings, in the presentation
// form that github.com/miekg/dns (zeroconf's DNS library) packs: a
// backslash escapes the next character or three decimal digits (\DDD, one
// byte), so a backslash in a name is written as two (txtEscape). Names are
// cleaned (proto.CleanName) before they are announced.
func (c AnnounceConfig) TXT() []string {
	v := c.Version
	if v == 0 {
		v = proto.ProtocolVersion
	}
	pw := "0"
	if c.Password {
		pw = "1"
	}
	return []string{
		txtVers + "=1",
		txtName + "=" + txtEscape(proto.CleanName(c.Name, MaxNameLen)),
		txtMap + "=" + txtEscape(proto.CleanName(c.Map, MaxNameLen)),
		txtPlayers + "=" + strconv.Itoa(max(c.Players, 0)),
		txtBots + "=" + strconv.Itoa(max(c.Bots, 0)),
		txtMax + "=" + strconv.Itoa(max(c.MaxPlayers, 0)),
		txtPassword + "=" + pw,
		txtProto + "=" + strconv.Itoa(v),
	}
}

// parseTXT reads an announcement's TXT strings in miekg/dns's presentation
// form (as zeroconf hands them over: bytes outside printable ASCII as
// \DDD, a quote or backslash after a backslash; txtUnescape undoes it).
// They are network input: unknown keys are ignored, numbers out of range
// read as 0, names are cleaned (proto.CleanName).
func parseTXT(txt []string) Server {
	var s Server
	num := func(v string) int {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1<<16 {
			return 0
		}
		return n
	}
	for _, kv := range txt {
		k, v, _ := strings.Cut(txtUnescape(kv), "=")
		switch strings.ToLower(k) {
		case txtName:
			s.Name = proto.CleanName(v, MaxNameLen)
		case txtMap:
			s.Map = proto.CleanName(v, MaxNameLen)
		case txtPlayers:
			s.Players = num(v)
		case txtBots:
			s.Bots = num(v)
		case txtMax:
			s.MaxPlayers = num(v)
		case txtPassword:
			s.Password = v == "1"
		case txtProto:
			s.Version = num(v)
		}
	}
	return s
}

// txtEscape writes s in miekg/dns's presentation form of a TXT string:
// a backslash doubled (packed as one). Other bytes, UTF-8 included, are
// packed as they are.
func txtEscape(s string) string { return strings.ReplaceAll(s, `\`, `\\`) }

// txtUnescape reads a TXT string (or a DNS label) in miekg/dns's
// presentation form: \DDD is the byte DDD (decimal), a backslash before
// any other character is that character. Unpacking writes every byte
// outside printable ASCII as \DDD, so without this a name such as "Café"
// reads "Caf\195\169".
func txtUnescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	digit := func(c byte) bool { return c >= '0' && c <= '9' }
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b = append(b, s[i])
			continue
		}
		i++
		if i+2 < len(s) && digit(s[i]) && digit(s[i+1]) && digit(s[i+2]) {
			if n := int(s[i]-'0')*100 + int(s[i+1]-'0')*10 + int(s[i+2]-'0'); n <= 255 {
				b = append(b, byte(n))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

// statusDoc is the part of a server's GET /status (server.Status) that the
// list shows.
type statusDoc struct {
	Name       string `json:"name"`
	Map        string `json:"map"`
	MaxPlayers int    `json:"maxplayers"`
	Spectators int    `json:"spectators"`
	Password   bool   `json:"password"`
	Protocol   int    `json:"protocol"`
	Players    []struct {
		Bot bool `json:"bot"`
	} `json:"players"`
}

// readStatus decodes a /status body into the list's fields, refusing
// what no Tickshot server sends.
func readStatus(r io.Reader) (Server, error) {
	var d statusDoc
	if err := json.NewDecoder(io.LimitReader(r, MaxStatusBytes)).Decode(&d); err != nil {
		return Server{}, fmt.Errorf("bad /status: %w", err)
	}
	if d.MaxPlayers < 0 || d.MaxPlayers > 1<<16 || len(d.Players) > 1<<16 || d.Spectators < 0 || d.Spectators > 1<<16 {
		return Server{}, fmt.Errorf("bad /status: counts out of range (maxplayers %d, %d players, %d spectators)",
			d.MaxPlayers, len(d.Players), d.Spectators)
	}
	s := Server{Name: proto.CleanName(d.Name, MaxNameLen), Map: proto.CleanName(d.Map, MaxNameLen), MaxPlayers: d.MaxPlayers,
		Spectators: d.Spectators, Password: d.Password, Version: d.Protocol}
	for _, p := range d.Players {
		if p.Bot {
			s.Bots++
		} else {
			s.Players++
		}
	}
	return s, nil // spectators are not in players (server.Status)
}

// sortServers orders a list by name, then address.
func sortServers(l []Server) {
	sort.Slice(l, func(i, j int) bool {
		if l[i].Name != l[j].Name {
			return l[i].Name < l[j].Name
		}
		return l[i].Addr < l[j].Addr
	})
}
