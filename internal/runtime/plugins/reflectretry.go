package plugins

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// reflectRetryResponseType marks the responses of ReflectAndRetryToolPlugin.
const reflectRetryResponseType = "ERROR_HANDLED_BY_REFLECT_AND_RETRY_PLUGIN"

// newReflectAndRetry is ADK's ReflectAndRetryToolPlugin: a tool error
// becomes a response telling the model what failed and how to reflect
// before trying again, up to max_retries consecutive failures of that tool
// (counted per invocation, or over the app's life with tracking_scope
// "global"; a success starts the count again). Past the limit the error
// fails the invocation, or with throw_exception_if_retry_exceeded false
// becomes a response telling the model to stop using the tool. The end of
// the invocation itself (cancellation) is not a tool error.
func newReflectAndRetry(a *arguments) (*runtime.Plugin, error) {
	name, err := a.string("name", "reflect_retry_tool_plugin")
	if err != nil {
		return nil, err
	}
	p := &reflectRetry{maxRetries: 3, throw: true, counts: map[string]map[string]int{}}
	if n, ok, err := a.int("max_retries"); err != nil {
		return nil, err
	} else if ok {
		if n < 0 {
			return nil, errors.New("args.max_retries: must be a non-negative integer")
		}
		p.maxRetries = n
	}
	if p.throw, err = a.bool("throw_exception_if_retry_exceeded", true); err != nil {
		return nil, err
	}
	scope, err := a.string("tracking_scope", "invocation")
	if err != nil {
		return nil, err
	}
	switch scope {
	case "invocation":
	case "global":
		p.global = true
	default:
		return nil, fmt.Errorf("args.tracking_scope: want invocation or global, got %q", scope)
	}
	return &runtime.Plugin{Name: name, AfterTool: p.afterTool, OnToolError: p.onToolError, AfterRun: p.afterRun}, nil
}

// afterRun drops the counts of a finished invocation, which a long-lived
// service would otherwise keep for good.
func (p *reflectRetry) afterRun(ictx *runtime.InvocationContext) error {
	if !p.global {
		p.mu.Lock()
		delete(p.counts, ictx.InvocationID)
		p.mu.Unlock()
	}
	return nil
}

type reflectRetry struct {
	maxRetries int
	throw      bool
	global     bool

	mu sync.Mutex
	// counts holds, per scope, each tool's consecutive failures.
	counts map[string]map[string]int
}

func (p *reflectRetry) scope(tctx *runtime.ToolContext) string {
	if p.global {
		return "__global_reflect_and_retry_scope__"
	}
	return tctx.InvocationID
}

// afterTool resets the tool's count after a success.
func (p *reflectRetry) afterTool(tctx *runtime.ToolContext, tool runtime.Tool, _, result *structpb.Struct) (*structpb.Struct, error) {
	if result.GetFields()["response_type"].GetStringValue() == reflectRetryResponseType {
		return nil, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	key := p.scope(tctx)
	delete(p.counts[key], tool.Name())
	if len(p.counts[key]) == 0 {
		delete(p.counts, key)
	}
	return nil, nil
}

func (p *reflectRetry) onToolError(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct, err error) (*structpb.Struct, error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, nil
	}
	if p.maxRetries == 0 {
		if p.throw {
			return nil, err
		}
		return p.giveUpWithoutRetries(tool, args, err), nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	key := p.scope(tctx)
	if p.counts[key] == nil {
		p.counts[key] = map[string]int{}
	}
	p.counts[key][tool.Name()]++
	n := p.counts[key][tool.Name()]
	if n <= p.maxRetries {
		return p.reflect(tool, args, err, n), nil
	}
	if p.throw {
		return nil, err
	}
	return p.giveUp(tool, args, err), nil
}

// errorType names err's kind as ADK names the exception: ValueError for an
// unknown tool, ToolError otherwise.
func errorType(err error) string {
	if errors.Is(err, runtime.ErrToolNotFound) {
		return "ValueError"
	}
	return "ToolError"
}

// failure is ADK's ToolFailureResponse.
func failure(err error, retries int, guidance string) *structpb.Struct {
	return &structpb.Struct{Fields: map[string]*structpb.Value{
		"response_type":       structpb.NewStringValue(reflectRetryResponseType),
		"error_type":          structpb.NewStringValue(errorType(err)),
		"error_details":       structpb.NewStringValue(err.Error()),
		"retry_count":         structpb.NewNumberValue(float64(retries)),
		"reflection_guidance": structpb.NewStringValue(guidance),
	}}
}

func argsJSON(args *structpb.Struct) string {
	return pyfmt.JSONDumpsIndent(structpb.NewStructValue(args), 2)
}

// reflect is the response to the n-th consecutive failure, ADK's text.
func (p *reflectRetry) reflect(tool runtime.Tool, args *structpb.Struct, err error, n int) *structpb.Struct {
	guidance := "The call to tool `" + tool.Name() + "` failed.\n\n" +
		"**Error Details:**\n```\n" + errorType(err) + ": " + err.Error() + "\n```\n\n" +
		"**Tool Arguments Used:**\n```json\n" + argsJSON(args) + "\n```\n\n" +
		"**Reflection Guidance:**\n" +
		"This is retry attempt **" + strconv.Itoa(n) + " of " + strconv.Itoa(p.maxRetries) + "**. " +
		"Analyze the error and the arguments you provided. Do not repeat the exact same call. " +
		"Consider the following before your next attempt:\n\n" +
		"1.  **Invalid Parameters**: Does the error suggest that one or more arguments are incorrect, " +
		"badly formatted, or missing? Review the tool's schema and your arguments.\n" +
		"2.  **State or Preconditions**: Did a previous step fail or not produce the necessary state/resource " +
		"for this tool to succeed?\n" +
		"3.  **Alternative Approach**: Is this the right tool for the job? Could another tool or a different " +
		"sequence of steps achieve the goal?\n" +
		"4.  **Simplify the Task**: Can you break the problem down into smaller, simpler steps?\n" +
		"5.  **Wrong Function Name**: Does the error indicates the tool is not found? " +
		"Please check again and only use available tools.\n\n" +
		"Formulate a new plan based on your analysis and try a corrected or different approach."
	return failure(err, n, guidance)
}

// giveUp is the response once the retries are spent, ADK's text.
func (p *reflectRetry) giveUp(tool runtime.Tool, args *structpb.Struct, err error) *structpb.Struct {
	return p.giveUpText(tool, err, errorType(err)+": "+err.Error(), argsJSON(args))
}

// giveUpWithoutRetries is the response when no retry is allowed. ADK
// passes the error and the arguments the other way round there, so the
// model reads the arguments as the error (a Python dict) and the error's
// text as the arguments (a JSON string); agentsvc sends the same.
func (p *reflectRetry) giveUpWithoutRetries(tool runtime.Tool, args *structpb.Struct, err error) *structpb.Struct {
	details := pyfmt.StructRepr(args)
	resp := p.giveUpText(tool, err, details, pyfmt.JSONDumpsIndent(structpb.NewStringValue(err.Error()), 2))
	resp.Fields["error_type"] = structpb.NewStringValue("ToolError")
	resp.Fields["error_details"] = structpb.NewStringValue(details)
	return resp
}

func (p *reflectRetry) giveUpText(tool runtime.Tool, err error, lastError, lastArgs string) *structpb.Struct {
	guidance := "The tool `" + tool.Name() + "` has failed consecutively " + strconv.Itoa(p.maxRetries) +
		" times and the retry limit has been exceeded.\n\n" +
		"**Last Error:**\n```\n" + lastError + "\n```\n\n" +
		"**Last Arguments Used:**\n```json\n" + lastArgs + "\n```\n\n" +
		"**Final Instruction:**\n**Do not attempt to use the `" + tool.Name() + "` tool again for this task.** " +
		"You must now try a different approach. Acknowledge the failure and devise a new strategy, " +
		"potentially using other available tools or informing the user that the task cannot be completed."
	return failure(err, p.maxRetries, guidance)
}
