package openai

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// toolParams converts the function declarations of the first tool, the
// only one ADK's LiteLlm reads: built-in tools of Gemini (search, code
// execution, ...) are not sent.
func toolParams(tools []*v1.Tool) []object {
	if len(tools) == 0 || len(tools[0].GetFunctionDeclarations()) == 0 {
		return nil
	}
	out := make([]object, 0, len(tools[0].GetFunctionDeclarations()))
	for _, d := range tools[0].GetFunctionDeclarations() {
		if d == nil {
			continue
		}
		out = append(out, object{"type": "function", "function": object{
			"name": d.GetName(), "description": d.GetDescription(), "parameters": parameters(d),
		}})
	}
	return out
}

// parameters is a declaration's parameters as ADK writes them: an object
// of its properties (types in lower case) and required list, else its
// JSON schema as written, else an object without properties.
func parameters(d *v1.FunctionDeclaration) object {
	params := d.GetParameters().AsMap()
	if props, ok := params["properties"].(map[string]any); ok && len(props) > 0 {
		conv := make(object, len(props))
		for k, v := range props {
			conv[k] = schemaDict(v)
		}
		out := object{"type": "object", "properties": conv}
		if req, ok := params["required"].([]any); ok && len(req) > 0 {
			out["required"] = req
		}
		return out
	}
	if js := d.GetParametersJsonSchema(); js != nil {
		if m, ok := js.AsInterface().(map[string]any); ok {
			return m
		}
	}
	return object{"type": "object", "properties": object{}}
}

// schemaDict normalises a property schema as ADK's _schema_to_dict: type
// names in lower case and no null enum values, in items and properties
// too.
func schemaDict(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(object, len(m))
	for k, x := range m {
		out[k] = x
	}
	if t, ok := out["type"].(string); ok {
		out["type"] = strings.ToLower(t)
	}
	if e, ok := out["enum"].([]any); ok {
		out["enum"] = slices.DeleteFunc(slices.Clone(e), func(x any) bool { return x == nil })
	}
	if items, ok := out["items"].(map[string]any); ok {
		out["items"] = schemaDict(items)
	}
	if props, ok := out["properties"].(map[string]any); ok {
		conv := make(object, len(props))
		for k, p := range props {
			conv[k] = schemaDict(p)
		}
		out["properties"] = conv
	}
	return out
}

// responseFormat is the response format of an output schema: the schema
// made strict (every object closed, every property required), named by
// its title or "response", unless it is already a json_object or
// json_schema format.
func responseFormat(s *structpb.Struct) object {
	schema := s.AsMap()
	if t, ok := schema["type"].(string); ok && (strings.EqualFold(t, "json_object") || strings.EqualFold(t, "json_schema")) {
		return schema
	}
	name := "response"
	if t, ok := schema["title"]; ok {
		name = pyStr(t)
	}
	strict(schema)
	return object{"type": "json_schema", "json_schema": object{"name": name, "strict": true, "schema": schema}}
}

func pyStr(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	val, err := structpb.NewValue(v)
	if err != nil {
		return ""
	}
	return val.GetStringValue()
}

// strict makes a JSON schema strict as OpenAI's structured outputs
// require, in place: a $ref alone, every object with properties closed
// and all of them required, in $defs, properties, combinators and items.
func strict(schema map[string]any) {
	if _, ok := schema["$ref"]; ok {
		for k := range schema {
			if k != "$ref" {
				delete(schema, k)
			}
		}
		return
	}
	if props, ok := schema["properties"].(map[string]any); ok && schema["type"] == "object" {
		schema["additionalProperties"] = false
		keys := make([]any, 0, len(props))
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			keys = append(keys, k)
		}
		schema["required"] = keys
	}
	for _, key := range []string{"$defs", "properties"} {
		if m, ok := schema[key].(map[string]any); ok {
			for _, v := range m {
				if sub, ok := v.(map[string]any); ok {
					strict(sub)
				}
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := schema[key].([]any); ok {
			for _, v := range list {
				if sub, ok := v.(map[string]any); ok {
					strict(sub)
				}
			}
		}
	}
	if items, ok := schema["items"].(map[string]any); ok {
		strict(items)
	}
}
