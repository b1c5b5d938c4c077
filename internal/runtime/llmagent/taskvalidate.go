package llmagent

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// maxValidationDepth bounds how deep a task output is validated.
const maxValidationDepth = 32

// fieldError is one of pydantic's validation errors.
type fieldError struct {
	loc     []string
	msg     string
	typ     string
	input   *structpb.Value
	inputKs []string // the order of a dict input's keys
}

// validationErrors checks value against a JSON schema as pydantic checks
// an output model, and returns pydantic's error text, empty when valid:
// "<N> validation error(s) for <title>" then per error its location, its
// message with type, input value and input type, and the docs address.
func validationErrors(schema *structpb.Struct, order *tools.KeyOrder, value *structpb.Value) string {
	var errs []fieldError
	validateValue(schema, schema, order, value, nil, &errs, 0)
	if len(errs) == 0 {
		return ""
	}
	title := schema.GetFields()["title"].GetStringValue()
	if title == "" {
		title = "Model"
	}
	out := make([]pyfmt.ValidationError, len(errs))
	for i, e := range errs {
		out[i] = pyfmt.ValidationError{Loc: e.loc, Msg: e.msg, Type: e.typ, Input: e.input, InputRepr: inputRepr(e.input, e.inputKs)}
	}
	return pyfmt.ValidationErrors(title, out)
}

// validateValue appends the errors of v against schema at loc.
func validateValue(root, schema *structpb.Struct, order *tools.KeyOrder, v *structpb.Value, loc []string, errs *[]fieldError, depth int) {
	if depth > maxValidationDepth || schema == nil {
		return
	}
	if ref := schema.GetFields()["$ref"].GetStringValue(); strings.HasPrefix(ref, "#/$defs/") {
		schema = root.GetFields()["$defs"].GetStructValue().GetFields()[strings.TrimPrefix(ref, "#/$defs/")].GetStructValue()
		validateValue(root, schema, order, v, loc, errs, depth+1)
		return
	}
	fail := func(msg, typ string) {
		*errs = append(*errs, fieldError{loc: slices.Clone(loc), msg: msg, typ: typ, input: v})
	}
	switch schema.GetFields()["type"].GetStringValue() {
	case "string":
		if _, ok := v.GetKind().(*structpb.Value_StringValue); !ok {
			fail("Input should be a valid string", "string_type")
		}
	case "integer":
		switch k := v.GetKind().(type) {
		case *structpb.Value_NumberValue:
			if k.NumberValue != math.Trunc(k.NumberValue) {
				fail("Input should be a valid integer, got a number with a fractional part", "int_from_float")
			}
		case *structpb.Value_BoolValue:
		case *structpb.Value_StringValue:
			if _, err := strconv.ParseInt(strings.TrimSpace(k.StringValue), 10, 64); err != nil {
				fail("Input should be a valid integer, unable to parse string as an integer", "int_parsing")
			}
		default:
			fail("Input should be a valid integer", "int_type")
		}
	case "number":
		switch k := v.GetKind().(type) {
		case *structpb.Value_NumberValue, *structpb.Value_BoolValue:
		case *structpb.Value_StringValue:
			if _, err := strconv.ParseFloat(strings.TrimSpace(k.StringValue), 64); err != nil {
				fail("Input should be a valid number, unable to parse string as a number", "float_parsing")
			}
		default:
			fail("Input should be a valid number", "float_type")
		}
	case "boolean":
		switch k := v.GetKind().(type) {
		case *structpb.Value_BoolValue:
		case *structpb.Value_NumberValue:
			if k.NumberValue != 0 && k.NumberValue != 1 {
				fail("Input should be a valid boolean, unable to interpret input", "bool_parsing")
			}
		case *structpb.Value_StringValue:
			switch strings.ToLower(k.StringValue) {
			case "0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes":
			default:
				fail("Input should be a valid boolean, unable to interpret input", "bool_parsing")
			}
		default:
			fail("Input should be a valid boolean", "bool_type")
		}
	case "array":
		l, ok := v.GetKind().(*structpb.Value_ListValue)
		if !ok {
			fail("Input should be a valid list", "list_type")
			return
		}
		items := schema.GetFields()["items"].GetStructValue()
		for i, it := range l.ListValue.GetValues() {
			validateValue(root, items, order, it, append(loc, strconv.Itoa(i)), errs, depth+1)
		}
	case "object":
		s, ok := v.GetKind().(*structpb.Value_StructValue)
		if !ok {
			fail("Input should be a valid dictionary", "dict_type")
			return
		}
		validateObject(root, schema, order, s.StructValue, loc, errs, depth)
	}
}

// validateObject checks an object's properties in the schema's order:
// each missing required one, each wrong one, then each extra one when
// additionalProperties is false.
func validateObject(root, schema *structpb.Struct, ko *tools.KeyOrder, obj *structpb.Struct, loc []string, errs *[]fieldError, depth int) {
	props := schema.GetFields()["properties"].GetStructValue().GetFields()
	required := map[string]bool{}
	for _, r := range schema.GetFields()["required"].GetListValue().GetValues() {
		required[r.GetStringValue()] = true
	}
	order := propertyOrder(schema, ko, obj)
	for _, name := range order {
		p, declared := props[name]
		v, present := obj.GetFields()[name]
		switch {
		case declared && !present && required[name]:
			*errs = append(*errs, fieldError{loc: append(slices.Clone(loc), name), msg: "Field required", typ: "missing",
				input: structpb.NewStructValue(obj), inputKs: order})
		case declared && present:
			var nested *tools.KeyOrder
			if ko != nil {
				nested = ko.Nested[name]
			}
			validateValue(root, p.GetStructValue(), nested, v, append(loc, name), errs, depth+1)
		case !declared && present:
			if ap, ok := schema.GetFields()["additionalProperties"].GetKind().(*structpb.Value_BoolValue); ok && !ap.BoolValue {
				*errs = append(*errs, fieldError{loc: append(slices.Clone(loc), name), msg: "Extra inputs are not permitted",
					typ: "extra_forbidden", input: v})
			}
		}
	}
}

// propertyOrder lists the schema's properties in their written order
// when known (sorted otherwise), then the object's other keys sorted.
func propertyOrder(schema *structpb.Struct, ko *tools.KeyOrder, obj *structpb.Struct) []string {
	var order []string
	if ko != nil && len(ko.Keys) > 0 {
		order = slices.Clone(ko.Keys)
	} else {
		for k := range schema.GetFields()["properties"].GetStructValue().GetFields() {
			order = append(order, k)
		}
		slices.Sort(order)
	}
	var extra []string
	for k := range obj.GetFields() {
		if !slices.Contains(order, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	return append(order, extra...)
}

// inputRepr is Python's repr of an input value, a dict's keys in order.
func inputRepr(v *structpb.Value, order []string) string {
	s, ok := v.GetKind().(*structpb.Value_StructValue)
	if !ok || len(order) == 0 {
		return pyfmt.Repr(v)
	}
	var b []byte
	b = append(b, '{')
	first := true
	for _, k := range order {
		fv, present := s.StructValue.GetFields()[k]
		if !present {
			continue
		}
		if !first {
			b = append(b, ", "...)
		}
		first = false
		b = pyfmt.AppendQuote(b, k)
		b = append(b, ": "...)
		b = pyfmt.AppendRepr(b, fv)
	}
	return string(append(b, '}'))
}
