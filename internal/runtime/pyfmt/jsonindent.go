package pyfmt

import (
	"strings"

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
		return appendJSONQuoted(dst, k.StringValue, true)
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
			dst = appendJSONQuoted(dst, key, true)
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
		return appendJSON(dst, v, true)
	}
}
