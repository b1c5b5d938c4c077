package pyfmt

import (
	"math"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"
)

func TestJSONDumps(t *testing.T) {
	t.Parallel()
	obj, _ := structpb.NewValue(map[string]any{"b": []any{1, 2.5, true, nil}, "a": "x\"y\n", "é": "ü"})
	tests := []struct {
		in   *structpb.Value
		want string
	}{
		{obj, `{"a": "x\"y\n", "b": [1, 2.5, true, null], "é": "ü"}`},
		{structpb.NewNumberValue(math.Inf(1)), "Infinity"},
		{structpb.NewStringValue("\x01"), `"\u0001"`},
		{nil, "null"},
	}
	for _, tt := range tests {
		if got := JSONDumps(tt.in); got != tt.want {
			t.Errorf("JSONDumps = %s, want %s", got, tt.want)
		}
	}
}

// The expected strings were produced by CPython's json.dumps(v, indent=2).
func TestJSONDumpsIndent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"empty dict", map[string]any{}, "{}"},
		{"flat", map[string]any{"city": "Paris", "days": 3, "ok": true, "v": nil},
			"{\n  \"city\": \"Paris\",\n  \"days\": 3,\n  \"ok\": true,\n  \"v\": null\n}"},
		{"nested", map[string]any{"a": []any{1.5, map[string]any{}, []any{}}, "b": map[string]any{"c": "d"}},
			"{\n  \"a\": [\n    1.5,\n    {},\n    []\n  ],\n  \"b\": {\n    \"c\": \"d\"\n  }\n}"},
		{"non-ASCII escaped", map[string]any{"q": "café \U0001f600\n"}, "{\n  \"q\": \"caf\\u00e9 \\ud83d\\ude00\\n\"\n}"},
		{"string", "x", `"x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v, err := structpb.NewValue(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got := JSONDumpsIndent(v, 2); got != tc.want {
				t.Errorf("JSONDumpsIndent() =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestJSONDumpsASCII: json.dumps with its defaults escapes every character
// beyond ASCII (the expected string from CPython 3.11).
func TestJSONDumpsASCII(t *testing.T) {
	t.Parallel()
	v, _ := structpb.NewValue(map[string]any{"u": "é\n\x7f😀", "é": []any{1, 1.5, false, nil}})
	if got, want := JSONDumpsASCII(v), `{"u": "\u00e9\n\u007f\ud83d\ude00", "\u00e9": [1, 1.5, false, null]}`; got != want {
		t.Errorf("JSONDumpsASCII = %s, want %s", got, want)
	}
}
