package tools

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// ExitLoopName is the name of the built-in tool that ends a LoopAgent.
const ExitLoopName = "exit_loop"

// exitLoopDescription is exit_loop's docstring, cleaned, which ADK 2.x
// declares.
const exitLoopDescription = "Exits the loop.\n\nCall this function only when you are instructed to do so."

// exitLoopDescription1x is the docstring as written, indentation included,
// which ADK 1.x declares.
const exitLoopDescription1x = "Exits the loop.\n\n  Call this function only when you are instructed to do so.\n  "

// ExitLoop is ADK's exit_loop tool: it escalates, which ends the enclosing
// LoopAgent, and skips summarization.
var ExitLoop runtime.Tool = exitLoop{
	decl1x: Declaration(ExitLoopName, exitLoopDescription1x, nil, nil, false),
	decl2x: Declaration(ExitLoopName, exitLoopDescription, nil, nil, false),
}

type exitLoop struct{ decl1x, decl2x *v1.FunctionDeclaration }

func (exitLoop) Name() string                           { return ExitLoopName }
func (exitLoop) Description() string                    { return exitLoopDescription }
func (e exitLoop) Declaration() *v1.FunctionDeclaration { return e.decl1x }
func (exitLoop) IsLongRunning() bool                    { return false }

// DeclarationFor implements [runtime.BehaviorDeclarer].
func (e exitLoop) DeclarationFor(b runtime.Behavior) *v1.FunctionDeclaration {
	if b == runtime.Behavior2x {
		return e.decl2x
	}
	return e.decl1x
}

// ToolType implements [runtime.ToolTyper]: ADK's exit_loop is a FunctionTool.
func (exitLoop) ToolType() string { return "FunctionTool" }

func (exitLoop) Run(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
	tctx.Actions.Escalate = true
	tctx.Actions.SkipSummarization = true
	return nil, nil
}

// Builtins are the tools an Agent Config may name, by name.
var Builtins = map[string]runtime.Tool{
	ExitLoopName:            ExitLoop,
	GetUserChoiceName:       GetUserChoice,
	"google_search":         GoogleSearch,
	"url_context":           URLContext,
	"enterprise_web_search": EnterpriseWebSearch,
	"google_maps_grounding": GoogleMapsGrounding,
	"load_memory":           LoadMemory{},
	"load_artifacts":        LoadArtifacts{},
	"preload_memory":        PreloadMemory{},
}
