package runtime

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// State reads the session state through a pending state delta and records
// writes in that delta, which is stored with the event that carries it.
type State struct {
	ictx    *InvocationContext
	actions *v1.EventActions
}

// Get returns the value of key: the pending delta's value if it has one, the
// session's otherwise.
func (s State) Get(key string) (*structpb.Value, bool) {
	if v, ok := s.actions.GetStateDelta().GetFields()[key]; ok {
		return v, true
	}
	return s.ictx.StateValue(key)
}

// Set records key = v in the pending delta. A nil v sets the key to null.
func (s State) Set(key string, v *structpb.Value) {
	if v == nil {
		v = structpb.NewNullValue()
	}
	if s.actions.StateDelta == nil {
		s.actions.StateDelta = &structpb.Struct{Fields: map[string]*structpb.Value{}}
	} else if s.actions.StateDelta.Fields == nil {
		s.actions.StateDelta.Fields = map[string]*structpb.Value{}
	}
	s.actions.StateDelta.Fields[key] = v
}

// HasDelta reports whether any key was set.
func (s State) HasDelta() bool { return len(s.actions.GetStateDelta().GetFields()) > 0 }
