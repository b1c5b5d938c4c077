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
