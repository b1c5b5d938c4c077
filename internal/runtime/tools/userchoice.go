package tools

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// GetUserChoiceName is the name of ADK's get_user_choice tool.
const GetUserChoiceName = "get_user_choice"

const getUserChoiceDescription = "Provides the options to the user and asks them to choose one."

// GetUserChoice is ADK's get_user_choice: a long-running tool whose call
// shows the model's options to the client, which answers with the user's
// choice as the call's function response. The call itself has no result
// and skips summarization.
var GetUserChoice runtime.Tool = userChoice{
	decl1x: Declaration(GetUserChoiceName, getUserChoiceDescription, mustStruct(map[string]any{
		"type":       "object",
		"properties": map[string]any{"options": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
		"required":   []any{"options"},
	}), nil, true),
	decl2x: jsonSchemaDeclaration(Declaration(GetUserChoiceName, getUserChoiceDescription, nil, nil, true), map[string]any{
		"type":       "object",
		"title":      "get_user_choiceParams",
		"properties": map[string]any{"options": map[string]any{"type": "array", "title": "Options", "items": map[string]any{"type": "string"}}},
		"required":   []any{"options"},
	}),
}

type userChoice struct{ decl1x, decl2x *v1.FunctionDeclaration }

func (userChoice) Name() string                           { return GetUserChoiceName }
func (userChoice) Description() string                    { return getUserChoiceDescription }
func (u userChoice) Declaration() *v1.FunctionDeclaration { return u.decl1x }
func (userChoice) IsLongRunning() bool                    { return true }

// DeclarationFor implements [runtime.BehaviorDeclarer].
func (u userChoice) DeclarationFor(b runtime.Behavior) *v1.FunctionDeclaration {
	if b == runtime.Behavior2x {
		return u.decl2x
	}
	return u.decl1x
}

// ToolType implements [runtime.ToolTyper]: ADK's is a LongRunningFunctionTool.
func (userChoice) ToolType() string { return "LongRunningFunctionTool" }

func (userChoice) Run(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
	tctx.Actions.SkipSummarization = true
	return nil, nil
}

func jsonSchemaDeclaration(d *v1.FunctionDeclaration, schema map[string]any) *v1.FunctionDeclaration {
	d.ParametersJsonSchema = structpb.NewStructValue(mustStruct(schema))
	return d
}

func mustStruct(m map[string]any) *structpb.Struct {
	s, err := structpb.NewStruct(m)
	if err != nil {
		panic(err)
	}
	return s
}
