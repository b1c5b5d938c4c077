package llmagent

import (
	"encoding/json"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// TestBehaviorTaskOutputValidationText compares the finish_task
// validation errors with pydantic 2.14's text for the same model (strings,
// integers, numbers, booleans, lists, dicts, missing and extra fields,
// list items), as google-adk 2.13 reports them.
func TestBehaviorTaskOutputValidationText(t *testing.T) {
	var schema structpb.Struct
	if err := schema.UnmarshalJSON([]byte(`{"additionalProperties": false, "properties": {"s": {"title": "S", "type": "string"}, "i": {"title": "I", "type": "integer"}, "f": {"title": "F", "type": "number"}, "b": {"title": "B", "type": "boolean"}, "l": {"items": {"type": "string"}, "title": "L", "type": "array"}, "d": {"additionalProperties": true, "title": "D", "type": "object"}}, "required": ["s", "i", "f", "b", "l", "d"], "title": "M", "type": "object"}`)); err != nil {
		t.Fatal(err)
	}
	order := &tools.KeyOrder{Keys: []string{"s", "i", "f", "b", "l", "d"}}
	tests := []struct{ args, want string }{
		{"{\"s\": 1, \"i\": 1.5, \"f\": \"abc\", \"b\": \"maybe\", \"l\": \"x\", \"d\": \"y\"}", "6 validation errors for M\ns\n  Input should be a valid string [type=string_type, input_value=1, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.14/v/string_type\ni\n  Input should be a valid integer, got a number with a fractional part [type=int_from_float, input_value=1.5, input_type=float]\n    For further information visit https://errors.pydantic.dev/2.14/v/int_from_float\nf\n  Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='abc', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.14/v/float_parsing\nb\n  Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value='maybe', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.14/v/bool_parsing\nl\n  Input should be a valid list [type=list_type, input_value='x', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.14/v/list_type\nd\n  Input should be a valid dictionary [type=dict_type, input_value='y', input_type=str]\n    For further information visit https://errors.pydantic.dev/2.14/v/dict_type"},
		{"{\"s\": \"x\", \"i\": true, \"f\": true, \"b\": 2, \"l\": [\"a\", 3], \"d\": {}, \"zz\": 1}", "3 validation errors for M\nb\n  Input should be a valid boolean, unable to interpret input [type=bool_parsing, input_value=2, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.14/v/bool_parsing\nl.1\n  Input should be a valid string [type=string_type, input_value=3, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.14/v/string_type\nzz\n  Extra inputs are not permitted [type=extra_forbidden, input_value=1, input_type=int]\n    For further information visit https://errors.pydantic.dev/2.14/v/extra_forbidden"},
		{"{\"s\": null, \"i\": \"7\", \"f\": \"1e3\", \"b\": 1, \"l\": [], \"d\": []}", "2 validation errors for M\ns\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.14/v/string_type\nd\n  Input should be a valid dictionary [type=dict_type, input_value=[], input_type=list]\n    For further information visit https://errors.pydantic.dev/2.14/v/dict_type"},
		{"{\"s\": \"x\", \"i\": 2.0, \"f\": 1, \"b\": \"yes\", \"l\": [null], \"d\": {}}", "1 validation error for M\nl.0\n  Input should be a valid string [type=string_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.14/v/string_type"},
		{"{\"i\": null, \"f\": null, \"b\": null, \"l\": null, \"d\": null}", "6 validation errors for M\ns\n  Field required [type=missing, input_value={'i': None, 'f': None, 'b...e, 'l': None, 'd': None}, input_type=dict]\n    For further information visit https://errors.pydantic.dev/2.14/v/missing\ni\n  Input should be a valid integer [type=int_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.14/v/int_type\nf\n  Input should be a valid number [type=float_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.14/v/float_type\nb\n  Input should be a valid boolean [type=bool_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.14/v/bool_type\nl\n  Input should be a valid list [type=list_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.14/v/list_type\nd\n  Input should be a valid dictionary [type=dict_type, input_value=None, input_type=NoneType]\n    For further information visit https://errors.pydantic.dev/2.14/v/dict_type"},
	}
	for _, tt := range tests {
		var raw any
		if err := json.Unmarshal([]byte(tt.args), &raw); err != nil {
			t.Fatal(err)
		}
		v, err := structpb.NewValue(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := validationErrors(&schema, order, v); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}
