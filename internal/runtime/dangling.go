package runtime

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
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
	return scanCalls(nil, events, invocationID)
}

// scanCalls is [danglingCalls] reading on from the calls open before
// events; it may reuse open's array.
func scanCalls(open []danglingCall, events []*v1.Event, invocationID string) []danglingCall {
	// Walk forward keeping the open calls: a response usually follows its
	// call closely, so the list stays short and a linear search beats a
	// map.
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
				NodeInfo:     dc.event.NodeInfo,
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
// closeCallsTimeout, and retries while the store is unreachable within
// that bound: an invocation often ends early because the store went away.
// A write whose answer was lost may have been stored: the stale handle
// that follows is read again, and only the calls still open are closed.
// Failures past the bound are logged: the next invocation of the session
// tries again. An invocation that ended because it lost the session's
// lease writes nothing: the session may be another invocation's, which
// closes the calls first. It returns how many events it stored.
func (r *Runner) closeDanglingCalls(ictx *InvocationContext, invocationID string, cause error) int {
	if errors.Is(cause, sessions.ErrLeaseLost) {
		return 0
	}
	calls := ictx.inv.callsToClose(invocationID)
	if len(calls) == 0 {
		// The usual case: no context, no timer.
		return 0
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ictx.ctx), closeCallsTimeout)
	defer cancel()
	text := closingText(cause)
	stored := 0
	for wait := closeRetryWait; ; wait = min(2*wait, time.Second) {
		n, pending, err := r.closeCalls(ctx, ictx, calls, text)
		stored += n
		if err == nil {
			return stored
		}
		retry := errors.Is(err, sessions.ErrUnavailable) || errors.Is(err, sessions.ErrStale)
		if !retry || !sleepFor(ctx, wait) {
			slog.WarnContext(ctx, "close dangling function calls", "app", r.App.Name,
				"session", ictx.inv.session.GetId(), "events", pending, "err", err)
			return stored
		}
		if errors.Is(err, sessions.ErrStale) {
			if err := r.reloadSession(ctx, ictx); err != nil {
				slog.WarnContext(ctx, "close dangling function calls: reload session", "app", r.App.Name,
					"session", ictx.inv.session.GetId(), "err", err)
				return stored
			}
		}
		calls = ictx.inv.callsToClose(invocationID)
	}
}

// closeRetryWait is the first wait before closing calls is tried again.
const closeRetryWait = 100 * time.Millisecond

// callsToClose returns the calls still open that closeDanglingCalls closes
// for invocationID.
func (inv *invocation) callsToClose(invocationID string) []danglingCall {
	inv.mu.RLock()
	calls := inv.openCalls(invocationID)
	inv.mu.RUnlock()
	if c := inv.continues; c != "" && invocationID == "" {
		// The invocation this run goes on with keeps its open calls: its
		// workflow answers them (ADK 2.x's resume).
		calls = slices.DeleteFunc(calls, func(d danglingCall) bool { return d.event.GetInvocationId() == c })
	}
	return calls
}

// closeCalls stores the closing events of calls; it returns how many it
// stored and how many it did not.
func (r *Runner) closeCalls(ctx context.Context, ictx *InvocationContext, calls []danglingCall, text string) (int, int, error) {
	events := closingEvents(calls, text)
	for i, ev := range events {
		if err := r.appendWith(ctx, ictx, ev); err != nil {
			return i, len(events) - i, err
		}
	}
	return len(events), 0, nil
}

// reloadSession reads the invocation's session again, after a write whose
// outcome is unknown left its handle stale.
func (r *Runner) reloadSession(ctx context.Context, ictx *InvocationContext) error {
	ictx.inv.mu.Lock()
	defer ictx.inv.mu.Unlock()
	old, load := ictx.inv.session, ictx.inv.load
	load.AppName, load.UserID, load.SessionID = r.App.Name, old.UserId, old.Id
	sess, err := r.Sessions.Get(ctx, load)
	if err != nil {
		return err
	}
	ictx.inv.session = sess
	return nil
}

// sleepFor waits d, reporting false when ctx ends first.
func sleepFor(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// openCalls returns the calls without a response: those of invocationID
// among the events stored since the invocation started (its earlier ones
// were closed when it started), or, for an empty id, those of every
// invocation, read on from the session's kept scan when the runner keeps
// one, so that a run does not walk the whole history again. The caller
// holds inv.mu.
func (inv *invocation) openCalls(invocationID string) []danglingCall {
	events := inv.session.Events
	if invocationID != "" {
		return danglingCalls(events[min(inv.loaded, len(events)):], invocationID)
	}
	if inv.history == nil {
		return danglingCalls(events, "")
	}
	return inv.history.openCalls(events)
}

// callScan is where a session's last scan for open calls stopped: after
// its first scanned events, the last of which has id lastID, the calls in
// open had no response.
type callScan struct {
	scanned int
	lastID  string
	open    []danglingCall
}

// openCalls returns the open calls of events, reading on from the last
// scan when events still begin with what it read.
func (s *sessionHistory) openCalls(events []*v1.Event) []danglingCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := s.scan
	if sc.scanned == 0 || sc.scanned > len(events) || events[sc.scanned-1].GetId() != sc.lastID {
		sc = callScan{}
	}
	open := scanCalls(slices.Clone(sc.open), events[sc.scanned:], "")
	s.scan = callScan{scanned: len(events), open: open}
	if len(events) > 0 {
		s.scan.lastID = events[len(events)-1].GetId()
	}
	return slices.Clone(open)
}
