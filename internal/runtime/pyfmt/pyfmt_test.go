package pyfmt_test

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

func mustValue(t testing.TB, v any) *structpb.Value {
	t.Helper()
	pv, err := structpb.NewValue(v)
	if err != nil {
		t.Fatalf("structpb.NewValue(%v): %v", v, err)
	}
	return pv
}

// The expected strings were produced by CPython's repr().
func TestQuote(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
	}{
		{"plain", `'plain'`},
		{"", `''`},
		{"it's", `"it's"`},
		{`say "hi"`, `'say "hi"'`},
		{`both ' and "`, `'both \' and "'`},
		{`back\slash`, `'back\\slash'`},
		{"tab\tnl\ncr\r", `'tab\tnl\ncr\r'`},
		{"\x00\x1f\x7f", `'\x00\x1f\x7f'`},
		{"café 日本", `'café 日本'`},
		{"\u0085\u00a0\u00ad", `'\x85\xa0\xad'`},
		{"\u200b\u2028\ufeff", `'\u200b\u2028\ufeff'`},
		{"\U0001f600", "'\U0001f600'"},
		{"\U000e0001", `'\U000e0001'`},
		{"bad\xffbyte", `'bad\udcffbyte'`},
	}
	for _, tc := range tests {
		if got := pyfmt.Quote(tc.in); got != tc.want {
			t.Errorf("Quote(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestAppendFloat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{0.1, "0.1"},
		{1e-05, "1e-05"},
		{1e16, "1e+16"},
		{1e15, "1000000000000000.0"},
		{1.5, "1.5"},
		{0.0001, "0.0001"},
		{123456789.123, "123456789.123"},
		{1.5e300, "1.5e+300"},
		{-2.5e-7, "-2.5e-07"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
		{math.Copysign(0, -1), "-0.0"},
		{0, "0.0"},
		{3, "3.0"},
		{1e22, "1e+22"},
	}
	for _, tc := range tests {
		if got := string(pyfmt.AppendFloat(nil, tc.in)); got != tc.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestAppendNumber(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   float64
		want string
	}{
		{3, "3"},
		{-12, "-12"},
		{0, "0"},
		{1 << 53, "9007199254740992"},
		{1<<53 + 2, "9007199254740994.0"},
		{1e16, "1e+16"},
		{1.5, "1.5"},
		{1e-05, "1e-05"},
		{0.1, "0.1"},
		{math.Inf(1), "inf"},
		{math.NaN(), "nan"},
	}
	for _, tc := range tests {
		if got := string(pyfmt.AppendNumber(nil, tc.in)); got != tc.want {
			t.Errorf("AppendNumber(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestRepr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   *structpb.Value
		want string
	}{
		{"nil", nil, "None"},
		{"no kind", &structpb.Value{}, "None"},
		{"null", structpb.NewNullValue(), "None"},
		{"true", structpb.NewBoolValue(true), "True"},
		{"false", structpb.NewBoolValue(false), "False"},
		{"int", structpb.NewNumberValue(3), "3"},
		{"float", structpb.NewNumberValue(1.5), "1.5"},
		{"string", structpb.NewStringValue("it's"), `"it's"`},
		{"empty dict", structpb.NewStructValue(&structpb.Struct{}), "{}"},
		{"empty list", structpb.NewListValue(&structpb.ListValue{}), "[]"},
		{
			"dict sorted",
			mustValue(t, map[string]any{"query": "x", "ok": true, "v": nil}),
			"{'ok': True, 'query': 'x', 'v': None}",
		},
		{
			"nested",
			mustValue(t, map[string]any{"n": 3, "f": 1.5, "l": []any{1, "a", nil, []any{}}, "d": map[string]any{"k": "v\n"}}),
			"{'d': {'k': 'v\\n'}, 'f': 1.5, 'l': [1, 'a', None, []], 'n': 3}",
		},
		{"list with nil element", structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{nil}}), "[None]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := pyfmt.Repr(tc.in); got != tc.want {
				t.Errorf("Repr() = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestStructRepr(t *testing.T) {
	t.Parallel()
	if got := pyfmt.StructRepr(nil); got != "None" {
		t.Errorf("StructRepr(nil) = %s, want None", got)
	}
	s, err := structpb.NewStruct(map[string]any{"query": "x", "ok": true, "v": nil})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := pyfmt.StructRepr(s), "{'ok': True, 'query': 'x', 'v': None}"; got != want {
		t.Errorf("StructRepr() = %s, want %s", got, want)
	}
}

func TestStr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   *structpb.Value
		want string
	}{
		{"string is raw", structpb.NewStringValue("it's\n"), "it's\n"},
		{"none", structpb.NewNullValue(), "None"},
		{"int", structpb.NewNumberValue(42), "42"},
		{"float", structpb.NewNumberValue(0.5), "0.5"},
		{"bool", structpb.NewBoolValue(true), "True"},
		{"list", mustValue(t, []any{"a", 1}), "['a', 1]"},
		{"dict", mustValue(t, map[string]any{"a": "b"}), "{'a': 'b'}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := pyfmt.Str(tc.in); got != tc.want {
				t.Errorf("Str() = %q, want %q", got, tc.want)
			}
			if got := string(pyfmt.AppendStr([]byte("x"), tc.in)); got != "x"+tc.want {
				t.Errorf("AppendStr() = %q, want %q", got, "x"+tc.want)
			}
		})
	}
}

func TestIsSpaceAndTrim(t *testing.T) {
	t.Parallel()
	for _, r := range []rune{'\t', '\n', '\v', '\f', '\r', 0x1c, 0x1f, ' ', 0x85, 0xa0, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000} {
		if !pyfmt.IsSpace(r) {
			t.Errorf("IsSpace(%U) = false, want true", r)
		}
	}
	for _, r := range []rune{'a', 0x200b, 0x180e, 0xfeff, 0} {
		if pyfmt.IsSpace(r) {
			t.Errorf("IsSpace(%U) = true, want false", r)
		}
	}
	if got := pyfmt.TrimSpace("\x1c  x y\u3000\n"); got != "x y" {
		t.Errorf("TrimSpace() = %q, want %q", got, "x y")
	}
	if !pyfmt.IsBlank(" \t\u00a0") || pyfmt.IsBlank(" x ") || !pyfmt.IsBlank("") {
		t.Error("IsBlank gave a wrong answer")
	}
}

func TestIsIdentifier(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"user_name": true,
		"_1":        true,
		"é":         true,
		"a\u00b7":   true,
		"\u2160":    true,
		"":          false,
		"1a":        false,
		"a-b":       false,
		"a b":       false,
		"a:b":       false,
		"\u00b7":    false,
		"\u037a":    false,
		"a\u309b":   false,
		"\u0e33":    false,
		"a\u0e33":   true,
	}
	for in, want := range tests {
		if got := pyfmt.IsIdentifier(in); got != want {
			t.Errorf("IsIdentifier(%q) = %v, want %v", in, got, want)
		}
	}
}

func BenchmarkAppendStructRepr(b *testing.B) {
	s, err := structpb.NewStruct(map[string]any{"query": "weather in Paris", "ok": true, "v": nil, "n": 3, "l": []any{1, "a"}})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		buf = pyfmt.AppendStructRepr(buf[:0], s)
	}
}

// TestAppendFloatPositional checks the rebuilt positional form against Go's
// own formatting over the exponent range where Python uses it.
func TestAppendFloatPositional(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{1.2345e-4, 0.001, 0.5, 7, 12.5, 1234567.875, 9.999999999999998e15, 123456789012345.6, 0.00012, 100} {
		for _, v := range []float64{f, -f} {
			want := strconv.FormatFloat(v, 'f', -1, 64)
			if !strings.Contains(want, ".") {
				want += ".0"
			}
			if got := string(pyfmt.AppendFloat(nil, v)); got != want {
				t.Errorf("AppendFloat(%v) = %s, want %s", v, got, want)
			}
		}
	}
}

func TestAppendStructReprOrdered(t *testing.T) {
	t.Parallel()
	args := mustValue(t, map[string]any{
		"query": "x", "ok": true, "v": nil,
		"opts": map[string]any{"z": 1, "a": []any{map[string]any{"k2": 2, "k1": 1}, "s"}},
	}).GetStructValue()
	tests := []struct {
		name  string
		order []string
		want  string
	}{
		{"model order", []string{"query", "ok", "opts", "z", "a", "k2", "k1", "v"},
			"{'query': 'x', 'ok': True, 'opts': {'z': 1, 'a': [{'k2': 2, 'k1': 1}, 's']}, 'v': None}"},
		{"no order", nil, "{'ok': True, 'opts': {'a': [{'k1': 1, 'k2': 2}, 's'], 'z': 1}, 'query': 'x', 'v': None}"},
		{"unknown key", []string{"query", "ok", "opts", "z", "a", "k2", "k3", "v"},
			"{'ok': True, 'opts': {'a': [{'k1': 1, 'k2': 2}, 's'], 'z': 1}, 'query': 'x', 'v': None}"},
		{"repeated key", []string{"query", "query", "opts", "z", "a", "k2", "k1", "v"},
			"{'ok': True, 'opts': {'a': [{'k1': 1, 'k2': 2}, 's'], 'z': 1}, 'query': 'x', 'v': None}"},
		{"too few keys", []string{"query", "ok", "opts", "z", "a", "k2", "k1"},
			"{'ok': True, 'opts': {'a': [{'k1': 1, 'k2': 2}, 's'], 'z': 1}, 'query': 'x', 'v': None}"},
		{"too many keys", []string{"query", "ok", "opts", "z", "a", "k2", "k1", "v", "w"},
			"{'ok': True, 'opts': {'a': [{'k1': 1, 'k2': 2}, 's'], 'z': 1}, 'query': 'x', 'v': None}"},
		{"not in document order", []string{"query", "ok", "opts", "a", "z", "k2", "k1", "v"},
			"{'ok': True, 'opts': {'a': [{'k1': 1, 'k2': 2}, 's'], 'z': 1}, 'query': 'x', 'v': None}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			prefix := []byte("args: ")
			got := string(pyfmt.AppendStructReprOrdered(prefix, args, tc.order))
			if got != "args: "+tc.want {
				t.Errorf("AppendStructReprOrdered(%q) =\n%s\nwant\n%s", tc.order, got, "args: "+tc.want)
			}
		})
	}
}
