package gemini

import (
	"maps"
	"slices"
	"strconv"

	"google.golang.org/genai"
)

// appendSchema appends a typed schema as the SDK sends it; nil gives null.
func appendSchema(dst []byte, s *genai.Schema) ([]byte, bool) {
	if s == nil {
		return append(dst, "null"...), true
	}
	dst = append(dst, '{')
	first := true
	var ok bool
	if len(s.AnyOf) > 0 {
		dst = appendKey(dst, &first, "anyOf")
		dst = append(dst, '[')
		for i, a := range s.AnyOf {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = appendSchema(dst, a); !ok {
				return dst, false
			}
		}
		dst = append(dst, ']')
	}
	if dst, ok = appendAnyField(dst, &first, "default", s.Default); !ok {
		return dst, false
	}
	dst = appendStringField(dst, &first, "description", s.Description)
	if len(s.Enum) > 0 {
		dst = appendKey(dst, &first, "enum")
		dst = appendStrings(dst, s.Enum)
	}
	if dst, ok = appendAnyField(dst, &first, "example", s.Example); !ok {
		return dst, false
	}
	dst = appendStringField(dst, &first, "format", s.Format)
	if s.Items != nil {
		dst = appendKey(dst, &first, "items")
		if dst, ok = appendSchema(dst, s.Items); !ok {
			return dst, false
		}
	}
	dst = appendInt64Field(dst, &first, "maxItems", s.MaxItems)
	dst = appendInt64Field(dst, &first, "maxLength", s.MaxLength)
	dst = appendInt64Field(dst, &first, "maxProperties", s.MaxProperties)
	if dst, ok = appendFloat64Field(dst, &first, "maximum", s.Maximum); !ok {
		return dst, false
	}
	dst = appendInt64Field(dst, &first, "minItems", s.MinItems)
	dst = appendInt64Field(dst, &first, "minLength", s.MinLength)
	dst = appendInt64Field(dst, &first, "minProperties", s.MinProperties)
	if dst, ok = appendFloat64Field(dst, &first, "minimum", s.Minimum); !ok {
		return dst, false
	}
	if s.Nullable != nil {
		dst = appendKey(dst, &first, "nullable")
		dst = strconv.AppendBool(dst, *s.Nullable)
	}
	dst = appendStringField(dst, &first, "pattern", s.Pattern)
	if len(s.Properties) > 0 {
		dst = appendKey(dst, &first, "properties")
		dst = append(dst, '{')
		f := true
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			dst = appendKey(dst, &f, k)
			if dst, ok = appendSchema(dst, s.Properties[k]); !ok {
				return dst, false
			}
		}
		dst = append(dst, '}')
	}
	if len(s.PropertyOrdering) > 0 {
		dst = appendKey(dst, &first, "propertyOrdering")
		dst = appendStrings(dst, s.PropertyOrdering)
	}
	if len(s.Required) > 0 {
		dst = appendKey(dst, &first, "required")
		dst = appendStrings(dst, s.Required)
	}
	dst = appendStringField(dst, &first, "title", s.Title)
	dst = appendStringField(dst, &first, "type", string(s.Type))
	return append(dst, '}'), true
}

func appendAnyField(dst []byte, first *bool, key string, v any) ([]byte, bool) {
	if v == nil {
		return dst, true
	}
	dst = appendKey(dst, first, key)
	return appendAny(dst, v)
}

func appendInt64Field(dst []byte, first *bool, key string, v *int64) []byte {
	if v == nil {
		return dst
	}
	dst = appendKey(dst, first, key)
	dst, _ = appendNumber(dst, float64(*v))
	return dst
}

func appendFloat64Field(dst []byte, first *bool, key string, v *float64) ([]byte, bool) {
	if v == nil {
		return dst, true
	}
	dst = appendKey(dst, first, key)
	return appendNumber(dst, *v)
}
