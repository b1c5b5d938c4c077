package pyfmt

import (
	"slices"

	"google.golang.org/protobuf/types/known/structpb"
)

// AppendStructReprOrdered appends [StructRepr] of s to dst with the keys
// in the given order rather than sorted: order lists the keys of s and of
// every object nested in it in document order, each key followed by the
// keys inside its value, as a JSON reader meets them. When order does not
// list exactly those keys, the keys are sorted.
func AppendStructReprOrdered(dst []byte, s *structpb.Struct, order []string) []byte {
	if len(order) == 0 || s == nil {
		return AppendStructRepr(dst, s)
	}
	p := orderedPrinter{order: order, ok: true}
	out := p.appendStruct(dst, s)
	if p.ok && p.next == len(order) {
		return out
	}
	return AppendStructRepr(out[:len(dst)], s)
}

// orderedPrinter prints values taking object keys from order; ok turns
// false at the first key that does not fit, and the output is then to be
// dropped.
type orderedPrinter struct {
	order []string
	next  int
	ok    bool
}

func (p *orderedPrinter) appendStruct(dst []byte, s *structpb.Struct) []byte {
	fields := s.GetFields()
	if len(fields) == 0 {
		return append(dst, "{}"...)
	}
	var buf [16]string
	seen := buf[:0]
	dst = append(dst, '{')
	for i := range len(fields) {
		if p.next >= len(p.order) {
			p.ok = false
			return dst
		}
		k := p.order[p.next]
		p.next++
		v, found := fields[k]
		if !found || slices.Contains(seen, k) {
			p.ok = false
			return dst
		}
		seen = append(seen, k)
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = AppendQuote(dst, k)
		dst = append(dst, ": "...)
		if dst = p.appendValue(dst, v); !p.ok {
			return dst
		}
	}
	return append(dst, '}')
}

func (p *orderedPrinter) appendValue(dst []byte, v *structpb.Value) []byte {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		return p.appendStruct(dst, k.StructValue)
	case *structpb.Value_ListValue:
		dst = append(dst, '[')
		for i, e := range k.ListValue.GetValues() {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst = p.appendValue(dst, e); !p.ok {
				return dst
			}
		}
		return append(dst, ']')
	default:
		return AppendRepr(dst, v)
	}
}
