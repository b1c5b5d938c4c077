package llmagent

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// credentialCallName is the function call through which the engine asks the
// client for a credential (ADK's end-user credential request).
const credentialCallName = "adk_request_credential"

// credentialEvent is ADK's request for the credentials the tools of a
// response event asked for: one adk_request_credential call per tool call,
// long-running, in call order; nil when no tool asked.
func credentialEvent(ictx *runtime.InvocationContext, callEvent, resp *v1.Event) *v1.Event {
	asked := resp.GetActions().GetRequestedAuthConfigs()
	if len(asked) == 0 {
		return nil
	}
	ev := ictx.NewEvent()
	ev.Content = &v1.Content{Role: resp.GetContent().GetRole()}
	for _, call := range runtime.FunctionCalls(callEvent) {
		cfg, ok := asked[call.Id]
		if !ok {
			continue
		}
		args := map[string]*structpb.Value{"functionCallId": structpb.NewStringValue(call.Id)}
		if cfg != nil {
			args["authConfig"] = structpb.NewStructValue(cfg)
		}
		id := runtime.NewFunctionCallID()
		ev.Content.Parts = append(ev.Content.Parts, &v1.Part{FunctionCall: &v1.FunctionCall{
			Id: id, Name: credentialCallName, Args: &structpb.Struct{Fields: args},
		}})
		ev.LongRunningToolIds = append(ev.LongRunningToolIds, id)
	}
	if len(ev.Content.Parts) == 0 {
		return nil
	}
	return ev
}

// resumeAuthorized is ADK's auth preprocessor: when the latest user event of
// the branch answers adk_request_credential calls, the calls that asked run
// again with the client's auth config (holding the credential), and their
// response event is returned.
func (a *Agent) resumeAuthorized(ictx *runtime.InvocationContext, tools stepTools) (*v1.Event, error) {
	// The answers, by the id of the request call.
	events, answers, at := latestAnswers(ictx, credentialCallName)
	if len(answers) == 0 {
		return nil, nil
	}
	// The calls that asked, by their own id.
	credentials := map[string]*structpb.Struct{}
	for _, ev := range events[:at] {
		for _, fc := range runtime.FunctionCalls(ev) {
			if answer, ok := answers[fc.Id]; ok && fc.Name == credentialCallName {
				credentials[fc.Args.GetFields()["functionCallId"].GetStringValue()] = answer
			}
		}
	}
	var calls []*v1.FunctionCall
	for _, ev := range events[:at] {
		for _, fc := range runtime.FunctionCalls(ev) {
			if _, ok := credentials[fc.Id]; ok {
				calls = append(calls, fc)
			}
		}
	}
	if len(calls) == 0 {
		return nil, nil
	}
	return a.runCallList(ictx, calls, tools, resumeWith{credentials: credentials})
}
