package conformance

import (
	"context"
	"sync"

	"github.com/agentsvc/agentsvc/internal/runtime"
)

// maxActive bounds the invocations replaying or recording at once.
const maxActive = 64

// active holds what each replaying or recording invocation needs, by
// invocation: its app, user, session and id. The id alone would not do: a
// caller chooses it when resuming an invocation, or retrying a request, of
// its own session, so two sessions' invocations may share one. A failed
// run skips the after-run hook that removes its entry, so entries whose
// invocation ended are dropped as new ones come.
type active[T any] struct {
	mu sync.Mutex
	m  map[invocationKey]activeEntry[T]
}

// invocationKey names one invocation of one session.
type invocationKey struct{ app, user, session, id string }

func keyOf(ictx *runtime.InvocationContext) invocationKey {
	return invocationKey{ictx.App().Name, ictx.UserID(), ictx.SessionID(), ictx.InvocationID}
}

type activeEntry[T any] struct {
	done context.Context //nolint:containedctx // the invocation's context, kept only to tell (Err) when it has ended.
	v    T
}

func (a *active[T]) add(ictx *runtime.InvocationContext, v T) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.m == nil {
		a.m = map[invocationKey]activeEntry[T]{}
	}
	for id, e := range a.m {
		if e.done.Err() != nil {
			delete(a.m, id)
		}
	}
	if len(a.m) >= maxActive {
		return failure(ErrConfig, "more than %d invocations replaying or recording at once", maxActive)
	}
	a.m[keyOf(ictx)] = activeEntry[T]{done: ictx.Context(), v: v}
	return nil
}

func (a *active[T]) get(ictx *runtime.InvocationContext) (T, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.m[keyOf(ictx)]
	return e.v, ok
}

func (a *active[T]) remove(ictx *runtime.InvocationContext) (T, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.m[keyOf(ictx)]
	delete(a.m, keyOf(ictx))
	return e.v, ok
}

// caseConfig reads the case a run's session state names under key
// ({"dir", "user_message_index", "streaming_mode"}): the recordings file
// under root and the user message index; ok is false when the state does
// not name one.
func caseConfig(ictx *runtime.InvocationContext, root, key string) (path string, msg int, ok bool, err error) {
	v, ok := ictx.StateValue(key)
	if !ok {
		return "", 0, false, nil
	}
	cfg := v.GetStructValue().GetFields()
	dir, idx := cfg["dir"].GetStringValue(), cfg["user_message_index"]
	if dir == "" || idx == nil {
		return "", 0, false, failure(ErrConfig, "%s needs dir and user_message_index", key)
	}
	n := idx.GetNumberValue()
	if n < 0 || n != float64(int(n)) {
		return "", 0, false, failure(ErrConfig, "user_message_index %v is not a whole number", n)
	}
	path, err = caseFile(root, dir, cfg["streaming_mode"].GetStringValue())
	if err != nil {
		return "", 0, false, failure(ErrConfig, "%w", err)
	}
	return path, int(n), true, nil
}
