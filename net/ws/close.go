package ws

import "fmt"

// closeText is the reason a close frame gives, or its code when it has none.
func closeText(code int, text string) string {
	if text != "" {
		return text
	}
	return fmt.Sprintf("connection closed (%d)", code)
}
