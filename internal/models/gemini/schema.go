package gemini

import (
	"math"
	"strings"

	"google.golang.org/genai"
	"google.golang.org/protobuf/types/known/structpb"
)

// jsonSchema is a JSON schema either as a genai.Schema or, when the schema
// uses a keyword genai.Schema cannot express, as its JSON object.
type jsonSchema struct {
	typed *genai.Schema
	raw   map[string]any
}

// convertSchema converts a JSON schema. A nil schema gives the zero value.
func convertSchema(s *structpb.Struct) jsonSchema {
	if s == nil {
		return jsonSchema{}
	}
	if typed, ok := schemaFromFields(s.GetFields()); ok {
		return jsonSchema{typed: typed}
	}
	return jsonSchema{raw: s.AsMap()}
}

// schemaTypes maps JSON schema type names to genai types.
var schemaTypes = map[string]genai.Type{
	"string":  genai.TypeString,
	"number":  genai.TypeNumber,
	"integer": genai.TypeInteger,
	"boolean": genai.TypeBoolean,
	"array":   genai.TypeArray,
	"object":  genai.TypeObject,
	"null":    genai.TypeNULL,
}

// schemaFromFields converts one JSON schema object. It reports false when a
// keyword or a value has no genai.Schema equivalent.
func schemaFromFields(fields map[string]*structpb.Value) (*genai.Schema, bool) {
	out := &genai.Schema{}
	for key, v := range fields {
		var ok bool
		switch key {
		case "type":
			ok = setSchemaType(out, v)
		case "description":
			out.Description, ok = stringValue(v)
		case "title":
			out.Title, ok = stringValue(v)
		case "format":
			out.Format, ok = stringValue(v)
		case "pattern":
			out.Pattern, ok = stringValue(v)
		case "enum":
			out.Enum, ok = stringList(v)
		case "const":
			var c string
			c, ok = stringValue(v)
			out.Enum = []string{c}
		case "required":
			out.Required, ok = stringList(v)
		case "propertyOrdering":
			out.PropertyOrdering, ok = stringList(v)
		case "nullable":
			var bv *structpb.Value_BoolValue
			if bv, ok = v.GetKind().(*structpb.Value_BoolValue); ok {
				b := bv.BoolValue
				out.Nullable = &b
			}
		case "properties":
			ok = setProperties(out, v)
		case "items":
			sv, isStruct := v.GetKind().(*structpb.Value_StructValue)
			if isStruct {
				out.Items, ok = schemaFromFields(sv.StructValue.GetFields())
			}
		case "anyOf":
			out.AnyOf, ok = schemaList(v)
		case "minItems":
			out.MinItems, ok = countValue(v)
		case "maxItems":
			out.MaxItems, ok = countValue(v)
		case "minLength":
			out.MinLength, ok = countValue(v)
		case "maxLength":
			out.MaxLength, ok = countValue(v)
		case "minProperties":
			out.MinProperties, ok = countValue(v)
		case "maxProperties":
			out.MaxProperties, ok = countValue(v)
		case "minimum":
			out.Minimum, ok = numberValue(v)
		case "maximum":
			out.Maximum, ok = numberValue(v)
		case "default":
			out.Default, ok = v.AsInterface(), true
		case "example":
			out.Example, ok = v.AsInterface(), true
		case "$schema", "$id", "$comment":
			// Annotations without meaning for the model.
			ok = true
		}
		if !ok {
			return nil, false
		}
	}
	return out, true
}

// setSchemaType sets Type (and Nullable for a ["T", "null"] union).
func setSchemaType(out *genai.Schema, v *structpb.Value) bool {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		t, ok := schemaTypes[strings.ToLower(k.StringValue)]
		out.Type = t
		return ok
	case *structpb.Value_ListValue:
		var t genai.Type
		nullable := false
		for _, e := range k.ListValue.GetValues() {
			name, ok := stringValue(e)
			if !ok {
				return false
			}
			et, ok := schemaTypes[strings.ToLower(name)]
			switch {
			case !ok:
				return false
			case et == genai.TypeNULL:
				nullable = true
			case t != "":
				return false
			default:
				t = et
			}
		}
		if t == "" {
			t = genai.TypeNULL
		} else if nullable {
			out.Nullable = &nullable
		}
		out.Type = t
		return true
	}
	return false
}

func setProperties(out *genai.Schema, v *structpb.Value) bool {
	sv, ok := v.GetKind().(*structpb.Value_StructValue)
	if !ok {
		return false
	}
	props := sv.StructValue.GetFields()
	out.Properties = make(map[string]*genai.Schema, len(props))
	for name, pv := range props {
		ps, ok := pv.GetKind().(*structpb.Value_StructValue)
		if !ok {
			return false
		}
		child, ok := schemaFromFields(ps.StructValue.GetFields())
		if !ok {
			return false
		}
		out.Properties[name] = child
	}
	return true
}

func schemaList(v *structpb.Value) ([]*genai.Schema, bool) {
	lv, ok := v.GetKind().(*structpb.Value_ListValue)
	if !ok {
		return nil, false
	}
	values := lv.ListValue.GetValues()
	out := make([]*genai.Schema, len(values))
	for i, e := range values {
		sv, ok := e.GetKind().(*structpb.Value_StructValue)
		if !ok {
			return nil, false
		}
		if out[i], ok = schemaFromFields(sv.StructValue.GetFields()); !ok {
			return nil, false
		}
	}
	return out, true
}

func stringValue(v *structpb.Value) (string, bool) {
	s, ok := v.GetKind().(*structpb.Value_StringValue)
	if !ok {
		return "", false
	}
	return s.StringValue, true
}

func stringList(v *structpb.Value) ([]string, bool) {
	lv, ok := v.GetKind().(*structpb.Value_ListValue)
	if !ok {
		return nil, false
	}
	values := lv.ListValue.GetValues()
	out := make([]string, len(values))
	for i, e := range values {
		if out[i], ok = stringValue(e); !ok {
			return nil, false
		}
	}
	return out, true
}

// countValue reads a non-negative integral number.
func countValue(v *structpb.Value) (*int64, bool) {
	n, ok := v.GetKind().(*structpb.Value_NumberValue)
	if !ok || n.NumberValue < 0 || n.NumberValue != math.Trunc(n.NumberValue) || n.NumberValue > math.MaxInt64 {
		return nil, false
	}
	c := int64(n.NumberValue)
	return &c, true
}

func numberValue(v *structpb.Value) (*float64, bool) {
	n, ok := v.GetKind().(*structpb.Value_NumberValue)
	if !ok {
		return nil, false
	}
	f := n.NumberValue
	return &f, true
}
