// Package scope holds the rules both session stores share: how a state delta
// splits into the app, user, session and temp scopes, how the scopes merge
// back into one state, how an event is prepared for storage, and how the
// session version advances.
package scope

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Entry is one state key and its value.
type Entry struct {
	Key   string
	Value *structpb.Value
}

// Split is a state (or state delta) split by scope. App and User keys have
// their prefix removed; Session keys have none. Entries are sorted by key so
// that stores write them in a stable order.
type Split struct {
	App     []Entry
	User    []Entry
	Session []Entry
	Temp    []Entry
}

// Empty reports whether nothing would be stored.
func (s Split) Empty() bool {
	return len(s.App) == 0 && len(s.User) == 0 && len(s.Session) == 0
}

// SplitState splits s by key prefix. A nil value is read as JSON null,
// because a null in a delta sets the key to null rather than deleting it.
func SplitState(s *structpb.Struct) Split {
	var out Split
	keys := make([]string, 0, len(s.GetFields()))
	for k := range s.GetFields() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := s.GetFields()[k]
		if v == nil {
			v = structpb.NewNullValue()
		}
		switch {
		case strings.HasPrefix(k, sessions.TempPrefix):
			out.Temp = append(out.Temp, Entry{Key: k, Value: v})
		case strings.HasPrefix(k, sessions.AppPrefix):
			out.App = append(out.App, Entry{Key: strings.TrimPrefix(k, sessions.AppPrefix), Value: v})
		case strings.HasPrefix(k, sessions.UserPrefix):
			out.User = append(out.User, Entry{Key: strings.TrimPrefix(k, sessions.UserPrefix), Value: v})
		default:
			out.Session = append(out.Session, Entry{Key: k, Value: v})
		}
	}
	return out
}

// Merge builds the state a reader sees: app keys with "app:", user keys with
// "user:", then session keys. Values are cloned so the result shares nothing
// with the stores' maps.
func Merge(app, user, session map[string]*structpb.Value) *structpb.Struct {
	fields := make(map[string]*structpb.Value, len(app)+len(user)+len(session))
	for k, v := range app {
		fields[sessions.AppPrefix+k] = cloneValue(v)
	}
	for k, v := range user {
		fields[sessions.UserPrefix+k] = cloneValue(v)
	}
	for k, v := range session {
		fields[k] = cloneValue(v)
	}
	return &structpb.Struct{Fields: fields}
}

// Apply writes entries into m, keeping the values as they are: the stores
// treat stored values as immutable and replace them instead of editing them.
func Apply(m map[string]*structpb.Value, entries []Entry) {
	for _, e := range entries {
		m[e.Key] = e.Value
	}
}

func cloneValue(v *structpb.Value) *structpb.Value {
	if v == nil {
		return structpb.NewNullValue()
	}
	return proto.Clone(v).(*structpb.Value)
}
