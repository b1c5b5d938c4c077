package llmagent

import (
	"cmp"
	"strings"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// runCalls runs the function calls of ev concurrently and returns one
// response event with the responses in call order (nil when every call was a
// long-running call with no result yet).
func (a *Agent) runCalls(ictx *runtime.InvocationContext, ev *v1.Event, tools stepTools) (*v1.Event, error) {
	return a.runCallList(ictx, runtime.FunctionCalls(ev), tools, resumeWith{})
}

// resumeWith holds the client's answers for calls that run again: the
// confirmation or the credential, by the original call's id.
type resumeWith struct {
	confirmations map[string]*v1.ToolConfirmation
	credentials   map[string]*structpb.Struct
}

// runCallList runs calls concurrently, giving each call the client's
// answers that resume it.
func (a *Agent) runCallList(ictx *runtime.InvocationContext, calls []*v1.FunctionCall, tools stepTools,
	answers resumeWith) (*v1.Event, error) {
	events := make([]*v1.Event, len(calls))
	errs := make([]error, len(calls))
	if len(calls) == 1 {
		events[0], errs[0] = a.runCall(ictx, calls[0], tools, answers)
	} else {
		var wg sync.WaitGroup
		for i, call := range calls {
			wg.Go(func() { events[i], errs[i] = a.runCall(ictx, call, tools, answers) })
		}
		wg.Wait()
	}
	var out []*v1.Event
	for i := range calls {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if events[i] != nil {
			out = append(out, events[i])
		}
	}
	merged := mergeResponses(out)
	if len(out) > 1 {
		ictx.TraceMergedCalls(merged)
	}
	return merged, nil
}

// runCall runs one call, traced as ADK's execute_tool span when the tool
// exists (see runTool).
func (a *Agent) runCall(ictx *runtime.InvocationContext, call *v1.FunctionCall, tools stepTools,
	answers resumeWith) (*v1.Event, error) {
	tool, ok := tools.byName[call.Name]
	if !ok {
		return a.runTool(ictx, call, tools, answers)
	}
	ictx, trace := ictx.StartToolCall(tool, call.Args)
	ev, err := a.runTool(ictx, call, tools, answers)
	trace.End(ev, err)
	return ev, err
}

// runTool runs one call through the tool callbacks (plugins first) and
// builds its response event; nil when a long-running tool has no result yet.
func (a *Agent) runTool(ictx *runtime.InvocationContext, call *v1.FunctionCall, tools stepTools,
	answers resumeWith) (*v1.Event, error) {
	tctx := runtime.NewToolContext(ictx, call.Id)
	tctx.Confirmation = answers.confirmations[call.Id]
	tctx.AuthResponse = answers.credentials[call.Id]
	args := call.Args
	if args == nil {
		args = &structpb.Struct{}
	}
	tool, ok := tools.byName[call.Name]
	if !ok {
		if ictx.App().Behavior != runtime.Behavior2x {
			cause := toolNotFound(call.Name, tools.names())
			resp, err := a.onToolError(tctx, missingTool{name: call.Name}, args, cause)
			if err != nil {
				return nil, err
			}
			return responseEvent(ictx, tctx, call, call.Name, resp), nil
		}
		tool = missingTool{name: cmp.Or(call.Name, unnamedTool)}
	}

	plugins := ictx.App().Plugins
	resp, err := plugins.BeforeTool(tctx, tool, args)
	if err == nil && resp == nil {
		for _, cb := range a.cfg.ToolCallbacks.Before {
			if resp, err = cb(tctx, tool, args); err != nil || resp != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if !ok && resp == nil {
		return a.answerUnknownTool(ictx, tctx, call, tool, args, tools.names())
	}
	noResult := false
	if resp == nil {
		raw, err := tool.Run(tctx, args)
		if err == nil {
			tctx.Output = raw
			if raw == nil {
				tctx.Output = structpb.NewNullValue()
			}
		}
		switch {
		case err != nil:
			if resp, err = a.onToolError(tctx, tool, args, err); err != nil {
				return nil, err
			}
		case raw == nil:
			noResult = tool.IsLongRunning()
			if !noResult {
				resp = runtime.NullResult()
			}
		default:
			if resp, err = runtime.ToolResult(raw); err != nil {
				return nil, err
			}
		}
	}

	altered, err := plugins.AfterTool(tctx, tool, args, resp)
	if err == nil && altered == nil {
		for _, cb := range a.cfg.ToolCallbacks.After {
			if altered, err = cb(tctx, tool, args, resp); err != nil || altered != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, err
	}
	if altered != nil {
		resp, noResult = altered, false
	}
	if noResult {
		return nil, nil
	}
	return responseEvent(ictx, tctx, call, tool.Name(), resp), nil
}

// onToolError lets the on-tool-error callbacks (plugins first) answer for a
// failed or unknown tool; without an answer the failure stands.
func (a *Agent) onToolError(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct, cause error) (*structpb.Struct, error) {
	resp, err := a.toolErrorAnswer(tctx, tool, args, cause)
	if err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, cause
	}
	return resp, nil
}

// toolErrorAnswer runs the on-tool-error callbacks, plugins first, until
// one answers; nil when none does.
func (a *Agent) toolErrorAnswer(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct, cause error) (*structpb.Struct, error) {
	resp, err := tctx.App().Plugins.OnToolError(tctx, tool, args, cause)
	if err != nil {
		return nil, err
	}
	for _, cb := range a.cfg.ToolCallbacks.OnError {
		if resp != nil {
			break
		}
		if resp, err = cb(tctx, tool, args, cause); err != nil {
			return nil, err
		}
	}
	return resp, nil
}

// unnamedTool is the name ADK 2.x gives a call that names no tool.
const unnamedTool = "<unnamed>"

// answerUnknownTool is ADK 2.x's answer to a call of a tool the agent does
// not have, once no before-tool callback answered it: the on-tool-error
// callbacks (plugins first) may answer; otherwise the model is told, in an
// error response, which tools it may call, so that it can correct itself.
// The after-tool callbacks do not run: no tool ran.
func (a *Agent) answerUnknownTool(ictx *runtime.InvocationContext, tctx *runtime.ToolContext, call *v1.FunctionCall,
	tool runtime.Tool, args *structpb.Struct, names []string) (*v1.Event, error) {
	resp, err := a.toolErrorAnswer(tctx, tool, args, toolNotFound(call.Name, names))
	if err != nil {
		return nil, err
	}
	if resp == nil {
		available := strings.Join(names, ", ")
		if available == "" {
			available = "none"
		}
		resp = &structpb.Struct{Fields: map[string]*structpb.Value{"error": structpb.NewStringValue(
			"Invoking `" + tool.Name() + "()` failed as no tool with that name is available. " +
				"The tools you can call are: " + available + ". " +
				"You could retry, but it is IMPORTANT that you only call a tool from that list.")}}
	}
	return responseEvent(ictx, tctx, call, tool.Name(), resp), nil
}

// responseEvent is the function response event of one call: authored by the
// agent, role user, with the actions the tool took.
func responseEvent(ictx *runtime.InvocationContext, tctx *runtime.ToolContext, call *v1.FunctionCall, name string, resp *structpb.Struct) *v1.Event {
	if resp == nil {
		resp = runtime.NullResult()
	}
	ev := ictx.NewEvent()
	ev.Content = &v1.Content{Role: "user", Parts: []*v1.Part{{
		FunctionResponse: &v1.FunctionResponse{Id: call.Id, Name: name, Response: resp},
	}}}
	ev.Actions = tctx.Actions
	return ev
}

// toolNotFound is ADK's error for a call to a tool the agent does not have.
func toolNotFound(name string, names []string) error {
	return &runtime.Error{
		Code:   runtime.CodeFailedPrecondition,
		Reason: runtime.ErrToolNotFound.Reason,
		Message: "Tool '" + name + "' not found.\nAvailable tools: " + strings.Join(names, ", ") +
			"\n\nPossible causes:\n  1. LLM hallucinated the function name - review agent instruction clarity" +
			"\n  2. Tool not registered - verify agent.tools list\n  3. Name mismatch - check for typos" +
			"\n\nSuggested fixes:\n  - Review agent instruction to ensure tool usage is clear" +
			"\n  - Verify tool is included in agent.tools list\n  - Check for typos in function name",
	}
}

// missingTool stands for an unknown tool in on-tool-error callbacks.
type missingTool struct{ name string }

func (m missingTool) Name() string                         { return m.name }
func (m missingTool) Description() string                  { return "Tool not found" }
func (m missingTool) Declaration() *v1.FunctionDeclaration { return nil }
func (m missingTool) IsLongRunning() bool                  { return false }
func (m missingTool) Run(*runtime.ToolContext, *structpb.Struct) (any, error) {
	return nil, toolNotFound(m.name, nil)
}
