package llmagent

import (
	"encoding/json"
	"slices"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// confirmationCallName is the function call through which the engine asks
// the client to approve a tool call.
const confirmationCallName = "adk_request_confirmation"

// confirmationEvent is ADK's request for the confirmations the tools of a
// response event asked for: one adk_request_confirmation call per tool call,
// long-running, in call order; nil when no tool asked.
func confirmationEvent(ictx *runtime.InvocationContext, callEvent, resp *v1.Event) *v1.Event {
	asked := resp.GetActions().GetRequestedToolConfirmations()
	if len(asked) == 0 {
		return nil
	}
	ev := ictx.NewEvent()
	ev.Content = &v1.Content{Role: resp.GetContent().GetRole()}
	for _, call := range runtime.FunctionCalls(callEvent) {
		tc, ok := asked[call.Id]
		if !ok {
			continue
		}
		original := map[string]*structpb.Value{"id": structpb.NewStringValue(call.Id), "name": structpb.NewStringValue(call.Name)}
		if call.Args != nil {
			original["args"] = structpb.NewStructValue(call.Args)
		}
		confirmation := map[string]*structpb.Value{"confirmed": structpb.NewBoolValue(false)}
		if tc.Hint != "" {
			confirmation["hint"] = structpb.NewStringValue(tc.Hint)
		}
		if tc.Payload != nil {
			confirmation["payload"] = structpb.NewStructValue(tc.Payload)
		}
		id := runtime.NewFunctionCallID()
		ev.Content.Parts = append(ev.Content.Parts, &v1.Part{FunctionCall: &v1.FunctionCall{
			Id:   id,
			Name: confirmationCallName,
			Args: &structpb.Struct{Fields: map[string]*structpb.Value{
				"originalFunctionCall": structpb.NewStructValue(&structpb.Struct{Fields: original}),
				"toolConfirmation":     structpb.NewStructValue(&structpb.Struct{Fields: confirmation}),
			}},
		}})
		ev.LongRunningToolIds = append(ev.LongRunningToolIds, id)
	}
	if len(ev.Content.Parts) == 0 {
		return nil
	}
	return ev
}

// resumeConfirmed is ADK's request-confirmation processor: when the latest
// user event of the branch answers adk_request_confirmation calls, the
// original calls that have no response yet run again with the user's
// answers, and their response event is returned.
func (a *Agent) resumeConfirmed(ictx *runtime.InvocationContext, tools stepTools) (*v1.Event, error) {
	events, responses, at := latestAnswers(ictx, confirmationCallName)
	if len(responses) == 0 {
		return nil, nil
	}
	answers := make(map[string]*v1.ToolConfirmation, len(responses))
	for id, r := range responses {
		answers[id] = parseConfirmation(r)
	}
	for i := at - 1; i >= 0; i-- {
		var calls []*v1.FunctionCall
		confirmations := map[string]*v1.ToolConfirmation{}
		for _, fc := range runtime.FunctionCalls(events[i]) {
			answer, ok := answers[fc.Id]
			if !ok {
				continue
			}
			original := originalCall(fc)
			if original == nil {
				continue
			}
			calls = append(calls, original)
			confirmations[original.Id] = answer
		}
		if len(calls) == 0 {
			continue
		}
		// Calls answered since the confirmation are not run again.
		for _, ev := range events[at+1:] {
			for _, fr := range runtime.FunctionResponses(ev) {
				calls = slices.DeleteFunc(calls, func(c *v1.FunctionCall) bool { return c.Id == fr.Id })
			}
		}
		if len(calls) == 0 {
			continue
		}
		return a.runCallList(ictx, calls, tools, resumeWith{confirmations: confirmations})
	}
	return nil, nil
}

// answersRequest reports cheaply whether the latest user event of the branch
// answers a request of the engine named name.
func answersRequest(events []*v1.Event, branch, name string) bool {
	for k := len(events) - 1; k >= 0; k-- {
		if ev := events[k]; ev.Author == "user" && ev.Branch == branch {
			return slices.ContainsFunc(runtime.FunctionResponses(ev), func(fr *v1.FunctionResponse) bool {
				return fr.Name == name
			})
		}
	}
	return false
}

// latestAnswers returns the events of the context's branch and, from the
// latest user event among them, its responses to the engine's requests
// named name, by request call id, with that event's index.
func latestAnswers(ictx *runtime.InvocationContext, name string) ([]*v1.Event, map[string]*structpb.Struct, int) {
	var events []*v1.Event
	for _, ev := range ictx.Events() {
		if ev.Branch == ictx.Branch {
			events = append(events, ev)
		}
	}
	for k := len(events) - 1; k >= 0; k-- {
		if events[k].Author != "user" {
			continue
		}
		answers := map[string]*structpb.Struct{}
		for _, fr := range runtime.FunctionResponses(events[k]) {
			if fr.Name == name {
				answers[fr.Id] = fr.Response
			}
		}
		return events, answers, k
	}
	return events, nil, -1
}

// parseConfirmation reads a ToolConfirmation strictly, as ADK does: the
// object itself or a JSON string under "response"; anything malformed
// denies the call.
func parseConfirmation(resp *structpb.Struct) *v1.ToolConfirmation {
	fields := resp.GetFields()
	if s, ok := fields["response"]; ok && len(fields) == 1 {
		inner := &structpb.Struct{}
		if err := protojson.Unmarshal([]byte(s.GetStringValue()), inner); err != nil {
			return &v1.ToolConfirmation{}
		}
		fields = inner.Fields
	}
	tc := &v1.ToolConfirmation{}
	for k, v := range fields {
		switch k {
		case "confirmed":
			b, ok := v.GetKind().(*structpb.Value_BoolValue)
			if !ok {
				return &v1.ToolConfirmation{}
			}
			tc.Confirmed = b.BoolValue
		case "hint":
			s, ok := v.GetKind().(*structpb.Value_StringValue)
			if !ok {
				return &v1.ToolConfirmation{}
			}
			tc.Hint = s.StringValue
		case "payload":
			tc.Payload = v.GetStructValue()
		}
	}
	return tc
}

// originalCall reads the originalFunctionCall argument of a confirmation
// request.
func originalCall(fc *v1.FunctionCall) *v1.FunctionCall {
	if fc.Name != confirmationCallName {
		return nil
	}
	orig := fc.Args.GetFields()["originalFunctionCall"].GetStructValue()
	if orig == nil {
		return nil
	}
	b, err := json.Marshal(orig.AsMap())
	if err != nil {
		return nil
	}
	call := &v1.FunctionCall{}
	if err := protojson.Unmarshal(b, call); err != nil {
		return nil
	}
	return call
}
