package mcp

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGeminiSchema: input schemas become what google-adk 1.39.1's
// sanitizer makes of them (its output, with the keywords spelled as the
// Gemini adapter reads them).
func TestGeminiSchema(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"refs resolved, a circle noted",
			`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"},"n":{"$ref":"#/$defs/N"}},"$defs":{"A":{"type":"object","properties":{"x":{"type":"string"}}},"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}}}`,
			`{"properties": {"a": {"properties": {"x": {"type": "string"}}, "type": "object"}, "n": {"properties": {"next": {"description": "Circular ref to N", "type": "object"}}, "type": "object"}}, "type": "object"}`},
		{"type lists and defaults",
			`{"type":"object","properties":{"u":{"type":["string","null"]},"v":{"type":["integer","array"]},"w":{"type":"null"},"arr":{"type":"array"}, "e": {}}}`,
			`{"properties": {"arr": {"items": {"type": "string"}, "type": "array"}, "e": {"type": "object"}, "u": {"type": ["string", "null"]}, "v": {"items": {"type": "string"}, "type": "array"}, "w": {"type": ["object", "null"]}}, "type": "object"}`},
		{"formats Gemini accepts",
			`{"type":"object","properties":{"d":{"type":"string","format":"date-time"},"e":{"type":"string","format":"email"},"i":{"type":"integer","format":"int64"},"f":{"type":"number","format":"float"}}}`,
			`{"properties": {"d": {"format": "date-time", "type": "string"}, "e": {"type": "string"}, "f": {"type": "number"}, "i": {"format": "int64", "type": "integer"}}, "type": "object"}`},
		{"unknown keywords dropped",
			`{"type":"object","additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"type":"string","minLength":1,"maxLength":3,"examples":["x"],"const":"y"},"b":{"anyOf":[{"type":"string"},{"type":"null"}]},"c":true}}`,
			`{"properties": {"a": {"maxLength": 3, "minLength": 1, "type": "string"}, "b": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "c": {"type": "object"}}, "type": "object"}`},
		{"empty", `{}`, `{"type": "object"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in, want map[string]any
			if err := json.Unmarshal([]byte(tt.in), &in); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, geminiSchema(in)); diff != "" {
				t.Errorf("(-adk +agentsvc):\n%s", diff)
			}
		})
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"minLength": "min_length", "$defs": "defs", "anyOf": "any_of", "XMLHttp": "xml_http", "a b": "a_b"} {
		if got := snakeCase(in); got != want {
			t.Errorf("snakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}
