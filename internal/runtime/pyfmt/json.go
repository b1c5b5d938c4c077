package pyfmt

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// JSONDumps returns Python's json.dumps(v, ensure_ascii=False): ", " and ": "
// separators, non-ASCII characters kept, integral numbers as integers,
// NaN/Infinity as Python writes them. Object keys are sorted (Python keeps
// insertion order, which a protobuf Struct does not record).
func JSONDumps(v *structpb.Value) string {
	return string(appendJSON(nil, v, false))
}

// JSONDumpsASCII returns Python's json.dumps(v) with its defaults: as
// [JSONDumps], but every character beyond ASCII escaped (ensure_ascii).
func JSONDumpsASCII(v *structpb.Value) string {
	return string(appendJSON(nil, v, true))
}

func appendJSON(dst []byte, v *structpb.Value, ascii bool) []byte {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		return appendJSONQuoted(dst, k.StringValue, ascii)
	case *structpb.Value_NumberValue:
		f := k.NumberValue
		switch {
		case math.IsNaN(f):
			return append(dst, "NaN"...)
		case math.IsInf(f, 1):
			return append(dst, "Infinity"...)
		case math.IsInf(f, -1):
			return append(dst, "-Infinity"...)
		}
		return AppendNumber(dst, f)
	case *structpb.Value_BoolValue:
		return strconv.AppendBool(dst, k.BoolValue)
	case *structpb.Value_StructValue:
		fields := k.StructValue.GetFields()
		dst = append(dst, '{')
		for i, key := range sortedKeys(fields) {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendJSONQuoted(dst, key, ascii)
			dst = append(dst, ": "...)
			dst = appendJSON(dst, fields[key], ascii)
		}
		return append(dst, '}')
	case *structpb.Value_ListValue:
		dst = append(dst, '[')
		for i, e := range k.ListValue.GetValues() {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendJSON(dst, e, ascii)
		}
		return append(dst, ']')
	default:
		return append(dst, "null"...)
	}
}

// appendJSONQuoted quotes s as Python's json module does; with ascii
// (ensure_ascii, its default), characters beyond ASCII become \uXXXX
// escapes, those beyond the Basic Multilingual Plane surrogate pairs.
func appendJSONQuoted(dst []byte, s string, ascii bool) []byte {
	const hex = "0123456789abcdef"
	u := func(dst []byte, r rune) []byte {
		return append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case !ascii:
				dst = append(dst, s[i:i+size]...)
			case r > 0xffff:
				r -= 0x10000
				dst = u(u(dst, 0xd800+(r>>10)), 0xdc00+(r&0x3ff))
			default:
				dst = u(dst, r)
			}
			i += size
			continue
		}
		switch c {
		case '"':
			dst = append(dst, `\"`...)
		case '\\':
			dst = append(dst, `\\`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\r':
			dst = append(dst, `\r`...)
		case '\t':
			dst = append(dst, `\t`...)
		case '\b':
			dst = append(dst, `\b`...)
		case '\f':
			dst = append(dst, `\f`...)
		default:
			// ensure_ascii escapes all but printable ASCII, DEL included.
			if c < 0x20 || (ascii && c == 0x7f) {
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				dst = append(dst, c)
			}
		}
		i++
	}
	return append(dst, '"')
}

// sortedKeys returns the keys of fields, sorted.
func sortedKeys(fields map[string]*structpb.Value) []string {
	keys := make([]string, 0, len(fields))
	for key := range fields {
		keys = append(keys, key)
	}
	slices.Sort(keys)
	return keys
}
