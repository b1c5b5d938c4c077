package gemini

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genai"
	"google.golang.org/protobuf/types/known/structpb"
)

func schemaStruct(t *testing.T, js string) *structpb.Struct {
	t.Helper()
	s := &structpb.Struct{}
	if err := s.UnmarshalJSON([]byte(js)); err != nil {
		t.Fatalf("schema %s: %v", js, err)
	}
	return s
}

func TestConvertSchema(t *testing.T) {
	t.Parallel()
	i64 := func(v int64) *int64 { return &v }
	f64 := func(v float64) *float64 { return &v }
	yes := true
	tests := []struct {
		name     string
		schema   string
		want     *genai.Schema
		wantJSON bool // falls back to the raw JSON schema
	}{
		{
			name:   "object with typed properties",
			schema: `{"type":"object","title":"Args","description":"d","properties":{"n":{"type":"integer","minimum":0,"maximum":9,"default":3},"s":{"type":"string","format":"date-time","pattern":"^a","minLength":1,"maxLength":5}},"required":["n"],"propertyOrdering":["n","s"],"minProperties":1,"maxProperties":2}`,
			want: &genai.Schema{
				Type: genai.TypeObject, Title: "Args", Description: "d",
				Properties: map[string]*genai.Schema{
					"n": {Type: genai.TypeInteger, Minimum: f64(0), Maximum: f64(9), Default: float64(3)},
					"s": {Type: genai.TypeString, Format: "date-time", Pattern: "^a", MinLength: i64(1), MaxLength: i64(5)},
				},
				Required: []string{"n"}, PropertyOrdering: []string{"n", "s"}, MinProperties: i64(1), MaxProperties: i64(2),
			},
		},
		{
			name:   "uppercase type names and nullable",
			schema: `{"type":"STRING","nullable":true,"enum":["a","b"],"example":"a"}`,
			want:   &genai.Schema{Type: genai.TypeString, Nullable: &yes, Enum: []string{"a", "b"}, Example: "a"},
		},
		{
			name:   "type union with null",
			schema: `{"type":["null","number"]}`,
			want:   &genai.Schema{Type: genai.TypeNumber, Nullable: &yes},
		},
		{
			name:   "null type",
			schema: `{"type":"null"}`,
			want:   &genai.Schema{Type: genai.TypeNULL},
		},
		{
			name:   "array with items and anyOf",
			schema: `{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"boolean"}]},"minItems":1,"maxItems":3}`,
			want: &genai.Schema{
				Type:     genai.TypeArray,
				Items:    &genai.Schema{AnyOf: []*genai.Schema{{Type: genai.TypeString}, {Type: genai.TypeBoolean}}},
				MinItems: i64(1), MaxItems: i64(3),
			},
		},
		{
			name:   "const string",
			schema: `{"const":"x"}`,
			want:   &genai.Schema{Enum: []string{"x"}},
		},
		{
			name:   "annotations ignored",
			schema: `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"boolean"}`,
			want:   &genai.Schema{Type: genai.TypeBoolean},
		},
		{name: "additionalProperties", schema: `{"type":"object","additionalProperties":false}`, wantJSON: true},
		{name: "$ref and $defs", schema: `{"$defs":{"a":{"type":"string"}},"properties":{"x":{"$ref":"#/$defs/a"}}}`, wantJSON: true},
		{name: "oneOf deep inside", schema: `{"type":"object","properties":{"x":{"type":"array","items":{"oneOf":[{"type":"string"}]}}}}`, wantJSON: true},
		{name: "two non-null types", schema: `{"type":["string","integer"]}`, wantJSON: true},
		{name: "unknown type", schema: `{"type":"date"}`, wantJSON: true},
		{name: "numeric enum", schema: `{"type":"integer","enum":[1,2]}`, wantJSON: true},
		{name: "tuple items", schema: `{"type":"array","items":[{"type":"string"}]}`, wantJSON: true},
		{name: "fractional minItems", schema: `{"type":"array","minItems":1.5}`, wantJSON: true},
		{name: "exclusiveMinimum", schema: `{"type":"number","exclusiveMinimum":0}`, wantJSON: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := convertSchema(schemaStruct(t, tt.schema))
			if tt.wantJSON {
				var want map[string]any
				if err := json.Unmarshal([]byte(tt.schema), &want); err != nil {
					t.Fatal(err)
				}
				if got.typed != nil {
					t.Errorf("typed schema %+v, want the JSON fallback", got.typed)
				}
				if diff := cmp.Diff(want, got.raw); diff != "" {
					t.Errorf("raw schema (-want +got):\n%s", diff)
				}
				return
			}
			if got.raw != nil {
				t.Errorf("fell back to JSON %v, want a typed schema", got.raw)
			}
			if diff := cmp.Diff(tt.want, got.typed); diff != "" {
				t.Errorf("schema (-want +got):\n%s", diff)
			}
		})
	}
	if got := convertSchema(nil); got.typed != nil || got.raw != nil {
		t.Errorf("convertSchema(nil) = %+v, want zero", got)
	}
}
