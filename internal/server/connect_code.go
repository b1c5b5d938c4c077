package server

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/codeexec"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// clientCodeAgent returns the first agent of the tree (sub-agents and the
// agents of agent tools included) whose code executor runs in the client,
// or "".
func clientCodeAgent(agent runtime.Agent) string {
	if llm := runtime.Describe(agent).LLM; llm != nil {
		if llm.ClientCode {
			return agent.Name()
		}
		for _, at := range llm.AgentTools {
			if name := clientCodeAgent(at); name != "" {
				return name
			}
		}
	}
	for _, sub := range agent.SubAgents() {
		if name := clientCodeAgent(sub); name != "" {
			return name
		}
	}
	return ""
}

// requireCodeExecutor fails, before anything is stored, an invocation of an
// app with a ClientCodeExecutor whose client did not declare that it runs
// code (any such app, on a run without a client).
func requireCodeExecutor(app *App, client *clientTools) error {
	if client != nil && client.runsCode {
		return nil
	}
	agent := clientCodeAgent(app.Runner.App.Tree.Root())
	if agent == "" {
		return nil
	}
	where := "run app " + app.Info.GetName() + " over Connect with start.code_executor set"
	if client != nil {
		where = "the client did not set start.code_executor"
	}
	return statusError(codes.FailedPrecondition, v1.ErrorReason_CODE_EXECUTOR_NOT_DECLARED.String(),
		fmt.Sprintf("agent %s runs the code it writes with a ClientCodeExecutor, in the client: %s", agent, where))
}

// errCodeTimeout is the cause of a code execution call whose timeout
// elapsed.
var errCodeTimeout = errors.New("server: code execution call timed out")

// RunCode implements [codeexec.Runner] with a code_execution message and
// the client's code_result, waiting at most the tool timeout: code that
// does not answer fails the invocation with DEADLINE_EXCEEDED, and a
// result out of bounds with INVALID_ARGUMENT.
func (c *clientTools) RunCode(ctx context.Context, call *codeexec.Call) (*codeexec.Result, error) {
	if !c.runsCode {
		return nil, llmagent.ErrNoCodeRunner(call.AgentName)
	}
	msg := &api.CodeExecutionCall{CallId: "code-" + runtime.NewEventID(), InvocationId: call.InvocationID,
		AgentName: call.AgentName, Language: call.Language, Code: call.Code, ExecutionId: call.ExecutionID}
	for _, f := range call.InputFiles {
		msg.InputFiles = append(msg.InputFiles, &api.File{Name: f.Name, MimeType: f.MimeType, Content: f.Content})
	}
	parent := ctx
	ctx, cancel := context.WithTimeoutCause(parent, c.timeout, errCodeTimeout)
	defer cancel()
	answer, err := c.await(ctx, msg.CallId, waitCode, &api.ConnectResponse{Kind: &api.ConnectResponse_CodeExecution{CodeExecution: msg}},
		func() error {
			return &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_CODE_RESULT_MISSING.String(),
				Message: fmt.Sprintf("the client closed its side of the stream without answering code execution call %s", msg.CallId)}
		})
	if err != nil {
		if parent.Err() == nil && errors.Is(context.Cause(ctx), errCodeTimeout) {
			return nil, &runtime.Error{Code: runtime.CodeDeadlineExceeded, Reason: v1.ErrorReason_CODE_EXECUTION_TIMEOUT.String(),
				Message: fmt.Sprintf("the code of agent %s did not finish within %s", call.AgentName, c.timeout), Err: err}
		}
		return nil, err
	}
	return codeResult(answer.GetCodeResult()), nil
}

// codeResult is the engine's view of a client's code result.
func codeResult(r *api.CodeResult) *codeexec.Result {
	res := &codeexec.Result{Stdout: r.GetStdout(), Stderr: r.GetStderr()}
	for _, f := range r.GetOutputFiles() {
		mime := f.GetMimeType()
		if mime == "" {
			mime = codeexec.DefaultMimeType
		}
		res.OutputFiles = append(res.OutputFiles, codeexec.File{Name: f.GetName(), MimeType: mime, Content: f.GetContent()})
	}
	return res
}

// checkCodeResult checks a Connect client's code result before it reaches
// the engine; a result out of bounds fails the invocation.
func checkCodeResult(r *api.CodeResult) error {
	if err := codeexec.CheckResult(codeResult(r)); err != nil {
		return invalid("code_result." + err.Error())
	}
	return nil
}
