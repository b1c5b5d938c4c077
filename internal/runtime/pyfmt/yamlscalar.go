package pyfmt

import (
	"fmt"
	"regexp"
	"strings"
)

// scalarAnalysis is what PyYAML's analyze_scalar finds in a scalar: which
// styles can write it.
type scalarAnalysis struct {
	text              []rune
	empty, multiline  bool
	allowBlockPlain   bool
	allowSingleQuoted bool
}

// isBreak reports a character PyYAML takes for a line break.
func isBreak(r rune) bool { return r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029' }

// isBlankOrEnd reports a character after which an indicator counts as
// followed by white space.
func isBlankOrEnd(r rune) bool { return r == 0 || r == ' ' || r == '\t' || r == '\r' || isBreak(r) }

// printableUnicode reports a character PyYAML writes as it is with
// allow_unicode when analysing a scalar.
func printableUnicode(r rune) bool {
	return (r == '\u0085' || '\u00a0' <= r && r <= '\ud7ff' || '\ue000' <= r && r <= '\ufffd' ||
		'\U00010000' <= r && r < '\U0010ffff') && r != '\ufeff'
}

// analyzeScalar is PyYAML's analyze_scalar for a block context, reduced to
// the styles a block emitter can choose among (plain in block context,
// single quoted, double quoted).
func analyzeScalar(text []rune) scalarAnalysis {
	if len(text) == 0 {
		return scalarAnalysis{text: text, empty: true, allowBlockPlain: true, allowSingleQuoted: true}
	}
	var blockIndicators, lineBreaks, special bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if len(text) >= 3 && text[0] == text[1] && text[1] == text[2] && (text[0] == '-' || text[0] == '.') {
		blockIndicators = true
	}
	precededByWhitespace := true
	followedByWhitespace := len(text) == 1 || isBlankOrEnd(text[1])
	previousSpace, previousBreak := false, false
	for i, ch := range text {
		if i == 0 {
			switch {
			case strings.ContainsRune("#,[]{}&*!|>'\"%@`", ch):
				blockIndicators = true
			case ch == '?' || ch == ':':
				blockIndicators = blockIndicators || followedByWhitespace
			case ch == '-':
				blockIndicators = blockIndicators || followedByWhitespace
			}
		} else if ch == ':' && followedByWhitespace || ch == '#' && precededByWhitespace {
			blockIndicators = true
		}
		if isBreak(ch) {
			lineBreaks = true
		}
		if !(ch == '\n' || ' ' <= ch && ch <= '~') && !printableUnicode(ch) {
			special = true
		}
		switch {
		case ch == ' ':
			leadingSpace = leadingSpace || i == 0
			trailingSpace = trailingSpace || i == len(text)-1
			breakSpace = breakSpace || previousBreak
			previousSpace, previousBreak = true, false
		case isBreak(ch):
			leadingBreak = leadingBreak || i == 0
			trailingBreak = trailingBreak || i == len(text)-1
			spaceBreak = spaceBreak || previousSpace
			previousSpace, previousBreak = false, true
		default:
			previousSpace, previousBreak = false, false
		}
		precededByWhitespace = isBlankOrEnd(ch)
		followedByWhitespace = i+2 >= len(text) || isBlankOrEnd(text[i+2])
	}
	a := scalarAnalysis{text: text, multiline: lineBreaks, allowBlockPlain: true, allowSingleQuoted: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak || lineBreaks || blockIndicators {
		a.allowBlockPlain = false
	}
	if breakSpace || spaceBreak || special {
		a.allowBlockPlain, a.allowSingleQuoted = false, false
	}
	return a
}

// scalar writes a scalar in the style PyYAML's choose_scalar_style picks:
// plain when plain reads back as the same value and the text allows it,
// else single quoted when the text allows it, else double quoted. A key
// (simpleKey) is never folded.
func (e *yamlEmitter) scalar(a scalarAnalysis, plain, simpleKey bool) {
	e.increaseIndent(true, false)
	split := !simpleKey
	switch {
	case plain && !(simpleKey && (a.empty || a.multiline)) && a.allowBlockPlain:
		e.writePlain(a.text, split)
	case a.allowSingleQuoted && !(simpleKey && a.multiline):
		e.writeSingleQuoted(a.text, split)
	default:
		e.writeDoubleQuoted(a.text, split)
	}
	e.popIndent()
}

// writePlain is PyYAML's write_plain: words as they are, a single space
// past the width turned into a new line.
func (e *yamlEmitter) writePlain(text []rune, split bool) {
	if len(text) == 0 {
		return
	}
	if !e.whitespace {
		e.write([]rune{' '})
	}
	e.whitespace, e.indention = false, false
	spaces := false
	start := 0
	for end := 0; end <= len(text); end++ {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		if spaces {
			if ch != ' ' {
				if start+1 == end && e.column > e.width && split {
					e.writeIndent()
					e.whitespace, e.indention = false, false
				} else {
					e.write(text[start:end])
				}
				start = end
			}
		} else if ch == -1 || ch == ' ' {
			e.write(text[start:end])
			start = end
		}
		spaces = ch == ' '
	}
}

// writeSingleQuoted is PyYAML's write_single_quoted: quotes doubled, each
// run of line breaks written with one more, a single space past the width
// turned into a new line.
func (e *yamlEmitter) writeSingleQuoted(text []rune, split bool) {
	e.writeIndicator("'", true, false, false)
	spaces, breaks := false, false
	start := 0
	for end := 0; end <= len(text); end++ {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		switch {
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.column > e.width && split && start != 0 && end != len(text) {
					e.writeIndent()
				} else {
					e.write(text[start:end])
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isBreak(ch) {
				if text[start] == '\n' {
					e.writeLineBreak('\n')
				}
				for _, br := range text[start:end] {
					e.writeLineBreak(br)
				}
				e.writeIndent()
				start = end
			}
		default:
			if (ch == -1 || ch == ' ' || isBreak(ch) || ch == '\'') && start < end {
				e.write(text[start:end])
				start = end
			}
		}
		if ch == '\'' {
			e.write([]rune("''"))
			start = end + 1
		}
		if ch != -1 {
			spaces, breaks = ch == ' ', isBreak(ch)
		}
	}
	e.writeIndicator("'", false, false, false)
}

// doubleQuotedEscapes are the short escapes of PyYAML's double quoted
// scalars.
var doubleQuotedEscapes = map[rune]string{
	0: "0", '\a': "a", '\b': "b", '\t': "t", '\n': "n", '\v': "v", '\f': "f", '\r': "r", '\x1b': "e",
	'"': "\"", '\\': "\\", '\u0085': "N", '\u00a0': "_", '\u2028': "L", '\u2029': "P",
}

// writeDoubleQuoted is PyYAML's write_double_quoted: characters outside
// printable ASCII and the BMP escaped, lines broken past the width with a
// backslash.
func (e *yamlEmitter) writeDoubleQuoted(text []rune, split bool) {
	e.writeIndicator("\"", true, false, false)
	start := 0
	for end := 0; end <= len(text); end++ {
		var ch rune = -1
		if end < len(text) {
			ch = text[end]
		}
		if ch == -1 || strings.ContainsRune("\"\\\u0085\u2028\u2029\ufeff", ch) ||
			!(' ' <= ch && ch <= '~' || '\u00a0' <= ch && ch <= '\ud7ff' || '\ue000' <= ch && ch <= '\ufffd') {
			if start < end {
				e.write(text[start:end])
				start = end
			}
			if ch != -1 {
				esc, ok := doubleQuotedEscapes[ch]
				switch {
				case ok:
					esc = `\` + esc
				case ch <= 0xff:
					esc = fmt.Sprintf(`\x%02X`, ch)
				case ch <= 0xffff:
					esc = fmt.Sprintf(`\u%04X`, ch)
				default:
					esc = fmt.Sprintf(`\U%08X`, ch)
				}
				e.write([]rune(esc))
				start = end + 1
			}
		}
		if 0 < end && end < len(text)-1 && (ch == ' ' || start >= end) && e.column+(end-start) > e.width && split {
			// Just after an escape start is past end: nothing before the
			// backslash.
			e.write(append(append([]rune(nil), text[start:max(start, end)]...), '\\'))
			if start < end {
				start = end
			}
			e.writeIndent()
			e.whitespace, e.indention = false, false
			if text[start] == ' ' {
				e.write([]rune{'\\'})
			}
		}
	}
	e.writeIndicator("\"", false, false, false)
}

// implicitResolvers are PyYAML's implicit resolvers (YAML 1.1): a plain
// scalar matching one reads as a bool, number, null, timestamp, merge key
// or value, not as a string. Each applies to texts starting with one of
// its characters.
var implicitResolvers = []struct {
	first string
	re    *regexp.Regexp
}{
	{"yYnNtTfFoO", regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)},
	{"-+0123456789.", regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?` +
		`|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)},
	{"-+0123456789", regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+` +
		`|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)},
	{"<", regexp.MustCompile(`^<<$`)},
	{"~nN", regexp.MustCompile(`^(?:~|null|Null|NULL)$`)},
	{"0123456789", regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]` +
		`|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?` +
		`(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)},
	{"=", regexp.MustCompile(`^=$`)},
	{"!&*", regexp.MustCompile(`^(?:!|&|\*)$`)},
}

// resolvesImplicitly reports whether PyYAML would read s, written plain,
// as something other than a string (the empty text reads as null).
func resolvesImplicitly(s string) bool {
	if s == "" {
		return true
	}
	for _, r := range implicitResolvers {
		if strings.IndexByte(r.first, s[0]) >= 0 && r.re.MatchString(s) {
			return true
		}
	}
	return false
}
