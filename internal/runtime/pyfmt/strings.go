package pyfmt

import (
	"strings"
	"unicode"
)

// IsSpace reports whether Python's str.isspace() holds for r: Unicode
// White_Space plus the ASCII separators U+001C to U+001F.
func IsSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// TrimSpace returns s without the leading and trailing characters that
// Python's str.strip() removes.
func TrimSpace(s string) string {
	return strings.TrimFunc(s, IsSpace)
}

// IsBlank reports whether Python's s.strip() would be empty. It does not
// allocate.
func IsBlank(s string) bool {
	for _, r := range s {
		if !IsSpace(r) {
			return false
		}
	}
	return true
}

// IsIdentifier reports whether Python's str.isidentifier() holds for s: an
// XID_Start character or underscore first, then XID_Continue characters.
// Go's Unicode tables may be a version apart from a given Python's, which
// matters only for characters assigned in the newer version.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if i == 0 {
			if !isIDStart(r) {
				return false
			}
			continue
		}
		if !isIDContinue(r) {
			return false
		}
	}
	return true
}

// notXIDStart and notXIDContinue list the ID_Start/ID_Continue characters
// whose NFKC forms are not identifiers, which the XID properties leave out.
var (
	notXIDStart = &unicode.RangeTable{R16: []unicode.Range16{
		{Lo: 0x037a, Hi: 0x037a, Stride: 1},
		{Lo: 0x0e33, Hi: 0x0e33, Stride: 1},
		{Lo: 0x0eb3, Hi: 0x0eb3, Stride: 1},
		{Lo: 0x309b, Hi: 0x309c, Stride: 1},
		{Lo: 0xfc5e, Hi: 0xfc63, Stride: 1},
		{Lo: 0xfdfa, Hi: 0xfdfb, Stride: 1},
		{Lo: 0xfe70, Hi: 0xfe7e, Stride: 2},
		{Lo: 0xff9e, Hi: 0xff9f, Stride: 1},
	}}
	notXIDContinue = &unicode.RangeTable{R16: []unicode.Range16{
		{Lo: 0x037a, Hi: 0x037a, Stride: 1},
		{Lo: 0x309b, Hi: 0x309c, Stride: 1},
		{Lo: 0xfc5e, Hi: 0xfc63, Stride: 1},
		{Lo: 0xfdfa, Hi: 0xfdfb, Stride: 1},
		{Lo: 0xfe70, Hi: 0xfe7e, Stride: 2},
	}}
)

func isIDStart(r rune) bool {
	if r < 0x80 {
		return r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z')
	}
	return isUnicodeIDStart(r) && !unicode.Is(notXIDStart, r)
}

func isIDContinue(r rune) bool {
	if r < 0x80 {
		return r == '_' || ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
	}
	if unicode.Is(notXIDContinue, r) {
		return false
	}
	if isUnicodeIDStart(r) {
		return true
	}
	return unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc, unicode.Other_ID_Continue) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}

// isUnicodeIDStart is the Unicode ID_Start property.
func isUnicodeIDStart(r rune) bool {
	return (unicode.IsLetter(r) || unicode.In(r, unicode.Nl, unicode.Other_ID_Start)) &&
		!unicode.In(r, unicode.Pattern_Syntax, unicode.Pattern_White_Space)
}
