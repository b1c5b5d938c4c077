package a2a

import "testing"

// TestPyValue: a dict is written as ADK writes it into A2A metadata,
// Python's str() in 1.x and json.dumps() in 2.x (strings recorded from
// Python 3.11).
func TestPyValue(t *testing.T) {
	t.Parallel()
	v := map[string]any{"a2a_metadata": map[string]any{
		"s": "it's", "q": `say "hi"`, "both": `'"`, "u": "é\n", "n": float64(2), "f": 1.5, "big": 1e22, "small": 0.00001,
		"b": true, "z": nil, "l": []any{"x", false},
	}}
	tests := []struct {
		name, got, want string
	}{
		{"str", pyRepr(v), `{'a2a_metadata': {'b': True, 'big': 1e+22, 'both': '\'"', 'f': 1.5, 'l': ['x', False], 'n': 2, ` +
			`'q': 'say "hi"', 's': "it's", 'small': 1e-05, 'u': 'é\n', 'z': None}}`},
		{"json.dumps", pyJSON(v), `{"a2a_metadata": {"b": true, "big": 1e+22, "both": "'\"", "f": 1.5, "l": ["x", false], "n": 2, ` +
			`"q": "say \"hi\"", "s": "it's", "small": 1e-05, "u": "\u00e9\n", "z": null}}`},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, tc.got, tc.want)
		}
	}
}
