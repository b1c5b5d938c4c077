package remote

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/a2aproject/a2a-go/a2a"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	a2aconv "github.com/agentsvc/agentsvc/internal/a2a"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// mockInputCall is ADK's MOCK_FUNCTION_CALL_FOR_REQUIRED_USER_INPUT: the
// long-running call that stands for a remote task waiting for the user.
const mockInputCall = "mock_function_call_for_required_user_input"

// humanInputCalls are ADK's _HUMAN_INPUT_FUNCTION_CALL_NAMES.
var humanInputCalls = map[string]bool{
	mockInputCall: true, "adk_request_input": true, "adk_request_confirmation": true, "adk_request_credential": true,
}

// addMockInputCall is ADK's _add_mock_function_call: a remote task that
// waits for input or authentication, without a long-running call of its
// own, has its last text part replaced by a long-running
// mock_function_call_for_required_user_input call carrying the text.
func addMockInputCall(ev *v1.Event, state a2a.TaskState) {
	if state != a2a.TaskStateInputRequired && state != a2a.TaskStateAuthRequired || len(ev.GetLongRunningToolIds()) > 0 {
		return
	}
	parts := ev.GetContent().GetParts()
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i].GetText() == "" {
			continue
		}
		args, err := structStruct(map[string]any{"input_required": parts[i].GetText()})
		if err != nil {
			return
		}
		id := runtime.NewEventID()
		parts[i] = &v1.Part{FunctionCall: &v1.FunctionCall{Id: id, Name: mockInputCall, Args: args}}
		ev.LongRunningToolIds = []string{id}
		return
	}
}

// requestForFunctionResponse is ADK's
// _create_a2a_request_for_user_function_response: when the user's last
// event answers a call, the answer goes back as the message, in the task
// and context of the call's event; nil otherwise. adk2 carries each part's
// metadata as ADK 2.13 does.
func requestForFunctionResponse(events []*v1.Event, adk2 bool) *a2a.Message {
	if len(events) == 0 || events[len(events)-1].GetAuthor() != "user" {
		return nil
	}
	last := events[len(events)-1]
	var first *v1.FunctionResponse
	for _, p := range last.GetContent().GetParts() {
		if p.GetFunctionResponse() != nil {
			first = p.GetFunctionResponse()
			break
		}
	}
	if first == nil {
		return nil
	}
	call := findCallEvent(events[:len(events)-1], first.GetId())
	if call == nil {
		return nil
	}
	names := map[string]map[string]bool{}
	ambiguous := false
	for _, p := range call.GetContent().GetParts() {
		fc := p.GetFunctionCall()
		if fc == nil || fc.GetName() == "" {
			continue
		}
		if names[fc.GetId()] == nil {
			names[fc.GetId()] = map[string]bool{}
		}
		names[fc.GetId()][fc.GetName()] = true
		if fc.GetId() == "" && !humanInputCalls[fc.GetName()] {
			ambiguous = true
		}
	}
	parts := sanitizeResponses(last.GetContent().GetParts(), names, ambiguous)
	if len(parts) == 0 {
		return nil
	}
	out := make([]a2a.Part, 0, len(parts))
	for _, p := range parts {
		out = append(out, a2aconv.PartToA2A(p, adk2))
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, out...)
	if f := call.GetCustomMetadata().GetFields(); len(f) > 0 {
		msg.TaskID = a2a.TaskID(f[metaPrefix+"task_id"].GetStringValue())
		msg.ContextID = f[metaPrefix+"context_id"].GetStringValue()
	}
	return msg
}

// sanitizeResponses is ADK's _sanitize_user_function_response_event:
// credential responses are dropped; answers to human-input calls become
// their text, unless a response to another call is present, which then
// travels as is with the text parts dropped.
func sanitizeResponses(parts []*v1.Part, names map[string]map[string]bool, ambiguous bool) []*v1.Part {
	isHuman := func(fr *v1.FunctionResponse) bool {
		n := names[fr.GetId()]
		human := false
		for name := range n {
			human = human || humanInputCalls[name]
		}
		if !human {
			return false
		}
		return !(ambiguous && fr.GetId() == "" && !humanInputCalls[fr.GetName()])
	}
	isCredential := func(fr *v1.FunctionResponse) bool {
		return names[fr.GetId()]["adk_request_credential"] || isCredentialResponse(fr)
	}
	resume := false
	for _, p := range parts {
		if fr := p.GetFunctionResponse(); fr != nil && !isCredential(fr) && !isHuman(fr) {
			resume = true
		}
	}
	var out []*v1.Part
	for _, p := range parts {
		fr := p.GetFunctionResponse()
		switch {
		case fr == nil:
			if resume && p.GetFunctionCall() == nil && p.GetInlineData() == nil && p.GetFileData() == nil &&
				p.GetExecutableCode() == nil && p.GetCodeExecutionResult() == nil {
				continue // a text part
			}
			out = append(out, p)
		case isCredential(fr):
		case !isHuman(fr) || resume:
			out = append(out, p)
		default:
			if text, ok := renderResponse(fr); ok {
				out = append(out, &v1.Part{Text: text})
			}
		}
	}
	return out
}

// renderResponse is ADK's _render_user_function_response: {"result": v}
// as Python's str(v), any other response as Python's json.dumps (ASCII,
// keys sorted); nothing for an empty one.
func renderResponse(fr *v1.FunctionResponse) (string, bool) {
	f := fr.GetResponse().GetFields()
	if len(f) == 0 {
		return "", false
	}
	if v, ok := f["result"]; ok && len(f) == 1 {
		if _, null := v.GetKind().(*structpb.Value_NullValue); null || v.GetKind() == nil {
			return "", false
		}
		return pyfmt.Str(v), true
	}
	return asciiJSON(pyfmt.JSONDumps(structpb.NewStructValue(fr.GetResponse()))), true
}

// asciiJSON escapes the non-ASCII characters of JSON text as \uXXXX, as
// json.dumps does by default.
func asciiJSON(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, "\\u%04x\\u%04x", r1, r2)
		default:
			fmt.Fprintf(&b, "\\u%04x", r)
		}
	}
	return b.String()
}

// findCallEvent returns the latest event with a function call of id.
func findCallEvent(events []*v1.Event, id string) *v1.Event {
	for i := len(events) - 1; i >= 0; i-- {
		for _, p := range events[i].GetContent().GetParts() {
			if fc := p.GetFunctionCall(); fc != nil && fc.GetId() == id {
				return events[i]
			}
		}
	}
	return nil
}
