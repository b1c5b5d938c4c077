package runtime

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// closeCallsTimeout bounds the store writes that close the pending calls of
// an invocation that ended early: they run on a context that survives the
// invocation's cancellation.
const closeCallsTimeout = 5 * time.Second

// Texts of the error responses that close a dangling call, by how its
// invocation ended. The model reads them in the next turn.
const (
	closedCancelled = "The tool call was not completed: the invocation was cancelled."
	closedDeadline  = "The tool call was not completed: the invocation ran out of time."
	closedFailed    = "The tool call was not completed: the invocation failed."
	closedEnded     = "The tool call was not completed: the invocation ended before it returned."
)

// danglingCall is a stored function call that has no response: the event
// that made it and the call.
type danglingCall struct {
	event *v1.Event
	call  *v1.FunctionCall
}

// danglingCalls returns the function calls of events that no later event
// answers, in call order; only invocationID's when it is not empty.
// Long-running calls are not dangling: the user answers them later, by
// design, and that includes the confirmation and credential requests
// (which are long-running calls). A call is answered by any function
// response with its id.
func danglingCalls(events []*v1.Event, invocationID string) []danglingCall {
	// Walk forward keeping the open calls: a response usually follows its
	// call closely, so the list stays short and a linear search beats a
	// map (this runs on every invocation, over the whole session).
	var open []danglingCall
	for _, ev := range events {
		if invocationID != "" && ev.InvocationId != invocationID {
			continue
		}
		for _, p := range ev.GetContent().GetParts() {
			switch {
			case p.FunctionCall != nil:
				if p.FunctionCall.Id != "" && !isLongRunningID(ev, p.FunctionCall.Id) {
					open = append(open, danglingCall{event: ev, call: p.FunctionCall})
				}
			case p.FunctionResponse != nil && len(open) > 0:
				open = answer(open, p.FunctionResponse.Id)
			}
		}
	}
	return open
}

// answer removes the calls with id from open, keeping the order.
func answer(open []danglingCall, id string) []danglingCall {
	// The latest call is the likeliest: search from the end.
	for i := len(open) - 1; i >= 0; i-- {
		if open[i].call.Id == id {
			open = append(open[:i], open[i+1:]...)
		}
	}
	return open
}

func isLongRunningID(ev *v1.Event, id string) bool {
	for _, lr := range ev.LongRunningToolIds {
		if lr == id {
			return true
		}
	}
	return false
}

// closingText is the error text for the calls of an invocation that ended
// with cause.
func closingText(cause error) string {
	switch {
	case errors.Is(cause, context.Canceled):
		return closedCancelled
	case errors.Is(cause, context.DeadlineExceeded):
		return closedDeadline
	case cause != nil:
		return closedFailed
	default:
		return closedEnded
	}
}

// closingEvents returns, for each event with dangling calls, one event that
// answers them with ADK's error response shape, {"error": text}: authored
// by the agent that made the calls, on its branch and in its invocation,
// each response with its call's id and name, in call order.
func closingEvents(calls []danglingCall, text string) []*v1.Event {
	var out []*v1.Event
	var last *v1.Event
	for _, dc := range calls {
		if dc.event != last {
			last = dc.event
			out = append(out, &v1.Event{
				Id:           NewEventID(),
				InvocationId: dc.event.InvocationId,
				Author:       dc.event.Author,
				Branch:       dc.event.Branch,
				Timestamp:    Now(),
				Content:      &v1.Content{Role: "user"},
				Actions:      &v1.EventActions{},
			})
		}
		resp := &structpb.Struct{Fields: map[string]*structpb.Value{"error": structpb.NewStringValue(text)}}
		ev := out[len(out)-1]
		ev.Content.Parts = append(ev.Content.Parts, &v1.Part{
			FunctionResponse: &v1.FunctionResponse{Id: dc.call.Id, Name: dc.call.Name, Response: resp},
		})
	}
	return out
}

// closeDanglingCalls stores an error response for every call that
// invocationID (every invocation, when empty) left without one, so that
// the history the model sees next pairs every call with a response. It
// writes on a context that outlives ctx's cancellation, bounded by
// closeCallsTimeout. Failures are logged: the next invocation of the
// session tries again.
func (r *Runner) closeDanglingCalls(ictx *InvocationContext, invocationID string, cause error) int {
	ictx.inv.mu.RLock()
	calls := danglingCalls(ictx.inv.session.Events, invocationID)
	ictx.inv.mu.RUnlock()
	if len(calls) == 0 {
		return 0
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ictx.ctx), closeCallsTimeout)
	defer cancel()
	events := closingEvents(calls, closingText(cause))
	for i, ev := range events {
		if err := r.appendWith(ctx, ictx, ev); err != nil {
			slog.WarnContext(ctx, "close dangling function calls", "app", r.App.Name,
				"session", ictx.inv.session.GetId(), "events", len(events)-i, "err", err)
			return i
		}
	}
	return len(events)
}
