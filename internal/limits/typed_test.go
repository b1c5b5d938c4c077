package limits

import (
	"errors"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// planted returns one message of m's type per field path that leads to a
// JSON-like value, with a value too deep for maxDepth 3 planted there.
func planted(t *testing.T, m proto.Message) []proto.Message {
	t.Helper()
	var out []proto.Message
	var walk func(md protoreflect.MessageDescriptor, path []protoreflect.FieldDescriptor, seen map[protoreflect.FullName]bool)
	walk = func(md protoreflect.MessageDescriptor, path []protoreflect.FieldDescriptor, seen map[protoreflect.FullName]bool) {
		if seen[md.FullName()] {
			return
		}
		seen[md.FullName()] = true
		defer delete(seen, md.FullName())
		fields := md.Fields()
		for i := range fields.Len() {
			fd := fields.Get(i)
			target := fd.Message()
			if fd.IsMap() {
				target = fd.MapValue().Message()
			}
			if target == nil {
				continue
			}
			p := append(append([]protoreflect.FieldDescriptor(nil), path...), fd)
			switch target.FullName() {
			case structName, listName, valueName:
				out = append(out, plant(m, p))
			default:
				walk(target, p, seen)
			}
		}
	}
	walk(m.ProtoReflect().Descriptor(), nil, map[protoreflect.FullName]bool{})
	return out
}

// plant builds a message of m's type with a value too deep at the end of
// path; lists get one element and maps the key "k".
func plant(m proto.Message, path []protoreflect.FieldDescriptor) proto.Message {
	root := m.ProtoReflect().New()
	cur := root
	deep := nested(5)
	for i, fd := range path {
		last := i == len(path)-1
		var leaf protoreflect.Message
		switch {
		case fd.IsList():
			leaf = cur.Mutable(fd).List().AppendMutable().Message()
		case fd.IsMap():
			leaf = cur.Mutable(fd).Map().Mutable(protoreflect.ValueOfString("k").MapKey()).Message()
		default:
			leaf = cur.Mutable(fd).Message()
		}
		if last {
			switch v := leaf.Interface().(type) {
			case *structpb.Struct:
				proto.Merge(v, deep.GetStructValue())
			case *structpb.ListValue:
				v.Values = []*structpb.Value{deep}
			case *structpb.Value:
				proto.Merge(v, deep)
			}
		}
		cur = leaf
	}
	return root.Interface()
}

// TestTypedWalksMatchReflection checks that the typed walks find a value
// too deep in every field where the reflective walk finds it, with the
// same path: a field added to these types without a typed walk fails here.
func TestTypedWalksMatchReflection(t *testing.T) {
	t.Parallel()
	for _, m := range []proto.Message{&v1.Event{}, &v1.EventActions{}, &v1.LlmResponse{}, &v1.Content{}, &v1.Part{}} {
		cases := planted(t, m)
		if len(cases) == 0 {
			t.Fatalf("%T: no field holds a JSON-like value", m)
		}
		for _, c := range cases {
			want := reflectDepth("x", c, 3)
			got := CheckDepth("x", c, 3)
			var wantErr, gotErr *DepthError
			if !errors.As(want, &wantErr) {
				t.Fatalf("%T: the reflective walk missed a planted value: %v", m, c)
			}
			if !errors.As(got, &gotErr) || gotErr.Field != wantErr.Field {
				t.Errorf("%T: typed walk = %v, reflective walk = %v", m, got, want)
			}
		}
		t.Logf("%T: %d fields", m, len(cases))
	}
}
