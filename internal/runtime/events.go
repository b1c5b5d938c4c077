package runtime

import (
	"time"

	"github.com/google/uuid"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func init() {
	// Ids are generated on every event; a pooled reader avoids a syscall per
	// id.
	uuid.EnableRandPool()
}

// NewEventID returns a new event id (a uuid4).
func NewEventID() string { return uuid.NewString() }

// NewInvocationID returns a new invocation id, "e-<uuid4>".
func NewInvocationID() string { return "e-" + uuid.NewString() }

// NewFunctionCallID returns a client-side function call id, "adk-<uuid4>".
func NewFunctionCallID() string { return "adk-" + uuid.NewString() }

// Now returns the current time in seconds since the epoch, as event
// timestamps are.
func Now() float64 {
	return float64(time.Now().UnixMicro()) / 1e6
}

// NewEvent returns an event of the invocation authored by the context's agent
// on its branch, with a new id and the current time.
func (ictx *InvocationContext) NewEvent() *v1.Event {
	return &v1.Event{
		Id:           NewEventID(),
		InvocationId: ictx.InvocationID,
		Author:       ictx.Agent.Name(),
		Branch:       ictx.Branch,
		Timestamp:    Now(),
		Actions:      &v1.EventActions{},
		NodeInfo:     ictx.App().nodeInfo(ictx.nodePath),
		// IsolationScope scopes the events of an ADK 2.x delegated task.
		IsolationScope: ictx.scope,
	}
}

// FunctionCalls returns the function calls of an event's content.
func FunctionCalls(ev *v1.Event) []*v1.FunctionCall {
	if ev.GetContent() == nil {
		return nil
	}
	var calls []*v1.FunctionCall
	for _, p := range ev.Content.Parts {
		if p.FunctionCall != nil {
			calls = append(calls, p.FunctionCall)
		}
	}
	return calls
}

// FunctionResponses returns the function responses of an event's content.
func FunctionResponses(ev *v1.Event) []*v1.FunctionResponse {
	if ev.GetContent() == nil {
		return nil
	}
	var resps []*v1.FunctionResponse
	for _, p := range ev.Content.Parts {
		if p.FunctionResponse != nil {
			resps = append(resps, p.FunctionResponse)
		}
	}
	return resps
}

func hasPart(ev *v1.Event, pred func(*v1.Part) bool) bool {
	for _, p := range ev.GetContent().GetParts() {
		if pred(p) {
			return true
		}
	}
	return false
}

// IsFinalResponse reports whether an event ends an agent's turn (ADK's
// Event.is_final_response): skip_summarization or long-running calls, or no
// function calls, no function responses, not partial and no trailing code
// execution result.
func IsFinalResponse(ev *v1.Event) bool {
	if ev.GetActions().GetSkipSummarization() || len(ev.LongRunningToolIds) > 0 {
		return true
	}
	if ev.GetPartial() {
		return false
	}
	if hasPart(ev, func(p *v1.Part) bool { return p.FunctionCall != nil || p.FunctionResponse != nil }) {
		return false
	}
	parts := ev.GetContent().GetParts()
	return len(parts) == 0 || parts[len(parts)-1].CodeExecutionResult == nil
}

// EventFromResponse fills ev with the fields of an LlmResponse, as ADK merges
// a model response into its event skeleton.
func EventFromResponse(ev *v1.Event, r *v1.LlmResponse) *v1.Event {
	ev.Content = r.Content
	ev.Partial = r.Partial
	ev.TurnComplete = r.TurnComplete
	ev.FinishReason = r.FinishReason
	ev.ErrorCode = r.ErrorCode
	ev.ErrorMessage = r.ErrorMessage
	ev.Interrupted = r.Interrupted
	ev.CustomMetadata = r.CustomMetadata
	ev.UsageMetadata = r.UsageMetadata
	ev.GroundingMetadata = r.GroundingMetadata
	ev.ModelVersion = r.ModelVersion
	ev.AvgLogprobs = r.AvgLogprobs
	ev.CitationMetadata = r.CitationMetadata
	ev.InteractionId = r.InteractionId
	ev.InputTranscription = r.InputTranscription
	ev.OutputTranscription = r.OutputTranscription
	ev.CacheMetadata = r.CacheMetadata
	return ev
}
