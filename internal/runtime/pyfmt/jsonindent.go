package pyfmt

import (
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// JSONDumpsIndent returns Python's json.dumps(v, indent=indent) with its
// defaults otherwise: each item on its own line, "," and ": " separators,
// non-ASCII characters escaped as \uXXXX, empty objects and lists as {}
// and []. Object keys are sorted, as in [JSONDumps].
func JSONDumpsIndent(v *structpb.Value, indent int) string {
	return string(appendJSONIndent(nil, v, strings.Repeat(" ", indent), "\n"))
}

// appendJSONIndent appends v with nl (a line break and the current
// indentation) starting each nested line.
func appendJSONIndent(dst []byte, v *structpb.Value, unit, nl string) []byte {
	inner := nl + unit
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		return appendASCIIString(dst, k.StringValue)
	case *structpb.Value_StructValue:
		fields := k.StructValue.GetFields()
		if len(fields) == 0 {
			return append(dst, "{}"...)
		}
		dst = append(dst, '{')
		for i, key := range sortedKeys(fields) {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, inner...)
			dst = appendASCIIString(dst, key)
			dst = append(dst, ": "...)
			dst = appendJSONIndent(dst, fields[key], unit, inner)
		}
		dst = append(dst, nl...)
		return append(dst, '}')
	case *structpb.Value_ListValue:
		values := k.ListValue.GetValues()
		if len(values) == 0 {
			return append(dst, "[]"...)
		}
		dst = append(dst, '[')
		for i, e := range values {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, inner...)
			dst = appendJSONIndent(dst, e, unit, inner)
		}
		dst = append(dst, nl...)
		return append(dst, ']')
	default:
		return appendJSON(dst, v)
	}
}

// appendASCIIString quotes s as Python's json module does by default
// (ensure_ascii): other characters than ASCII as \uXXXX escapes, those
// beyond the Basic Multilingual Plane as surrogate pairs.
func appendASCIIString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	start := len(dst)
	dst = appendJSONString(dst, s)
	if !hasNonASCII(s) {
		return dst
	}
	quoted := string(dst[start:])
	dst = dst[:start]
	for _, r := range quoted {
		switch {
		case r < utf8.RuneSelf:
			dst = append(dst, byte(r))
		case r > 0xffff:
			r -= 0x10000
			dst = u(dst, 0xd800+(r>>10))
			dst = u(dst, 0xdc00+(r&0x3ff))
		default:
			dst = u(dst, r)
		}
	}
	return dst
}

func hasNonASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}
