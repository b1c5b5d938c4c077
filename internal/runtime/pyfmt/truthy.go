package pyfmt

import "google.golang.org/protobuf/types/known/structpb"

// Truthy is Python's truth value of the object v stands for: false for
// None, False, zero, and an empty string, dict or list.
func Truthy(v *structpb.Value) bool {
	switch k := v.GetKind().(type) {
	case *structpb.Value_BoolValue:
		return k.BoolValue
	case *structpb.Value_NumberValue:
		return k.NumberValue != 0
	case *structpb.Value_StringValue:
		return k.StringValue != ""
	case *structpb.Value_StructValue:
		return len(k.StructValue.GetFields()) > 0
	case *structpb.Value_ListValue:
		return len(k.ListValue.GetValues()) > 0
	}
	return false
}
