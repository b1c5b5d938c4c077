package graph

import (
	"fmt"
	"math"
	"slices"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime"
)

// checkAnswer validates and coerces the user's answer to a question with
// the JSON schema the question carried, as ADK's _validate_resume_response:
// an object schema with properties keeps its properties only, required
// ones present and typed, the others null when absent; another typed
// schema checks the answer's type; no schema or an untyped one takes the
// answer as it is.
func checkAnswer(id string, schema, answer *structpb.Value) (*structpb.Value, error) {
	s := schema.GetStructValue().GetFields()
	kind := s["type"].GetStringValue()
	if kind == "" {
		return answer, nil
	}
	fail := func(format string, args ...any) error {
		return &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: "WORKFLOW_DATA_ERROR",
			Message: fmt.Sprintf("Validation failed for interrupt %s: ", id) + fmt.Sprintf(format, args...)}
	}
	props := s["properties"].GetStructValue().GetFields()
	if kind == "object" && s["properties"] != nil {
		obj := answer.GetStructValue()
		if obj == nil {
			return nil, fail("Validation failed for object schema: the answer is not an object")
		}
		var required []string
		for _, r := range s["required"].GetListValue().GetValues() {
			required = append(required, r.GetStringValue())
		}
		out := &structpb.Struct{Fields: map[string]*structpb.Value{}}
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			v, ok := obj.GetFields()[name]
			if !ok || v.GetKind() == nil {
				if slices.Contains(required, name) {
					return nil, fail("Validation failed for object schema: %s: Field required", name)
				}
				out.Fields[name] = structpb.NewNullValue()
				continue
			}
			t := props[name].GetStructValue().GetFields()["type"].GetStringValue()
			if _, isNull := v.GetKind().(*structpb.Value_NullValue); isNull && !slices.Contains(required, name) {
				out.Fields[name] = v
				continue
			}
			if !typed(t, v) {
				return nil, fail("Validation failed for object schema: %s: Input should be a valid %s", name, typeWord(t))
			}
			out.Fields[name] = v
		}
		return structpb.NewStructValue(out), nil
	}
	switch kind {
	case "integer", "number", "string", "boolean", "array", "object":
		if !typed(kind, answer) {
			return nil, fail("Failed to coerce data to %s: Input should be a valid %s", kind, typeWord(kind))
		}
	}
	return answer, nil
}

// typed reports whether v has the JSON Schema type t ("" and unknown
// types accept anything).
func typed(t string, v *structpb.Value) bool {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StringValue:
		return t == "string" || !known(t)
	case *structpb.Value_BoolValue:
		return t == "boolean" || !known(t)
	case *structpb.Value_NumberValue:
		switch t {
		case "integer":
			return k.NumberValue == math.Trunc(k.NumberValue)
		case "number":
			return true
		}
		return !known(t)
	case *structpb.Value_ListValue:
		return t == "array" || !known(t)
	case *structpb.Value_StructValue:
		return t == "object" || !known(t)
	}
	return !known(t)
}

func known(t string) bool {
	return slices.Contains([]string{"integer", "number", "string", "boolean", "array", "object"}, t)
}

// typeWord is pydantic's name of a JSON Schema type in its messages.
func typeWord(t string) string {
	switch t {
	case "integer":
		return "integer"
	case "number":
		return "number"
	case "boolean":
		return "boolean"
	case "array":
		return "list"
	case "object":
		return "dictionary"
	}
	return "string"
}
