package gemini

import (
	"encoding/base64"
	"maps"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"
)

// The SDK sends a body that went struct → JSON → map → JSON: every object
// has its keys sorted, every number is a float64 as encoding/json writes
// it, strings are escaped as encoding/json escapes them (HTML characters
// included). The writers below produce the same bytes without the detour;
// each reports false for a value encoding/json refuses (NaN, ±Inf), for
// which the SDK's own path runs instead and fails as it does.

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes it after a
// round trip: an invalid byte becomes U+FFFD, written as is.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			// Written as \ufffd, read back as U+FFFD, written raw.
			dst = utf8.AppendRune(dst, utf8.RuneError)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendJSONFloat appends f as encoding/json writes a float of bits bits;
// false for NaN and ±Inf.
func appendJSONFloat(dst []byte, f float64, bits int) ([]byte, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return dst, false
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst, true
}

// appendNumber appends f as the SDK sends any number: a float64.
func appendNumber(dst []byte, f float64) ([]byte, bool) { return appendJSONFloat(dst, f, 64) }

// appendFloat32 appends f as the SDK sends a float32 field: written as a
// float32, read back as a float64 and written again.
func appendFloat32(dst []byte, f float32) ([]byte, bool) {
	var scratch [32]byte
	s, ok := appendJSONFloat(scratch[:0], float64(f), 32)
	if !ok {
		return dst, false
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return dst, false
	}
	return appendNumber(dst, v)
}

// appendBase64 appends b as encoding/json writes a []byte.
func appendBase64(dst []byte, b []byte) []byte {
	dst = append(dst, '"')
	dst = base64.StdEncoding.AppendEncode(dst, b)
	return append(dst, '"')
}

// appendKey appends a key and its colon, after a comma unless first.
func appendKey(dst []byte, first *bool, key string) []byte {
	if !*first {
		dst = append(dst, ',')
	}
	*first = false
	dst = appendJSONString(dst, key)
	return append(dst, ':')
}

// appendStruct appends s as the SDK sends a struct turned into a map
// (s.AsMap()); nil gives null.
func appendStruct(dst []byte, s *structpb.Struct) ([]byte, bool) {
	if s == nil {
		return append(dst, "null"...), true
	}
	fields := s.GetFields()
	dst = append(dst, '{')
	first := true
	var ok bool
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		dst = appendKey(dst, &first, k)
		if dst, ok = appendValue(dst, fields[k]); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}

// appendValue appends v as the SDK sends v.AsInterface().
func appendValue(dst []byte, v *structpb.Value) ([]byte, bool) {
	switch k := v.GetKind().(type) {
	case *structpb.Value_NumberValue:
		return appendNumber(dst, k.NumberValue)
	case *structpb.Value_StringValue:
		return appendJSONString(dst, k.StringValue), true
	case *structpb.Value_BoolValue:
		return strconv.AppendBool(dst, k.BoolValue), true
	case *structpb.Value_StructValue:
		return appendStruct(dst, k.StructValue)
	case *structpb.Value_ListValue:
		dst = append(dst, '[')
		var ok bool
		for i, e := range k.ListValue.GetValues() {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = appendValue(dst, e); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	}
	return append(dst, "null"...), true
}

// appendAny appends a value decoded from JSON (or built from a Struct):
// maps, slices, strings, float64s, bools and nil. Another type reports
// false.
func appendAny(dst []byte, v any) ([]byte, bool) {
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), true
	case string:
		return appendJSONString(dst, v), true
	case float64:
		return appendNumber(dst, v)
	case bool:
		return strconv.AppendBool(dst, v), true
	case map[string]any:
		dst = append(dst, '{')
		first := true
		var ok bool
		for _, k := range slices.Sorted(maps.Keys(v)) {
			dst = appendKey(dst, &first, k)
			if dst, ok = appendAny(dst, v[k]); !ok {
				return dst, false
			}
		}
		return append(dst, '}'), true
	case []any:
		dst = append(dst, '[')
		var ok bool
		for i, e := range v {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = appendAny(dst, e); !ok {
				return dst, false
			}
		}
		return append(dst, ']'), true
	}
	return dst, false
}

// appendStrings appends a list of strings.
func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, s)
	}
	return append(dst, ']')
}
