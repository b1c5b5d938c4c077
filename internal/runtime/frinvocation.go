package runtime

import (
	"slices"
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// responseInvocation is the invocation a message of function responses
// continues, as ADK 2.x's runner resolves it: the invocation of the latest
// event holding each answered call, the same for all of them. It returns
// "" for a message without function responses, and an error naming the
// ids when a call is not in the session or the calls belong to several
// invocations; nothing is stored then.
func responseInvocation(events []*v1.Event, msg *v1.Content) (string, error) {
	var ids []string
	for _, p := range msg.GetParts() {
		if fr := p.GetFunctionResponse(); fr != nil && fr.GetId() != "" && !slices.Contains(ids, fr.GetId()) {
			ids = append(ids, fr.GetId())
		}
	}
	if len(ids) == 0 {
		return "", nil
	}
	found := map[string]string{}
	for i := len(events) - 1; i >= 0 && len(found) < len(ids); i-- {
		for _, c := range FunctionCalls(events[i]) {
			if _, seen := found[c.GetId()]; !seen && slices.Contains(ids, c.GetId()) {
				found[c.GetId()] = events[i].GetInvocationId()
			}
		}
	}
	var missing []string
	invocations := map[string]bool{}
	for _, id := range ids {
		inv, ok := found[id]
		if !ok {
			missing = append(missing, id)
			continue
		}
		invocations[inv] = true
	}
	if len(missing) > 0 {
		return "", InvalidRequest("Function call not found for function response ids: %s. Ensure each function response ID matches an existing function call in the session history.", pySet(missing))
	}
	if len(invocations) > 1 {
		return "", InvalidRequest("Function responses resolve to multiple invocations: %s. All function responses in a single message must belong to the same invocation.", pySet(ids))
	}
	return found[ids[0]], nil
}

// answeredInvocation is the invocation that a message of function
// responses continues when the request names none, as the app's ADK
// release picks it, and whether the run resumes it (a resumable app):
//
//   - ADK 2.x: the invocation of the answered calls (responseInvocation);
//     an app that is not resumable takes it only when every call is found
//     in one invocation, and otherwise starts a new one;
//   - ADK 1.x: a resumable app resumes the invocation of the first
//     answered call, which must be in the session; other apps start a new
//     invocation.
//
// It returns "" when the run starts a new invocation.
func (r *Runner) answeredInvocation(events []*v1.Event, msg *v1.Content) (string, bool, error) {
	resumable := r.App.Resumable
	if r.App.Behavior == Behavior2x {
		id, err := responseInvocation(events, msg)
		if err != nil && !resumable {
			return "", false, nil
		}
		return id, resumable && id != "", err
	}
	if !resumable {
		return "", false, nil
	}
	for _, p := range msg.GetParts() {
		fr := p.GetFunctionResponse()
		if fr == nil {
			continue
		}
		for i := len(events) - 1; i >= 0; i-- {
			for _, c := range FunctionCalls(events[i]) {
				if fr.GetId() != "" && c.GetId() == fr.GetId() {
					return events[i].GetInvocationId(), true, nil
				}
			}
		}
		id := "None"
		if fr.GetId() != "" {
			id = fr.GetId()
		}
		return "", false, InvalidRequest("Function call event not found for function response id: %s", id)
	}
	return "", false, nil
}

// pySet writes ids as Python prints a set of strings.
func pySet(ids []string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = pyfmt.Quote(id)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
