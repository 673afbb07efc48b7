package ws

import "fmt"

// closeText is the reason a close frame gives, or its code when it has none.
func closeText(code int, text string) string {
	if text != "" {
		return text
	}
	return fmt.Sprintf("connection closed (%d)", code)
}

// closeReason cuts a reason to what a close frame holds (123 bytes) at a
// character boundary.
func closeReason(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	i := max
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i]
}
