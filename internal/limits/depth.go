// Package limits bounds outside input before anything is stored: the nesting
// depth of JSON-like values and of messages, checked the same way at every
// entry point (gRPC, REST, model responses, client results).
package limits

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/structpb"
)

// DefaultMaxDepth is the default nesting cap of a JSON-like value: an object
// or a list inside another counts one level more.
const DefaultMaxDepth = 64

// messageSlack is how many more levels than the JSON cap the message types
// themselves may nest (an Event holds its actions, which hold a state
// delta): only recursive types such as a Schema come near it.
const messageSlack = 16

// DepthError reports a value nested deeper than allowed.
type DepthError struct {
	// Field is the path of the value, e.g. "state_delta.a.b" or
	// "new_message.parts[0].function_call.args".
	Field string
	// Max is the cap that was exceeded.
	Max int
}

func (e *DepthError) Error() string {
	return fmt.Sprintf("%s is nested more than %d levels deep", e.Field, e.Max)
}

// CheckDepth returns a [*DepthError] naming the first value of m nested more
// than maxDepth levels: a google.protobuf.Struct or ListValue counts one
// level, and any other message type nests at most maxDepth+16 levels. The
// path starts with prefix (which may be empty). A nil m passes. maxDepth of
// zero or less means [DefaultMaxDepth].
func CheckDepth(prefix string, m proto.Message, maxDepth int) error {
	if m == nil {
		return nil
	}
	if maxDepth <= 0 {
		maxDepth = DefaultMaxDepth
	}
	w := walker{max: maxDepth}
	deep, handled := w.typed(m, 0)
	if !handled {
		deep = w.message(m.ProtoReflect(), 0, 0)
	}
	if !deep {
		return nil
	}
	return &DepthError{Field: w.path(prefix), Max: maxDepth}
}

// CheckValueDepth is [CheckDepth] for one JSON-like value.
func CheckValueDepth(field string, v *structpb.Value, maxDepth int) error {
	if v == nil {
		return nil
	}
	return CheckDepth(field, v, maxDepth)
}

// walker finds the first value nested too deep and records its path, from
// the innermost step out.
type walker struct {
	max   int
	steps []string // innermost first, only once a value is too deep
	// reflectOnly turns the typed walks off, for tests that compare them
	// with the reflective walk.
	reflectOnly bool
}

var (
	structName = (&structpb.Struct{}).ProtoReflect().Descriptor().FullName()
	listName   = (&structpb.ListValue{}).ProtoReflect().Descriptor().FullName()
	valueName  = (&structpb.Value{}).ProtoReflect().Descriptor().FullName()
)

// message reports whether m holds a value nested too deep; json counts the
// Struct and ListValue levels above m, msgs every other message level.
func (w *walker) message(m protoreflect.Message, json, msgs int) bool {
	switch m.Descriptor().FullName() {
	case structName:
		return w.structValue(m.Interface().(*structpb.Struct), json+1)
	case listName:
		return w.listValue(m.Interface().(*structpb.ListValue), json+1)
	case valueName:
		return w.value(m.Interface().(*structpb.Value), json)
	}
	if deep, handled := w.typed(m.Interface(), json); handled {
		return deep
	}
	msgs++
	if msgs > w.max+messageSlack {
		return true
	}
	deep := false
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if deep = w.field(fd, v, json, msgs); deep {
			w.steps = append(w.steps, string(fd.Name()))
		}
		return !deep
	})
	return deep
}

func (w *walker) field(fd protoreflect.FieldDescriptor, v protoreflect.Value, json, msgs int) bool {
	if fd.Message() == nil {
		return false
	}
	switch {
	case fd.IsList():
		l := v.List()
		for i := range l.Len() {
			if w.message(l.Get(i).Message(), json, msgs) {
				w.steps = append(w.steps, "["+strconv.Itoa(i)+"]")
				return true
			}
		}
	case fd.IsMap():
		if fd.MapValue().Message() == nil {
			return false
		}
		deep := false
		v.Map().Range(func(k protoreflect.MapKey, mv protoreflect.Value) bool {
			if deep = w.message(mv.Message(), json, msgs); deep {
				w.steps = append(w.steps, "."+k.String())
			}
			return !deep
		})
		return deep
	default:
		return w.message(v.Message(), json, msgs)
	}
	return false
}

func (w *walker) structValue(s *structpb.Struct, depth int) bool {
	if depth > w.max {
		return true
	}
	for k, v := range s.GetFields() {
		if w.value(v, depth) {
			w.steps = append(w.steps, "."+k)
			return true
		}
	}
	return false
}

func (w *walker) listValue(l *structpb.ListValue, depth int) bool {
	if depth > w.max {
		return true
	}
	for i, v := range l.GetValues() {
		if w.value(v, depth) {
			w.steps = append(w.steps, "["+strconv.Itoa(i)+"]")
			return true
		}
	}
	return false
}

// value descends into a Value's object or list; depth is the level of the
// container holding v.
func (w *walker) value(v *structpb.Value, depth int) bool {
	switch k := v.GetKind().(type) {
	case *structpb.Value_StructValue:
		return w.structValue(k.StructValue, depth+1)
	case *structpb.Value_ListValue:
		return w.listValue(k.ListValue, depth+1)
	}
	return false
}

// path joins the recorded steps, outermost first, after prefix. Field names
// are joined with dots; keys and indexes carry their own punctuation.
func (w *walker) path(prefix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for i := len(w.steps) - 1; i >= 0; i-- {
		s := w.steps[i]
		if s[0] != '.' && s[0] != '[' && b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	// A path cut short keeps error messages small when keys are long.
	const maxPath = 200
	p := b.String()
	if len(p) > maxPath {
		n := maxPath
		for n > 0 && !utf8.RuneStart(p[n]) {
			n--
		}
		p = p[:n] + "…"
	}
	return p
}
