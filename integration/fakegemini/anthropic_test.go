package fakegemini

import "testing"

func TestPythonJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"b": 1,
  "a": [1,2, {"c":"x, y: z"}]}`, `{"b": 1, "a": [1, 2, {"c": "x, y: z"}]}`},
		{`{"q":"say \"a,b\"","e":"é😀"}`, `{"q": "say \"a,b\"", "e": "\u00e9\ud83d\ude00"}`},
		{`not json`, `not json`},
	} {
		if got := string(pythonJSON([]byte(tc.in))); got != tc.want {
			t.Errorf("pythonJSON(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
