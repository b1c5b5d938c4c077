package pyfmt

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"
)

// TestValidationErrors: pydantic 2.14's str() of a ValidationError, as
// ADK 2.13 printed it for these inputs.
func TestValidationErrors(t *testing.T) {
	t.Parallel()
	long := structpb.NewStringValue("a very long string value that goes on and on and on and on")
	obj, _ := structpb.NewValue(map[string]any{"count": 1})
	for _, tc := range []struct {
		title string
		errs  []ValidationError
		want  string
	}{{
		title: "DynamicModel",
		errs:  []ValidationError{{Loc: []string{"approved"}, Msg: "Field required", Type: "missing", Input: obj}},
		want: "1 validation error for DynamicModel\napproved\n  Field required [type=missing, input_value={'count': 1}, input_type=dict]\n" +
			"    For further information visit https://errors.pydantic.dev/2.14/v/missing",
	}, {
		title: "DynamicModel",
		errs: []ValidationError{
			{Loc: []string{"approved"}, Msg: "Input should be a valid boolean, unable to interpret input", Type: "bool_parsing", Input: long},
			{Loc: []string{"count"}, Msg: "Input should be a valid integer, got a number with a fractional part", Type: "int_from_float",
				Input: structpb.NewNumberValue(1.5)},
		},
		want: "2 validation errors for DynamicModel\napproved\n  Input should be a valid boolean, unable to interpret input " +
			"[type=bool_parsing, input_value='a very long string value...on and on and on and on', input_type=str]\n" +
			"    For further information visit https://errors.pydantic.dev/2.14/v/bool_parsing\ncount\n" +
			"  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=1.5, input_type=float]\n" +
			"    For further information visit https://errors.pydantic.dev/2.14/v/int_from_float",
	}, {
		title: "int",
		errs:  []ValidationError{{Msg: "Input should be a valid integer", Type: "int_type", Input: structpb.NewNullValue()}},
		want: "1 validation error for int\n  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n" +
			"    For further information visit https://errors.pydantic.dev/2.14/v/int_type",
	}} {
		if got := ValidationErrors(tc.title, tc.errs); got != tc.want {
			t.Errorf("ValidationErrors(%s):\n got %q\nwant %q", tc.title, got, tc.want)
		}
	}
	if got := TypeName(structpb.NewBoolValue(true)); !strings.EqualFold(got, "bool") {
		t.Errorf("TypeName(true) = %q", got)
	}
}
