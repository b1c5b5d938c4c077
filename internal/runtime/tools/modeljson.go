package tools

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"

	"google.golang.org/protobuf/types/known/structpb"
)

// KeyOrder is the order in which an object schema's properties were
// written, and that of its nested object schemas (by property; an array's
// under its property too).
type KeyOrder struct {
	Keys   []string
	Nested map[string]*KeyOrder
}

// modelJSON writes arguments as pydantic's model_dump_json(exclude_none)
// writes the model an input schema describes: the schema's properties in
// their order (the given ones, or their non-null defaults), nulls and
// unknown arguments left out, numbers as the property's type has them,
// compact, non-ASCII as is.
func modelJSON(schema *structpb.Struct, order *KeyOrder, args *structpb.Struct) string {
	var b bytes.Buffer
	writeObject(&b, schema, order, args)
	return b.String()
}

func writeObject(b *bytes.Buffer, schema *structpb.Struct, order *KeyOrder, obj *structpb.Struct) {
	props := schema.GetFields()["properties"].GetStructValue().GetFields()
	if len(props) == 0 {
		writeJSON(b, structpb.NewStructValue(obj))
		return
	}
	keys := propertyOrder(props, order)
	b.WriteByte('{')
	first := true
	for _, k := range keys {
		prop := props[k].GetStructValue()
		v, ok := obj.GetFields()[k]
		if !ok {
			v, ok = prop.GetFields()["default"]
		}
		if !ok || isNull(v) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeString(b, k)
		b.WriteByte(':')
		var nested *KeyOrder
		if order != nil {
			nested = order.Nested[k]
		}
		writeValue(b, prop, nested, v)
	}
	b.WriteByte('}')
}

// propertyOrder is the properties' written order, any others after them
// sorted.
func propertyOrder(props map[string]*structpb.Value, order *KeyOrder) []string {
	var keys []string
	if order != nil {
		for _, k := range order.Keys {
			if _, ok := props[k]; ok {
				keys = append(keys, k)
			}
		}
	}
	var rest []string
	for k := range props {
		if !slices.Contains(keys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(keys, rest...)
}

func writeValue(b *bytes.Buffer, schema *structpb.Struct, order *KeyOrder, v *structpb.Value) {
	typ := schema.GetFields()["type"].GetStringValue()
	switch k := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		if typ == "object" {
			writeObject(b, schema, order, k.StructValue)
			return
		}
	case *structpb.Value_ListValue:
		if items := schema.GetFields()["items"].GetStructValue(); items != nil {
			b.WriteByte('[')
			for i, e := range k.ListValue.GetValues() {
				if i > 0 {
					b.WriteByte(',')
				}
				writeValue(b, items, order, e)
			}
			b.WriteByte(']')
			return
		}
	case *structpb.Value_NumberValue:
		f := k.NumberValue
		if math.IsInf(f, 0) || math.IsNaN(f) {
			break
		}
		if typ == "number" {
			s := strconv.FormatFloat(f, 'f', -1, 64)
			if f == math.Trunc(f) && math.Abs(f) < 1e16 {
				s += ".0"
			}
			b.WriteString(s)
			return
		}
	}
	writeJSON(b, v)
}

// writeJSON writes a value compactly, without escaping HTML characters.
func writeJSON(b *bytes.Buffer, v *structpb.Value) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v.AsInterface())
	b.Truncate(b.Len() - 1) // Encode's newline
}

func writeString(b *bytes.Buffer, s string) { writeJSON(b, structpb.NewStringValue(s)) }

func isNull(v *structpb.Value) bool {
	_, ok := v.GetKind().(*structpb.Value_NullValue)
	return ok
}
