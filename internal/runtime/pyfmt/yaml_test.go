package pyfmt_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// TestAppendYAML compares AppendYAML with what PyYAML 6.0.4 (the one
// google-adk 1.39.1 installs) wrote for the same documents; see
// testdata/yaml/record.py.
func TestAppendYAML(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/yaml/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Value json.RawMessage `json:"value"`
		YAML  string          `json:"yaml"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		var v any
		if err := json.Unmarshal(c.Value, &v); err != nil {
			t.Fatal(err)
		}
		got := string(pyfmt.AppendYAML(nil, yamlValue(v), pyfmt.YAMLWidth))
		if d := cmp.Diff(c.YAML, got); d != "" {
			t.Errorf("case %d %s (-pyyaml +got):\n%s", i, c.Value, d)
		}
	}
}

// yamlValue decodes record.py's JSON: {"dict": [[k, v], ...]} is a Dict,
// {"float": x} a Float.
func yamlValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if items, ok := x["dict"].([]any); ok {
			d := pyfmt.Dict{}
			for _, item := range items {
				kv := item.([]any)
				d = append(d, pyfmt.Item{Key: kv[0].(string), Value: yamlValue(kv[1])})
			}
			return d
		}
		return pyfmt.Float(x["float"].(float64))
	case []any:
		out := make([]any, len(x))
		for i, item := range x {
			out[i] = yamlValue(item)
		}
		return out
	}
	return v
}

// TestAppendYAMLProtobuf checks protobuf values: struct keys sorted,
// integral numbers as ints.
func TestAppendYAMLProtobuf(t *testing.T) {
	t.Parallel()
	v, err := structpb.NewValue(map[string]any{"b": []any{1.0, 2.5, "x"}, "a": map[string]any{}, "c": nil, "d": true})
	if err != nil {
		t.Fatal(err)
	}
	got := string(pyfmt.AppendYAML(nil, v, pyfmt.YAMLWidth))
	want := "a: {}\nb:\n- 1\n- 2.5\n- x\nc: null\nd: true\n"
	if got != want {
		t.Errorf("AppendYAML = %q, want %q", got, want)
	}
}

// FuzzAppendYAML checks that any text, as a value and as a key, makes one
// whole document.
func FuzzAppendYAML(f *testing.F) {
	for _, s := range []string{"", "a: b", "x\n y", "\t\u2028'\"", strings.Repeat("w \n", 80)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(pyfmt.AppendYAML(nil, pyfmt.Dict{{Key: s, Value: []any{s, pyfmt.Dict{{Key: "k", Value: s}}}}}, pyfmt.YAMLWidth))
		if !strings.HasSuffix(out, "\n") {
			t.Errorf("AppendYAML(%q) = %q, want a final line break", s, out)
		}
	})
}

// BenchmarkAppendYAML writes an entry the size of a model request's.
func BenchmarkAppendYAML(b *testing.B) {
	text := strings.Repeat("The user asked about the weather in Paris; it's 21.5 degrees.\n", 20)
	contents := make([]any, 20)
	for i := range contents {
		contents[i] = pyfmt.Dict{{Key: "role", Value: "user"}, {Key: "parts", Value: []any{pyfmt.Dict{{Key: "text", Value: text}}}}}
	}
	entry := []any{pyfmt.Dict{{Key: "timestamp", Value: "2026-06-04T10:00:00.123456"}, {Key: "entry_type", Value: "llm_request"},
		{Key: "data", Value: pyfmt.Dict{{Key: "model", Value: "gemini-2.5-flash"}, {Key: "contents", Value: contents}}}}}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = pyfmt.AppendYAML(buf[:0], entry, pyfmt.YAMLWidth)
	}
	b.SetBytes(int64(len(buf)))
}
