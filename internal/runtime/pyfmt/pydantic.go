package pyfmt

import (
	"math"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"
)

// pydanticDocs is the address pydantic's validation errors point to, with
// the pydantic release ADK 2.13 installs with.
const pydanticDocs = "https://errors.pydantic.dev/2.14/v/"

// ValidationError is one error of a pydantic ValidationError.
type ValidationError struct {
	// Loc is the error's location (field names, list indexes); empty for
	// an error of the value itself.
	Loc []string
	// Msg is pydantic's message ("Field required") and Type its error type
	// ("missing").
	Msg, Type string
	// Input is the value that failed; InputRepr, when set, is its repr
	// (a dict whose key order is known).
	Input     *structpb.Value
	InputRepr string
}

// ValidationErrors returns pydantic's str() of a ValidationError for title
// (the model or type validated): "<N> validation error(s) for <title>",
// then per error its location, its message with type, input value and
// input type, and the docs address.
func ValidationErrors(title string, errs []ValidationError) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(len(errs)))
	if len(errs) == 1 {
		b.WriteString(" validation error for ")
	} else {
		b.WriteString(" validation errors for ")
	}
	b.WriteString(title)
	for _, e := range errs {
		b.WriteString("\n")
		if len(e.Loc) > 0 {
			b.WriteString(strings.Join(e.Loc, "."))
			b.WriteString("\n")
		}
		repr := e.InputRepr
		if repr == "" {
			repr = Repr(e.Input)
		}
		b.WriteString("  " + e.Msg + " [type=" + e.Type + ", input_value=" + truncateRepr(repr) +
			", input_type=" + TypeName(e.Input) + "]\n")
		b.WriteString("    For further information visit " + pydanticDocs + e.Type)
	}
	return b.String()
}

// truncateRepr shortens a long repr as pydantic does: the first 25 and
// last 24 characters around "...".
func truncateRepr(s string) string {
	r := []rune(s)
	if len(r) <= 50 {
		return s
	}
	return string(r[:25]) + "..." + string(r[len(r)-24:])
}

// TypeName is the name of the Python type of the object v stands for
// (see the package comment): str, int, float, bool, dict, list or
// NoneType.
func TypeName(v *structpb.Value) string {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		return "str"
	case *structpb.Value_NumberValue:
		if k.NumberValue == math.Trunc(k.NumberValue) && math.Abs(k.NumberValue) <= maxExactInt {
			return "int"
		}
		return "float"
	case *structpb.Value_BoolValue:
		return "bool"
	case *structpb.Value_StructValue:
		return "dict"
	case *structpb.Value_ListValue:
		return "list"
	}
	return "NoneType"
}
