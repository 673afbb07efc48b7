package server

import (
	"strings"

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

// FoldName is the name a Hello's name becomes before anyone sees it:
// cleaned as every name shown to people is (proto.CleanName: invisible
// characters and bidi overrides removed, spaces folded, ends trimmed), a
// reserved prefix cut off, and a reserved name, or
// nothing left, replaced by DefaultPlayerName. At most proto.MaxNameLen
// bytes.
func FoldName(name string) string {
	n := proto.CleanName(name, len(name))
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
