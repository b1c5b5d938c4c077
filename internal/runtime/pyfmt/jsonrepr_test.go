package pyfmt_test

import (
	"testing"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// TestReprJSON: a JSON body as Python prints json.loads of it (checked with
// CPython 3.11).
func TestReprJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		ok       bool
	}{
		{`{"error": {"code": 429, "message": "Quota exceeded.", "status": "RESOURCE_EXHAUSTED"}}`,
			`{'error': {'code': 429, 'message': 'Quota exceeded.', 'status': 'RESOURCE_EXHAUSTED'}}`, true},
		{`{"z": [1, 2.5, 1e3, true, false, null, "it's"], "a": {}}`,
			`{'z': [1, 2.5, 1000.0, True, False, None, "it's"], 'a': {}}`, true},
		{`[]`, `[]`, true},
		{`"x"`, `'x'`, true},
		{`{"a": 1} {"b": 2}`, ``, false},
		{`{"a": `, ``, false},
	}
	for _, tt := range tests {
		got, ok := pyfmt.ReprJSON([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("ReprJSON(%s) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
