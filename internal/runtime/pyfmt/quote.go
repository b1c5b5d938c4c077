package pyfmt

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// Quote returns Python's repr() of the str s: single quotes unless s contains
// a single quote and no double quote; backslash escapes for the quote, \\,
// \t, \n and \r; \xNN, \uNNNN or \UNNNNNNNN for other characters Python does
// not consider printable; every other character, non-ASCII included, as is.
func Quote(s string) string {
	return string(AppendQuote(make([]byte, 0, len(s)+2), s))
}

// AppendQuote appends [Quote] of s to dst and returns the extended buffer.
func AppendQuote(dst []byte, s string) []byte {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	dst = append(dst, quote)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == quote || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c < ' ' || c == 0x7f:
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				dst = append(dst, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			// Python would hold an undecodable byte as a lone surrogate
			// (surrogateescape), which repr() prints as \udcNN.
			dst = appendEscape(dst, 'u', 0xdc00|rune(c), 4)
			i++
			continue
		}
		i += size
		switch {
		case unicode.IsPrint(r):
			dst = append(dst, s[i-size:i]...)
		case r <= 0xff:
			dst = appendEscape(dst, 'x', r, 2)
		case r <= 0xffff:
			dst = appendEscape(dst, 'u', r, 4)
		default:
			dst = appendEscape(dst, 'U', r, 8)
		}
	}
	return append(dst, quote)
}

func appendEscape(dst []byte, kind byte, r rune, width int) []byte {
	dst = append(dst, '\\', kind)
	for shift := (width - 1) * 4; shift >= 0; shift -= 4 {
		dst = append(dst, hexDigits[(r>>shift)&0xf])
	}
	return dst
}
