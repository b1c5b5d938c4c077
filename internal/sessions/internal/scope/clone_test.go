package scope

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestCloneEventFields fails when one of the messages CloneEvent copies by
// hand gets a field: teach CloneEvent the field, then add it here.
func TestCloneEventFields(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		msg    proto.Message
		fields []string
	}{
		{&v1.Event{}, []string{"content", "partial", "turn_complete", "finish_reason", "error_code", "error_message",
			"interrupted", "custom_metadata", "usage_metadata", "grounding_metadata", "model_version", "avg_logprobs",
			"citation_metadata", "interaction_id", "input_transcription", "output_transcription", "cache_metadata",
			"invocation_id", "author", "actions", "long_running_tool_ids", "branch", "id", "timestamp", "request_id",
			"node_info", "output", "isolation_scope"}},
		{&v1.Content{}, []string{"role", "parts"}},
		{&v1.Part{}, []string{"text", "thought", "thought_signature", "inline_data", "file_data", "function_call",
			"function_response", "executable_code", "code_execution_result", "part_metadata"}},
		{&v1.FunctionCall{}, []string{"id", "name", "args", "key_order"}},
		{&v1.FunctionResponse{}, []string{"id", "name", "response"}},
		{&v1.EventActions{}, []string{"skip_summarization", "state_delta", "artifact_delta", "transfer_to_agent",
			"escalate", "requested_auth_configs", "requested_tool_confirmations", "compaction", "end_of_agent",
			"agent_state", "rewind_before_invocation_id", "route"}},
	} {
		var got []string
		fds := c.msg.ProtoReflect().Descriptor().Fields()
		for i := range fds.Len() {
			got = append(got, string(fds.Get(i).Name()))
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(c.fields))
		if !slices.Equal(got, want) {
			t.Errorf("%s fields = %v, CloneEvent copies %v", c.msg.ProtoReflect().Descriptor().FullName(), got, want)
		}
	}
}

// TestCloneEvent checks CloneEvent against proto.Clone on an event with
// every field set, down to the JSON values of every kind, and that the copy
// shares no message, list, map or bytes with the original.
func TestCloneEvent(t *testing.T) {
	t.Parallel()
	ev := &v1.Event{}
	fill(ev.ProtoReflect(), 0)
	values, err := structpb.NewStruct(map[string]any{"n": 1.5, "s": "x", "b": true, "z": nil,
		"o": map[string]any{"l": []any{1.0, "two", map[string]any{"k": []any{}}}}})
	if err != nil {
		t.Fatal(err)
	}
	ev.Content.Parts[0].FunctionCall.Args = values
	ev.Content.Parts = append(ev.Content.Parts, nil)
	ev.Actions.StateDelta = proto.Clone(values).(*structpb.Struct)
	ev.Actions.StateDelta.Fields["nil"] = nil
	ev.Actions.StateDelta.Fields["empty"] = &structpb.Value{}
	ev.Output = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{nil, structpb.NewNullValue()}})

	got := CloneEvent(ev)
	if want := proto.Clone(ev); !proto.Equal(got, want) {
		t.Fatalf("CloneEvent differs from proto.Clone:\n got %v\nwant %v", got, want)
	}
	if got.Content.Parts[len(got.Content.Parts)-1] == nil || got.Actions.StateDelta.Fields["nil"] == nil {
		t.Error("nil elements not made empty messages, as proto.Clone makes them")
	}
	disjoint(t, "event", ev.ProtoReflect(), got.ProtoReflect())

	// A single part takes another path.
	single := proto.Clone(ev).(*v1.Event)
	single.Content.Parts = single.Content.Parts[:1]
	got = CloneEvent(single)
	if !proto.Equal(got, single) {
		t.Fatalf("CloneEvent of a single part differs:\n got %v\nwant %v", got, single)
	}
	disjoint(t, "single", single.ProtoReflect(), got.ProtoReflect())

	withUnknown := &v1.Event{Content: &v1.Content{Role: "user"}}
	withUnknown.Content.ProtoReflect().SetUnknown(protoreflect.RawFields{0x08, 0x01})
	if got := CloneEvent(withUnknown); !proto.Equal(got, withUnknown) {
		t.Errorf("unknown fields lost: %v", got)
	}
	if CloneEvent(nil) != nil {
		t.Error("CloneEvent(nil) is not nil")
	}
}

// fill sets every field of m, a oneof's first member only, messages down to
// a few levels.
func fill(m protoreflect.Message, depth int) {
	fds := m.Descriptor().Fields()
	for i := range fds.Len() {
		fd := fds.Get(i)
		if o := fd.ContainingOneof(); o != nil && !o.IsSynthetic() && m.WhichOneof(o) != nil {
			continue
		}
		switch {
		case fd.IsMap():
			mp := m.Mutable(fd).Map()
			key := protoreflect.ValueOfString("k").MapKey()
			if fd.MapValue().Message() != nil {
				if depth < 4 {
					v := mp.NewValue()
					fill(v.Message(), depth+1)
					mp.Set(key, v)
				}
				continue
			}
			mp.Set(key, scalar(fd.MapValue()))
		case fd.IsList():
			l := m.Mutable(fd).List()
			for range 2 {
				if fd.Message() != nil {
					if depth < 4 {
						v := l.NewElement()
						fill(v.Message(), depth+1)
						l.Append(v)
					}
					continue
				}
				l.Append(scalar(fd))
			}
		case fd.Message() != nil:
			if depth < 4 {
				fill(m.Mutable(fd).Message(), depth+1)
			}
		default:
			m.Set(fd, scalar(fd))
		}
	}
}

func scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(true)
	case protoreflect.EnumKind:
		return protoreflect.ValueOfEnum(1)
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		return protoreflect.ValueOfInt32(7)
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return protoreflect.ValueOfInt64(7)
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(7)
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return protoreflect.ValueOfUint64(7)
	case protoreflect.FloatKind:
		return protoreflect.ValueOfFloat32(1.5)
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(1.5)
	case protoreflect.BytesKind:
		return protoreflect.ValueOfBytes([]byte("bytes"))
	default:
		return protoreflect.ValueOfString("s-" + string(fd.Name()))
	}
}

// disjoint fails when a and b, equal messages, share a message, a list, a
// map or the bytes of a field.
func disjoint(t *testing.T, path string, a, b protoreflect.Message) {
	t.Helper()
	if a.Interface() == b.Interface() {
		t.Errorf("%s: the copy shares the message", path)
		return
	}
	a.Range(func(fd protoreflect.FieldDescriptor, av protoreflect.Value) bool {
		bv := b.Get(fd)
		p := path + "." + string(fd.Name())
		switch {
		case fd.IsList():
			al, bl := av.List(), bv.List()
			for i := range al.Len() {
				sameBytes(t, p, fd, al.Get(i), bl.Get(i))
				if fd.Message() != nil {
					disjoint(t, p, al.Get(i).Message(), bl.Get(i).Message())
				}
			}
			if fd.Kind() == protoreflect.StringKind && al.Len() > 0 {
				// The list's array: appending to one must not show in the other.
				al.Set(0, protoreflect.ValueOfString("changed"))
				if bl.Get(0).String() == "changed" {
					t.Errorf("%s: the copy shares the list's array", p)
				}
				al.Set(0, bl.Get(0))
			}
		case fd.IsMap():
			am, bm := av.Map(), bv.Map()
			am.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				if fd.MapValue().Message() != nil {
					disjoint(t, p, v.Message(), bm.Get(k).Message())
				}
				return true
			})
			am.Set(protoreflect.ValueOfString("added").MapKey(), am.NewValue())
			if bm.Has(protoreflect.ValueOfString("added").MapKey()) {
				t.Errorf("%s: the copy shares the map", p)
			}
			am.Clear(protoreflect.ValueOfString("added").MapKey())
		case fd.Message() != nil:
			disjoint(t, p, av.Message(), bv.Message())
		default:
			sameBytes(t, p, fd, av, bv)
		}
		return true
	})
}

func sameBytes(t *testing.T, path string, fd protoreflect.FieldDescriptor, a, b protoreflect.Value) {
	t.Helper()
	if fd.Kind() != protoreflect.BytesKind {
		return
	}
	if ab, bb := a.Bytes(), b.Bytes(); len(ab) > 0 && &ab[0] == &bb[0] {
		t.Errorf("%s: the copy shares the bytes", path)
	}
}
