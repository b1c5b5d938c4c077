package runtime

import (
	"unicode"
	"unicode/utf8"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// MaxRequestIDLength bounds a run's request id, in bytes.
const MaxRequestIDLength = 128

// ValidateRequestID checks a run's request id: empty (none), or at most
// [MaxRequestIDLength] bytes of UTF-8 without control characters.
func ValidateRequestID(id string) error {
	switch {
	case len(id) > MaxRequestIDLength:
		return InvalidRequest("request_id is longer than %d bytes", MaxRequestIDLength)
	case !utf8.ValidString(id):
		return InvalidRequest("request_id is not valid UTF-8")
	}
	for _, r := range id {
		if unicode.IsControl(r) {
			return InvalidRequest("request_id must not contain control characters")
		}
	}
	return nil
}

// retry is a run whose request id an earlier run of the session stored:
// the user event of that run and whether its invocation finished.
type retry struct {
	user     *v1.Event
	finished bool
}

// findRetry returns the retry of requestID on events, or nil when no user
// event carries it. root names the root agent of a resumable app; it is
// empty for other apps.
func findRetry(events []*v1.Event, requestID, root string) *retry {
	if requestID == "" {
		return nil
	}
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if ev.RequestId == requestID && ev.Author == "user" {
			return &retry{user: ev, finished: invocationFinished(events[i:], ev.InvocationId, root)}
		}
	}
	return nil
}

// invocationFinished reports whether the stored events of an invocation,
// from its user event on, show that it ran to its end rather than stopping
// early (an error, a cancellation, a deadline, a process that died). It
// finished when none of its function calls is left without a response
// (long-running calls aside) and:
//
//   - in a resumable app (root is the name of its root agent; empty for
//     other apps), the root agent's end is checkpointed, or its last
//     event pauses it at a long-running call;
//   - otherwise, its last event other than the user's (the message, a
//     function response the user sent, a compaction summary) is a final
//     response in ADK's sense ([IsFinalResponse]): an answer that is
//     neither a function call nor a function response, or one that pauses
//     at a long-running call.
//
// Outside resumable apps the events do not record where a workflow agent
// was: an invocation of a sequential or loop agent that stopped between two
// of its sub-agents, after a final response, counts as finished.
func invocationFinished(events []*v1.Event, invocationID, root string) bool {
	var last *v1.Event
	rootEnded := false
	for _, ev := range events {
		if ev.InvocationId != invocationID {
			continue
		}
		if root != "" && ev.Author == root && ev.GetActions().GetEndOfAgent() {
			rootEnded = true
		}
		if ev.Author != "user" {
			last = ev
		}
	}
	if last == nil || len(danglingCalls(events, invocationID)) > 0 {
		return false
	}
	if root != "" {
		return rootEnded || len(last.LongRunningToolIds) > 0
	}
	return IsFinalResponse(last)
}

// replay yields the stored events of a finished invocation that a retry
// answers again: the agents' events after its user event, as they were
// yielded the first time (user events and compaction summaries are not).
func replay(events []*v1.Event, rt *retry, yield func(*v1.Event, error) bool) {
	after := false
	for _, ev := range events {
		if ev == rt.user {
			after = true
			continue
		}
		if !after || ev.InvocationId != rt.user.InvocationId || ev.Author == "user" {
			continue
		}
		if !yield(ev, nil) {
			return
		}
	}
}
