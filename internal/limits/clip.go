package limits

import (
	"strings"
	"unicode/utf8"
)

// Clip bounds s for a message or a stored field: valid UTF-8 (invalid bytes
// become U+FFFD) of at most n bytes cut at a character boundary, with "..."
// added when something was cut. A valid s of at most n bytes is returned as
// it is.
func Clip(s string, n int) string {
	if len(s) <= n && utf8.ValidString(s) {
		return s
	}
	cut := min(len(s), max(n, 0))
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	out := strings.ToValidUTF8(s[:cut], "\uFFFD")
	if cut < len(s) {
		out += "..."
	}
	return out
}
