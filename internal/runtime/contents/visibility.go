package contents

import (
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Function names of the framework's own calls, never shown to a model.
const (
	requestCredentialName   = "adk_request_credential"
	requestConfirmationName = "adk_request_confirmation"
	requestInputName        = "adk_request_input"
	frameworkName           = "adk_framework"
)

// clientIDPrefix marks call ids the engine made up for calls that had none.
const clientIDPrefix = "adk-"

// partFlags summarises the parts of one content.
type partFlags uint8

const (
	// hasVisible: some part is shown to the model.
	hasVisible partFlags = 1 << iota
	hasCall
	hasResponse
	// hasFramework: a call or response of a framework function.
	hasFramework
	// hasClientID: a call or response id starting with "adk-".
	hasClientID
)

// scanParts reads the parts of c once for everything the pipeline asks.
func scanParts(c *v1.Content) partFlags {
	var f partFlags
	for _, p := range c.GetParts() {
		if p == nil {
			continue
		}
		if fc := p.FunctionCall; fc != nil {
			f |= hasVisible | hasCall | nameFlags(fc.Name, fc.Id)
		} else if fr := p.FunctionResponse; fr != nil {
			f |= hasVisible | hasResponse | nameFlags(fr.Name, fr.Id)
		} else if !p.Thought && (p.Text != "" || p.InlineData != nil || p.FileData != nil ||
			p.ExecutableCode != nil || p.CodeExecutionResult != nil) {
			f |= hasVisible
		}
	}
	return f
}

func nameFlags(name, id string) partFlags {
	var f partFlags
	if isFrameworkName(name) {
		f |= hasFramework
	}
	if strings.HasPrefix(id, clientIDPrefix) {
		f |= hasClientID
	}
	return f
}

// isFrameworkName reports whether name is one of the framework's functions;
// most names are told apart by their start alone.
func isFrameworkName(name string) bool {
	if !strings.HasPrefix(name, "adk_") {
		return false
	}
	switch name {
	case requestCredentialName, requestConfirmationName, requestInputName, frameworkName:
		return true
	}
	return false
}

// isIncluded is ADK's _should_include_event_in_context: the event has
// something to show (or is a compaction, or carries a transcription), is on
// a branch the invocation can see, and is no framework call or response.
func isIncluded(e *v1.Event, f partFlags, branch string) bool {
	if e.GetActions().GetCompaction() == nil && isEmpty(e.GetContent(), f) &&
		e.GetInputTranscription() == nil && e.GetOutputTranscription() == nil {
		return false
	}
	return f&hasFramework == 0 && isVisibleOnBranch(branch, e.GetBranch())
}

// isEmpty: no content, no role, no parts, or only invisible parts (thoughts,
// empty text). Function calls and responses are never invisible.
func isEmpty(c *v1.Content, f partFlags) bool {
	return c == nil || c.GetRole() == "" || len(c.GetParts()) == 0 || f&hasVisible == 0
}

// isVisibleOnBranch: an event is visible when either branch is empty, the
// branches are equal, or the event's branch is an ancestor of the
// invocation's, as a whole dot-separated segment ("p.child" does not see
// "p.child2", "p.child000" or "p.child_agent").
func isVisibleOnBranch(invocationBranch, eventBranch string) bool {
	if invocationBranch == "" || eventBranch == "" || invocationBranch == eventBranch {
		return true
	}
	n := len(eventBranch)
	return len(invocationBranch) > n && invocationBranch[n] == '.' && invocationBranch[:n] == eventBranch
}

// filterIncluded returns the events that pass [isIncluded], in a new slice.
func filterIncluded(events []*v1.Event, branch string) []*v1.Event {
	kept := make([]*v1.Event, 0, len(events))
	for _, e := range events {
		if isIncluded(e, scanParts(e.GetContent()), branch) {
			kept = append(kept, e)
		}
	}
	return kept
}
