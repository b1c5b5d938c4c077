package scope

import (
	"strings"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// NewID returns a random (version 4) uuid, the form ADK uses for session and
// event ids.
func NewID() string {
	return uuid.NewString()
}

// Pending is an event on its way into a store. Preparing it changes nothing
// the caller owns; [Pending.Commit] does that once the store has accepted it.
type Pending struct {
	// ID is the event id: the caller's, or a new uuid4 when it had none.
	ID string
	// Timestamp is the event time: the caller's, or now when it was zero.
	Timestamp float64
	// Delta is the state delta of Stored split by scope, "temp:" keys
	// included; its values belong to Stored, never to the caller's event.
	Delta Split
	// Stored is a deep copy of the event in its stored form: id and
	// timestamp set, "temp:" keys removed from the delta.
	Stored *v1.Event
}

// Prepare builds the stored form of ev without modifying ev.
func Prepare(ev *v1.Event, now time.Time) Pending {
	p := Pending{ID: ev.GetId(), Timestamp: ev.GetTimestamp()}
	if p.ID == "" {
		p.ID = NewID()
	}
	if p.Timestamp == 0 {
		p.Timestamp = Seconds(now.UnixMicro())
	}
	p.Stored = CloneEvent(ev)
	p.Stored.Id = p.ID
	p.Stored.Timestamp = p.Timestamp
	// Split the copy, not ev: stores keep these values.
	p.Delta = SplitState(p.Stored.GetActions().GetStateDelta())
	if len(p.Delta.Temp) > 0 {
		dropTemp(p.Stored.GetActions().GetStateDelta())
	}
	return p
}

// Commit applies an accepted append to the caller's handle and event, the way
// ADK does: ev gets its id and timestamp and loses its "temp:" delta keys;
// sess gets every delta key (temp ones included), ev at the end of its events
// and the new version as LastUpdateTime.
//
// The handle takes the values of ev's own delta, so it never shares a value
// with a store.
func (p Pending) Commit(sess *v1.Session, ev *v1.Event, version int64) {
	ev.Id = p.ID
	ev.Timestamp = p.Timestamp
	if delta := ev.GetActions().GetStateDelta(); len(delta.GetFields()) > 0 {
		if sess.State == nil {
			sess.State = &structpb.Struct{}
		}
		if sess.State.Fields == nil {
			sess.State.Fields = make(map[string]*structpb.Value, len(delta.Fields))
		}
		for k, v := range delta.Fields {
			if v == nil {
				v = structpb.NewNullValue()
			}
			sess.State.Fields[k] = v
		}
		dropTemp(delta)
	}
	sess.Events = append(sess.Events, ev)
	sess.LastUpdateTime = Seconds(version)
}

func dropTemp(delta *structpb.Struct) {
	for k := range delta.GetFields() {
		if strings.HasPrefix(k, sessions.TempPrefix) {
			delete(delta.Fields, k)
		}
	}
}
