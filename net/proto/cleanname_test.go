package proto

import "testing"

func TestCleanNameRemovesOverridesControlsAndFoldsSpaces(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\u202Eevil", "evil"},
		{"a\u200b\u2066b\u2069", "ab"},
		{"\x1b[31mred\x1b[0m", "[31mred[0m"},
		{"  two\u00a0\u3000 words\n", "two words"},
		{"ok\xffname", "okname"},
		{"\u3164\u2800", ""},
	} {
		if got := CleanName(c.in, 64); got != c.want {
			t.Errorf("CleanName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := CleanName("ééééé", 5); got != "éé" {
		t.Errorf("CleanName cut to 5 bytes = %q, want %q (on a rune boundary)", got, "éé")
	}
}
