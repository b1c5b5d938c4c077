package pyfmt_test

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// FuzzFormatValue prints a fuzzed JSON value (a tool result, a state value)
// in every Python form. Invariants: no panic; json.dumps forms, plain and
// indented, are valid JSON that reads back as the value; the repr of an
// object with its keys in a fuzzed order is as long as the sorted repr.
func FuzzFormatValue(f *testing.F) {
	for _, seed := range []struct{ value, order string }{
		{`{"b": [1, 2.5, true, null], "a": "x\"y\n", "é": "ü"}`, "b,a,é"},
		{`{"result": {"t": 21.5, "sky": ["clear", null]}}`, "result,t,sky"},
		{`{"error": "Tool 'x' did not return a result within 50ms."}`, ""},
		{`[1e-05, 1e16, 1.5e300, -0, 9007199254740993, 0.1]`, ""},
		{`"\u0001\u2028\ud83d\ude00'\"\\"`, ""},
		{`{"a": {"a": {"a": {}}}, "": []}`, "a,a,a,"},
		{`null`, ""},
	} {
		f.Add([]byte(seed.value), seed.order)
	}
	f.Fuzz(func(t *testing.T, data []byte, order string) {
		v := &structpb.Value{}
		if protojson.Unmarshal(data, v) != nil {
			return
		}
		_ = pyfmt.Repr(v)
		_ = pyfmt.Str(v)
		for _, form := range []string{pyfmt.JSONDumps(v), pyfmt.JSONDumpsIndent(v, 2)} {
			back := &structpb.Value{}
			if err := protojson.Unmarshal([]byte(form), back); err != nil || !json.Valid([]byte(form)) {
				t.Fatalf("json.dumps form %q of %s is not JSON: %v", form, data, err)
			}
			if !proto.Equal(back, v) {
				t.Fatalf("json.dumps form %q of %s reads back as %v", form, data, back)
			}
		}
		if s := v.GetStructValue(); s != nil {
			sorted := pyfmt.StructRepr(s)
			if got := pyfmt.AppendStructReprOrdered(nil, s, strings.Split(order, ",")); len(got) != len(sorted) {
				t.Fatalf("ordered repr %q, sorted %q", got, sorted)
			}
		}
	})
}

// FuzzFormatScalar prints a fuzzed string and number. Invariants: no
// panic; a float's repr reads back as the same float.
func FuzzFormatScalar(f *testing.F) {
	for _, seed := range []struct {
		s string
		f float64
	}{
		{"plain", 0.1}, {"it's", 1e16}, {`"both' \n\t`, 1e-5}, {"\x00\x7f\u00a0\u2028\U0001F600", math.Inf(-1)},
		{"\xff\xfe", math.NaN()}, {" \t\x1c name \x85", math.Copysign(0, -1)}, {"_ok9", 9007199254740993},
	} {
		f.Add(seed.s, seed.f)
	}
	f.Fuzz(func(t *testing.T, s string, x float64) {
		_ = pyfmt.Quote(s)
		_ = pyfmt.TrimSpace(s)
		_ = pyfmt.IsBlank(s)
		_ = pyfmt.IsIdentifier(s)
		_ = pyfmt.AppendNumber(nil, x)
		repr := string(pyfmt.AppendFloat(nil, x))
		back, err := strconv.ParseFloat(repr, 64)
		if err != nil || back != x && !(math.IsNaN(x) && math.IsNaN(back)) {
			t.Fatalf("repr(%v) = %q reads back as %v, %v", x, repr, back, err)
		}
	})
}

// FuzzReprJSON: any bytes (a model's error answer) are printed or refused,
// never a panic, and what is printed is printed only for valid JSON.
func FuzzReprJSON(f *testing.F) {
	for _, seed := range []string{`{"error": {"code": 429, "message": "x", "status": "S", "details": [{"@type": "t"}]}}`,
		`[1, 2.5, -0, 1e999, "\u00e9"]`, `{"a": {"b": [{}]}}`, `nul`, `{"a" 1}`, `"x" 1`, ``} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, ok := pyfmt.ReprJSON(data)
		if ok && !json.Valid(data) {
			t.Fatalf("ReprJSON(%q) = %q for invalid JSON", data, out)
		}
		if ok && out == "" {
			t.Fatalf("ReprJSON(%q) printed nothing", data)
		}
	})
}
