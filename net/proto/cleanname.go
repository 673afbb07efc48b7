package proto

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Invisible reports whether r prints nothing or only blank: Unicode format
// characters (category Cf: zero-width space and joiners, bidi embeddings,
// overrides such as U+202E and isolates, the soft hyphen, the byte-order
// mark), controls (Cc: NUL, escape, newline...), and the letters that draw as
// blanks (Hangul fillers U+115F, U+1160, U+3164, U+FFA0, the braille blank
// U+2800). The list follows Unicode's Default_Ignorable_Code_Point property
// and UTS #39's confusable blanks.
func Invisible(r rune) bool {
	switch r {
	case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, utf8.RuneError:
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Cc, r) ||
		(r >= 0xFE00 && r <= 0xFE0F) || (r >= 0xE0000 && r <= 0xE0FFF) // variation selectors, tags
}

// CleanName is a name from the network (a player's, a server's, a map's)
// made safe to draw in a menu or print on a terminal: invalid UTF-8 and
// invisible characters (Invisible: controls, escape sequences' ESC, bidi
// overrides that would draw "evil" as "live") removed, every kind of space
// (U+00A0, U+2000..U+200A, U+3000, ...) made an ASCII space, runs of spaces
// made one, the ends trimmed, and the result cut to at most max bytes on a
// rune boundary (TruncateUTF8). It may return "": the caller picks a
// stand-in. Every name that reaches people goes through it: server.FoldName
// (players), the LAN list (net/lan), the internet list (net/master).
func CleanName(s string, max int) string {
	var b strings.Builder
	space := true // drops leading spaces
	for _, r := range strings.ToValidUTF8(s, "") {
		switch {
		case Invisible(r):
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
	return TruncateUTF8(strings.TrimSpace(b.String()), max)
}
