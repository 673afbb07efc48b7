package server

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"tickshot/net/proto"
)

// Player names a client may not take: those the server speaks or names its
// own players with. A Hello's name is folded first (FoldName), then
// compared with these case-insensitively, so "SERVER", "Ser\u200bver" and
// "[bot]  Evil" are caught as "Server" and "[BOT] Evil" are.
var (
	// ReservedNames are refused whole: a player asking for one is named
	// DefaultPlayerName instead.
	ReservedNames = []string{"Server", "Console", "Admin", "rcon"}
	// ReservedPrefixes are cut off the front of a name (repeatedly): "[BOT] "
	// marks the server's bots (game.World.AddBot).
	ReservedPrefixes = []string{"[BOT]"}
)

// DefaultPlayerName is the name of a player whose name folds to nothing or
// to a reserved one (made unique with "(2)", "(3)", ...).
const DefaultPlayerName = "player"

// invisible reports whether r prints nothing or only blank: Unicode format
// characters (category Cf: zero-width space and joiners, bidi embeddings,
// overrides and isolates, the soft hyphen, the byte-order mark), controls
// (Cc), and the letters that draw as blanks (Hangul fillers U+115F, U+1160,
// U+3164, U+FFA0, the braille blank U+2800). The list follows Unicode's
// Default_Ignorable_Code_Point property and UTS #39's confusable blanks.
func invisible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, utf8.RuneError:
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Cc, r) ||
		(r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0000 && r <= 0xE0FFF) // variation selectors, tags
}

// FoldName is the name a Hello's name becomes before anyone sees it:
// invisible characters removed (invisible), every kind of space (U+00A0,
// U+2000..U+200A, U+3000, ...) made an ASCII space, runs of spaces made one,
// the ends trimmed, a reserved prefix cut off, and a reserved name, or
// nothing left, replaced by DefaultPlayerName. At most proto.MaxNameLen
// bytes.
func FoldName(name string) string {
	var b strings.Builder
	space := true // drops leading spaces
	for _, r := range strings.ToValidUTF8(name, "") {
		switch {
		case invisible(r):
		case unicode.IsSpace(r) || unicode.Is(unicode.Zs, r):
			if !space {
				b.WriteByte(' ')
				space = true
			}
		default:
			b.WriteRune(r)
			space = false
		}
	}
	n := strings.TrimSpace(b.String())
	for cut := true; cut; {
		cut = false
		for _, p := range ReservedPrefixes {
			if len(n) >= len(p) && strings.EqualFold(n[:len(p)], p) {
				n, cut = strings.TrimSpace(n[len(p):]), true
			}
		}
	}
	for _, r := range ReservedNames {
		if strings.EqualFold(n, r) {
			n = ""
		}
	}
	if n == "" {
		return DefaultPlayerName
	}
	return proto.TruncateUTF8(n, proto.MaxNameLen)
}

// LeftReason is the EvLeft text others get when a client ends its own
// connection: whatever its Disconnect said is logged, not forwarded.
const LeftReason = "left the game"
