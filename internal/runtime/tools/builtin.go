package tools

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// ExitLoopName is the name of the built-in tool that ends a LoopAgent.
const ExitLoopName = "exit_loop"

const exitLoopDescription = "Exits the loop.\n\nCall this function only when you are instructed to do so."

// ExitLoop is ADK's exit_loop tool: it escalates, which ends the enclosing
// LoopAgent, and skips summarization.
var ExitLoop runtime.Tool = exitLoop{decl: Declaration(ExitLoopName, exitLoopDescription, nil, nil, false)}

type exitLoop struct{ decl *v1.FunctionDeclaration }

func (exitLoop) Name() string                           { return ExitLoopName }
func (exitLoop) Description() string                    { return exitLoopDescription }
func (e exitLoop) Declaration() *v1.FunctionDeclaration { return e.decl }
func (exitLoop) IsLongRunning() bool                    { return false }

// ToolType implements [runtime.ToolTyper]: ADK's exit_loop is a FunctionTool.
func (exitLoop) ToolType() string { return "FunctionTool" }

func (exitLoop) Run(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
	tctx.Actions.Escalate = true
	tctx.Actions.SkipSummarization = true
	return nil, nil
}

// Builtins are the tools an Agent Config may name, by name.
var Builtins = map[string]runtime.Tool{
	ExitLoopName: ExitLoop,
}
