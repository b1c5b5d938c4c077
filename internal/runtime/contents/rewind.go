package contents

import (
	"slices"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// dropRewound removes rewind events and what they undo: scanning backwards,
// an event with actions.rewind_before_invocation_id = X removes itself and
// every event from the first event of invocation X up to it. Events a rewind
// already removed are not looked at, so a rewind inside a rewound range has
// no effect. A rewind to an unknown invocation removes only itself.
func dropRewound(events []*v1.Event) []*v1.Event {
	kept := make([]*v1.Event, 0, len(events))
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		target := e.GetActions().GetRewindBeforeInvocationId()
		if target == "" {
			kept = append(kept, e)
			continue
		}
		for j := range i {
			if events[j].GetInvocationId() == target {
				i = j
				break
			}
		}
	}
	slices.Reverse(kept)
	return kept
}
