package mcp

import (
	"regexp"
	"strings"
)

// geminiSchema turns an MCP tool's input schema into the parameters ADK
// declares for it: $refs resolved from $defs, only the keywords Gemini
// knows kept (a format only where Gemini accepts it), type lists reduced
// to one type (and null), arrays given string items when they have none.
func geminiSchema(schema map[string]any) map[string]any {
	if schema == nil {
		return nil
	}
	defs, _ := schema["$defs"].(map[string]any)
	resolved, _ := resolveRefs(schema, defs, nil).(map[string]any)
	delete(resolved, "$defs")
	out, _ := sanitize(resolved, false).(map[string]any)
	return out
}

// resolveRefs replaces each {"$ref": ".../Name"} by the definition Name
// (with the ref's own other keywords), a ref to itself on the way by an
// object noting the circle.
func resolveRefs(v any, defs map[string]any, path []string) any {
	switch x := v.(type) {
	case map[string]any:
		ref, isRef := x["$ref"].(string)
		if !isRef {
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = resolveRefs(e, defs, path)
			}
			return out
		}
		key := ref[strings.LastIndexByte(ref, '/')+1:]
		for _, p := range path {
			if p == ref {
				return map[string]any{"type": "object", "description": "Circular ref to " + key}
			}
		}
		def, ok := defs[key].(map[string]any)
		if !ok {
			return x
		}
		merged := make(map[string]any, len(def)+len(x))
		for k, e := range def {
			merged[k] = e
		}
		for k, e := range x {
			if k != "$ref" {
				merged[k] = e
			}
		}
		return resolveRefs(merged, defs, append(path[:len(path):len(path)], ref))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = resolveRefs(e, defs, path)
		}
		return out
	}
	return v
}

// keywords are the schema keywords kept, by their snake_case spelling,
// with the spelling sent.
var keywords = map[string]string{
	"any_of": "anyOf", "default": "default", "defs": "defs", "description": "description", "enum": "enum",
	"format": "format", "items": "items", "max_items": "maxItems", "max_length": "maxLength",
	"max_properties": "maxProperties", "maximum": "maximum", "min_items": "minItems", "min_length": "minLength",
	"min_properties": "minProperties", "minimum": "minimum", "one_of": "oneOf", "pattern": "pattern",
	"properties": "properties", "property_ordering": "propertyOrdering", "ref": "ref", "required": "required",
	"title": "title", "type": "type", "unique_items": "uniqueItems",
}

// sanitize keeps the keywords Gemini knows, recursively. A boolean schema
// becomes an object.
func sanitize(v any, keepNull bool) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = sanitize(e, keepNull)
		}
		return out
	case bool:
		return map[string]any{"type": "object"}
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			name := snakeCase(k)
			switch name {
			case "items":
				out["items"] = sanitize(e, false)
			case "any_of":
				if l, ok := e.([]any); ok {
					items := make([]any, len(l))
					for i, s := range l {
						items[i] = sanitize(s, true)
					}
					out["anyOf"] = items
				}
			case "properties", "defs":
				if m, ok := e.(map[string]any); ok {
					props := make(map[string]any, len(m))
					for pk, pv := range m {
						props[pk] = sanitize(pv, false)
					}
					out[keywords[name]] = props
				}
			case "format":
				if f, _ := e.(string); f != "" && formatKept(x["type"], f) {
					out["format"] = f
				}
			case "additional_properties":
			default:
				if spelled, ok := keywords[name]; ok && e != nil {
					out[spelled] = e
				}
			}
		}
		return sanitizeType(out, keepNull)
	}
	return v
}

// formatKept reports the formats Gemini accepts for a type.
func formatKept(typ any, format string) bool {
	switch typ {
	case "integer", "number":
		return format == "int32" || format == "int64"
	case "string":
		return format == "date-time" || format == "enum"
	}
	return false
}

// sanitizeType gives the schema one type (a list keeps "null" beside it),
// an empty schema the object type, and arrays string items by default.
func sanitizeType(s map[string]any, keepNull bool) map[string]any {
	if len(s) == 0 {
		s["type"] = "object"
	}
	switch t := s["type"].(type) {
	case []any:
		var nonNull []any
		for _, e := range t {
			if e != "null" {
				nonNull = append(nonNull, e)
			}
		}
		var one any = "object"
		switch {
		case containsValue(nonNull, "array"):
			one = "array"
		case len(nonNull) > 0:
			one = nonNull[0]
		}
		if len(nonNull) != len(t) {
			s["type"] = []any{one, "null"}
		} else {
			s["type"] = one
		}
	case string:
		if t == "null" && !keepNull {
			s["type"] = []any{"object", "null"}
		}
	}
	isArray := s["type"] == "array"
	if l, ok := s["type"].([]any); ok {
		isArray = containsValue(l, "array")
	}
	if _, ok := s["items"]; isArray && !ok {
		s["items"] = map[string]any{"type": "string"}
	}
	return s
}

func containsValue(l []any, v any) bool {
	for _, e := range l {
		if e == v {
			return true
		}
	}
	return false
}

var (
	nonAlnum    = regexp.MustCompile(`[^a-zA-Z0-9]+`)
	lowerUpper  = regexp.MustCompile(`([a-z0-9])([A-Z])`)
	acronym     = regexp.MustCompile(`([A-Z]+)([A-Z][a-z])`)
	underscores = regexp.MustCompile(`_+`)
)

// snakeCase spells a keyword in snake_case as ADK does before matching it.
func snakeCase(s string) string {
	s = nonAlnum.ReplaceAllString(s, "_")
	s = lowerUpper.ReplaceAllString(s, "${1}_${2}")
	s = acronym.ReplaceAllString(s, "${1}_${2}")
	s = strings.ToLower(s)
	s = underscores.ReplaceAllString(s, "_")
	return strings.Trim(s, "_")
}
