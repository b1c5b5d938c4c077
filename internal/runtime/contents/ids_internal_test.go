package contents

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// populate sets every field of m to a non-default value, so that a copy
// that misses a field (say, one added to the proto later) is caught.
func populate(t *testing.T, m protoreflect.Message) {
	t.Helper()
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.IsList() && fd.Kind() == protoreflect.StringKind {
			m.Mutable(fd).List().Append(protoreflect.ValueOfString("adk-" + string(fd.Name())))
			continue
		}
		if fd.IsList() || fd.IsMap() {
			t.Fatalf("populate: repeated field %s not handled", fd.FullName())
		}
		switch fd.Kind() {
		case protoreflect.MessageKind:
			m.Set(fd, protoreflect.ValueOfMessage(m.NewField(fd).Message()))
		case protoreflect.StringKind:
			m.Set(fd, protoreflect.ValueOfString("adk-"+string(fd.Name())))
		case protoreflect.BoolKind:
			m.Set(fd, protoreflect.ValueOfBool(true))
		case protoreflect.BytesKind:
			m.Set(fd, protoreflect.ValueOfBytes([]byte{1}))
		default:
			t.Fatalf("populate: field %s of kind %v not handled", fd.FullName(), fd.Kind())
		}
	}
}

func TestCopyPartCoversEveryField(t *testing.T) {
	t.Parallel()
	src := &v1.Part{}
	populate(t, src.ProtoReflect())
	var dst v1.Part
	copyPart(&dst, src)
	if !proto.Equal(&dst, src) {
		t.Errorf("copyPart() = %v, want %v", &dst, src)
	}
}

func TestClearClientIDsKeepsEveryOtherField(t *testing.T) {
	t.Parallel()
	fc := &v1.FunctionCall{}
	populate(t, fc.ProtoReflect())
	fr := &v1.FunctionResponse{}
	populate(t, fr.ProtoReflect())
	c := &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: fc}, {FunctionResponse: fr}}}
	stored := proto.CloneOf(c)

	l := newContentList(1)
	l.add(c, scanParts(c))
	l.clearClientIDs()
	list := l.contents

	want := proto.CloneOf(c)
	want.Parts[0].FunctionCall.Id = ""
	want.Parts[1].FunctionResponse.Id = ""
	if !proto.Equal(list[0], want) {
		t.Errorf("clearClientIDs() = %v, want %v", list[0], want)
	}
	if !proto.Equal(c, stored) {
		t.Errorf("clearClientIDs() changed the stored content to %v", c)
	}
	// Content has only role and parts; a new field would need copying.
	if n := c.ProtoReflect().Descriptor().Fields().Len(); n != 2 {
		t.Errorf("Content has %d fields, copyContent copies 2", n)
	}
}
