package a2a

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pyRepr writes a JSON value as Python's str() writes the dict, list or
// scalar json.loads gives for it, as ADK 1.x puts a dict in A2A metadata.
// A whole number is an int; keys are sorted, since the order they came in
// is not kept.
func pyRepr(v any) string {
	var b strings.Builder
	writePy(&b, v, false)
	return b.String()
}

// pyJSON writes a JSON value as Python's json.dumps does by default, as
// ADK 2.x puts a dict in A2A metadata: ", " and ": " between items, every
// character past ASCII escaped.
func pyJSON(v any) string {
	var b strings.Builder
	writePy(&b, v, true)
	return b.String()
}

// PyJSON writes a JSON value as Python's json.dumps does by default (see
// pyJSON), as ADK 2.x writes a function response it sends as text.
func PyJSON(v any) string { return pyJSON(v) }

func writePy(b *strings.Builder, v any, asJSON bool) {
	switch v := v.(type) {
	case nil:
		b.WriteString(pick(asJSON, "null", "None"))
	case bool:
		b.WriteString(pick(asJSON, strconv.FormatBool(v), pick(v, "True", "False")))
	case float64:
		b.WriteString(pyNumber(v, asJSON))
	case string:
		if asJSON {
			b.WriteString(jsonString(v))
		} else {
			b.WriteString(pyString(v))
		}
	case []any:
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			writePy(b, x, asJSON)
		}
		b.WriteByte(']')
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writePy(b, k, asJSON)
			b.WriteString(": ")
			writePy(b, v[k], asJSON)
		}
		b.WriteByte('}')
	default:
		b.WriteString(pyString(fmt.Sprint(v)))
	}
}

func pick[T any](c bool, a, b T) T {
	if c {
		return a
	}
	return b
}

func pyNumber(f float64, asJSON bool) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return pick(asJSON, "Infinity", "inf")
	case math.IsInf(f, -1):
		return pick(asJSON, "-Infinity", "-inf")
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case math.Abs(f) >= 1e16 || math.Abs(f) < 1e-4:
		// Python's repr switches to an exponent, of two digits at least,
		// where Go's does too.
		return strconv.FormatFloat(f, 'e', -1, 64)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// pyString is Python's repr of a str: single quotes unless the text holds
// one and no double quote, printable characters as they are.
func pyString(s string) string {
	q := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == '\\' || r == rune(q):
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case unicode.IsPrint(r) || r == ' ':
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(q)
	return b.String()
}

// jsonString is json.dumps of a str with ensure_ascii.
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || (r >= 0x7f && r < 0x10000):
			fmt.Fprintf(&b, `\u%04x`, r)
		case r >= 0x10000:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
