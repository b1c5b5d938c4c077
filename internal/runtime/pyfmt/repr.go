package pyfmt

import (
	"slices"

	"google.golang.org/protobuf/types/known/structpb"
)

// Repr returns Python's repr() of the object v stands for, e.g.
// {'query': 'x', 'ok': True, 'v': None}. A nil v, or one with no kind set,
// prints as None.
func Repr(v *structpb.Value) string {
	return string(AppendRepr(nil, v))
}

// AppendRepr appends [Repr] of v to dst and returns the extended buffer.
func AppendRepr(dst []byte, v *structpb.Value) []byte {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		return AppendQuote(dst, k.StringValue)
	case *structpb.Value_NumberValue:
		return AppendNumber(dst, k.NumberValue)
	case *structpb.Value_BoolValue:
		if k.BoolValue {
			return append(dst, "True"...)
		}
		return append(dst, "False"...)
	case *structpb.Value_StructValue:
		return AppendStructRepr(dst, k.StructValue)
	case *structpb.Value_ListValue:
		return appendList(dst, k.ListValue)
	default:
		return append(dst, "None"...)
	}
}

// StructRepr returns Python's repr() of the dict s stands for, keys sorted.
// A nil s prints as None, as an absent dict does in Python.
func StructRepr(s *structpb.Struct) string {
	return string(AppendStructRepr(nil, s))
}

// AppendStructRepr appends [StructRepr] of s to dst and returns the extended
// buffer.
func AppendStructRepr(dst []byte, s *structpb.Struct) []byte {
	if s == nil {
		return append(dst, "None"...)
	}
	fields := s.GetFields()
	if len(fields) == 0 {
		return append(dst, "{}"...)
	}
	// A small array keeps the key list off the heap for typical tool args.
	var buf [16]string
	keys := buf[:0]
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = AppendQuote(dst, k)
		dst = append(dst, ": "...)
		dst = AppendRepr(dst, fields[k])
	}
	return append(dst, '}')
}

func appendList(dst []byte, l *structpb.ListValue) []byte {
	dst = append(dst, '[')
	for i, v := range l.GetValues() {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = AppendRepr(dst, v)
	}
	return append(dst, ']')
}

// Str returns Python's str() of the object v stands for: a string is its raw
// text, anything else prints as [Repr] does. None prints as "None"; callers
// that want ADK's instruction behaviour (None → "") must check for null
// themselves.
func Str(v *structpb.Value) string {
	if s, ok := v.GetKind().(*structpb.Value_StringValue); ok {
		return s.StringValue
	}
	return string(AppendRepr(nil, v))
}

// AppendStr appends [Str] of v to dst and returns the extended buffer.
func AppendStr(dst []byte, v *structpb.Value) []byte {
	if s, ok := v.GetKind().(*structpb.Value_StringValue); ok {
		return append(dst, s.StringValue...)
	}
	return AppendRepr(dst, v)
}
