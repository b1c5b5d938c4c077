package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// Rewind undoes the invocations of a session from invocationID on, as ADK's
// Runner.rewind_async does: it appends a user event carrying
// rewind_before_invocation_id and the state delta that restores the
// session-scoped state as it stood before that invocation ("app:" and
// "user:" keys are shared and not rewound). The contents builder then drops
// the rewound events (BEHAVIOR C6).
func (r *Runner) Rewind(ctx context.Context, userID, sessionID, invocationID string) (*v1.Session, error) {
	sess, err := r.Sessions.Get(ctx, sessions.GetRequest{AppName: r.App.Name, UserID: userID, SessionID: sessionID})
	if errors.Is(err, sessions.ErrNotFound) {
		return nil, &Error{Code: CodeNotFound, Reason: ErrSessionNotFound.Reason, Message: "Session not found: " + sessionID, Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("runner: rewind: %w", err)
	}
	at := -1
	for i, ev := range sess.Events {
		if ev.InvocationId == invocationID {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, &Error{Code: CodeNotFound, Reason: v1.ErrorReason_INVOCATION_NOT_FOUND.String(), Message: "Invocation ID not found: " + invocationID}
	}
	ev := &v1.Event{
		Id:           NewEventID(),
		InvocationId: NewInvocationID(),
		Author:       "user",
		Timestamp:    Now(),
		NodeInfo:     r.App.nodeInfo(""),
		Actions: &v1.EventActions{
			RewindBeforeInvocationId: invocationID,
			StateDelta:               rewindDelta(sess, at),
		},
	}
	if err := r.Sessions.AppendEvent(ctx, sess, ev); err != nil {
		return nil, fmt.Errorf("runner: rewind: %w", err)
	}
	return sess, nil
}

// rewindDelta is the delta that takes the session-scoped state back to what
// the events before index at made it.
func rewindDelta(sess *v1.Session, at int) *structpb.Struct {
	shared := func(k string) bool { return strings.HasPrefix(k, "app:") || strings.HasPrefix(k, "user:") }
	before := map[string]*structpb.Value{}
	for _, ev := range sess.Events[:at] {
		for k, v := range ev.GetActions().GetStateDelta().GetFields() {
			if shared(k) {
				continue
			}
			if _, null := v.GetKind().(*structpb.Value_NullValue); null {
				delete(before, k)
				continue
			}
			before[k] = v
		}
	}
	current := sess.GetState().GetFields()
	delta := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for k, v := range before {
		if cur, ok := current[k]; !ok || !proto.Equal(cur, v) {
			delta.Fields[k] = v
		}
	}
	for k := range current {
		if _, ok := before[k]; !ok && !shared(k) {
			delta.Fields[k] = structpb.NewNullValue()
		}
	}
	return delta
}
