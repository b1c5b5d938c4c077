package contents

import (
	"errors"
	"strings"

	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

var (
	// ErrNoFunctionCall is matched (with [errors.Is]) by the
	// [*NoFunctionCallError] that [Build] returns when the last event holds
	// function responses whose call is nowhere in the visible history.
	ErrNoFunctionCall = errors.New("no function call event found for function responses")

	// ErrMixedFunctionResponses is matched (with [errors.Is]) by the
	// [*MixedFunctionResponsesError] that [Build] returns when the last event
	// answers calls made in different model turns.
	ErrMixedFunctionResponses = errors.New("function responses answer calls of different events")
)

// NoFunctionCallError reports function responses with no matching call. Its
// message is ADK's: "No function call event found for function responses
// ids: {'id1', 'id2'}", the ids printed as a Python set in the order they
// appear (Python's own set order varies between runs); an empty id prints
// as None, as an unset id does in ADK.
type NoFunctionCallError struct {
	// ResponseIDs are the ids of the last event's function responses.
	ResponseIDs []string
}

// Error returns ADK's message.
func (e *NoFunctionCallError) Error() string {
	return "No function call event found for function responses ids: " + pySet(e.ResponseIDs)
}

// Unwrap returns [ErrNoFunctionCall].
func (e *NoFunctionCallError) Unwrap() error { return ErrNoFunctionCall }

// MixedFunctionResponsesError reports a last event whose responses answer
// calls of more than one call event. Its message is ADK's.
type MixedFunctionResponsesError struct {
	// CallIDs are the call ids of the call event that was found.
	CallIDs []string
	// ResponseIDs are the response ids being matched.
	ResponseIDs []string
}

// Error returns ADK's message.
func (e *MixedFunctionResponsesError) Error() string {
	return "Last response event should only contain the responses for the function calls in the same" +
		" function call event. Function call ids found : " + pySet(e.CallIDs) +
		", function response ids provided: " + pySet(e.ResponseIDs)
}

// Unwrap returns [ErrMixedFunctionResponses].
func (e *MixedFunctionResponsesError) Unwrap() error { return ErrMixedFunctionResponses }

// pySet prints ids as Python prints a set of strings.
func pySet(ids []string) string {
	if len(ids) == 0 {
		return "set()"
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, id := range ids {
		if i > 0 {
			b.WriteString(", ")
		}
		if id == "" {
			b.WriteString("None")
			continue
		}
		b.Write(pyfmt.AppendQuote(nil, id))
	}
	b.WriteByte('}')
	return b.String()
}
