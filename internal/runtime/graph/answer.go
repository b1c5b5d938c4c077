package graph

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// answerTitles are the names pydantic gives, in its errors, to the types
// ADK validates a typed answer with.
var answerTitles = map[string]string{
	"integer": "int", "number": "float", "string": "str", "boolean": "bool",
	"array": "list[any]", "object": "dict[any,any]",
}

// checkAnswer validates and coerces the user's answer to a question with
// the JSON schema the question carried, as ADK's _validate_resume_response
// does with pydantic in lax mode: an object schema with properties keeps
// its properties only, required ones present, optional ones null when
// absent, each coerced to its type ("7" → 7, "yes" → true); another typed
// schema coerces the answer to its type; no schema, or an untyped one,
// takes the answer as it is. A failure carries pydantic's text of every
// error, as ADK's WorkflowDataError does.
func checkAnswer(id string, schema, answer *structpb.Value) (*structpb.Value, error) {
	s := schema.GetStructValue().GetFields()
	kind := s["type"].GetStringValue()
	fail := func(prefix, title string, errs []pyfmt.ValidationError) error {
		return &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_WORKFLOW_DATA_ERROR.String(),
			Message: fmt.Sprintf("Validation failed for interrupt %s: %s: %s", id, prefix, pyfmt.ValidationErrors(title, errs))}
	}
	if kind == "object" && s["properties"] != nil {
		out, errs := coerceObject(s, answer)
		if len(errs) > 0 {
			return nil, fail("Validation failed for object schema", "DynamicModel", errs)
		}
		return out, nil
	}
	title, ok := answerTitles[kind]
	if !ok {
		return answer, nil
	}
	out, e := coerce(kind, answer)
	if e != nil {
		return nil, fail("Failed to coerce data to "+kind, title, []pyfmt.ValidationError{*e})
	}
	return out, nil
}

// coerceObject validates answer as ADK's dynamic model of an object
// schema: a property of a known type is that type (or None when not
// required), any other is Any. Properties are checked in name order, the
// only order a protobuf struct keeps.
func coerceObject(s map[string]*structpb.Value, answer *structpb.Value) (*structpb.Value, []pyfmt.ValidationError) {
	obj := answer.GetStructValue()
	if obj == nil {
		return nil, []pyfmt.ValidationError{{Msg: "Input should be a valid dictionary or instance of DynamicModel",
			Type: "model_type", Input: answer}}
	}
	var required []string
	for _, r := range s["required"].GetListValue().GetValues() {
		required = append(required, r.GetStringValue())
	}
	props := s["properties"].GetStructValue().GetFields()
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	var errs []pyfmt.ValidationError
	out := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for _, name := range names {
		isRequired := slices.Contains(required, name)
		v, present := obj.GetFields()[name]
		if !present {
			if isRequired {
				errs = append(errs, pyfmt.ValidationError{Loc: []string{name}, Msg: "Field required", Type: "missing", Input: answer})
			}
			out.Fields[name] = structpb.NewNullValue()
			continue
		}
		t := props[name].GetStructValue().GetFields()["type"].GetStringValue()
		if _, typed := answerTitles[t]; !typed || (isNull(v) && !isRequired) {
			out.Fields[name] = v
			continue
		}
		c, e := coerce(t, v)
		if e != nil {
			e.Loc = []string{name}
			errs = append(errs, *e)
			continue
		}
		out.Fields[name] = c
	}
	return structpb.NewStructValue(out), errs
}

func isNull(v *structpb.Value) bool {
	_, null := v.GetKind().(*structpb.Value_NullValue)
	return null || v.GetKind() == nil
}

// wholeDecimal is a string pydantic's lax int accepts besides an integer:
// a decimal whose fraction is zeros ("1.0").
var wholeDecimal = regexp.MustCompile(`^[+-]?[0-9]+\.0*$`)

// coerce converts v to the JSON Schema type t as pydantic's lax mode does
// for the Python type ADK maps t to, or returns pydantic's error.
func coerce(t string, v *structpb.Value) (*structpb.Value, *pyfmt.ValidationError) {
	bad := func(msg, typ string) (*structpb.Value, *pyfmt.ValidationError) {
		return nil, &pyfmt.ValidationError{Msg: msg, Type: typ, Input: v}
	}
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		str := pyfmt.TrimSpace(k.StringValue)
		switch t {
		case "string":
			return v, nil
		case "integer":
			if n, err := strconv.ParseInt(strings.ReplaceAll(str, "_", ""), 10, 64); err == nil {
				return structpb.NewNumberValue(float64(n)), nil
			}
			if wholeDecimal.MatchString(str) {
				if f, err := strconv.ParseFloat(str, 64); err == nil {
					return structpb.NewNumberValue(f), nil
				}
			}
			return bad("Input should be a valid integer, unable to parse string as an integer", "int_parsing")
		case "number":
			if f, err := strconv.ParseFloat(str, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return structpb.NewNumberValue(f), nil
			}
			return bad("Input should be a valid number, unable to parse string as a number", "float_parsing")
		case "boolean":
			switch strings.ToLower(k.StringValue) {
			case "1", "on", "t", "true", "y", "yes":
				return structpb.NewBoolValue(true), nil
			case "0", "off", "f", "false", "n", "no":
				return structpb.NewBoolValue(false), nil
			}
			return bad("Input should be a valid boolean, unable to interpret input", "bool_parsing")
		}
	case *structpb.Value_NumberValue:
		n := k.NumberValue
		switch t {
		case "number":
			return v, nil
		case "integer":
			if n != math.Trunc(n) {
				return bad("Input should be a valid integer, got a number with a fractional part", "int_from_float")
			}
			return v, nil
		case "boolean":
			if n == 0 || n == 1 {
				return structpb.NewBoolValue(n == 1), nil
			}
			return bad("Input should be a valid boolean, unable to interpret input", "bool_parsing")
		}
	case *structpb.Value_BoolValue:
		switch t {
		case "boolean":
			return v, nil
		case "integer", "number":
			if k.BoolValue {
				return structpb.NewNumberValue(1), nil
			}
			return structpb.NewNumberValue(0), nil
		}
	case *structpb.Value_ListValue:
		if t == "array" {
			return v, nil
		}
	case *structpb.Value_StructValue:
		if t == "object" {
			return v, nil
		}
	}
	switch t {
	case "string":
		return bad("Input should be a valid string", "string_type")
	case "integer":
		return bad("Input should be a valid integer", "int_type")
	case "number":
		return bad("Input should be a valid number", "float_type")
	case "boolean":
		return bad("Input should be a valid boolean", "bool_type")
	case "array":
		return bad("Input should be a valid list", "list_type")
	}
	return bad("Input should be a valid dictionary", "dict_type")
}
