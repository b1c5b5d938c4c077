package tools

import (
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// ExampleTool is ADK's ExampleTool: few-shot examples added to the system
// instruction of each request whose invocation began with a text message.
// It declares nothing to the model.
type ExampleTool struct {
	gemini2, other string
}

// NewExampleTool returns the tool with its examples already written out,
// once as for Gemini 2 models (and requests without a model) and once as
// for other models, whose function calls and results ADK fences as
// tool_code and tool_outputs.
func NewExampleTool(gemini2, other string) *ExampleTool {
	return &ExampleTool{gemini2: gemini2, other: other}
}

// Name implements [runtime.Tool].
func (t *ExampleTool) Name() string { return "example_tool" }

// Description implements [runtime.Tool].
func (t *ExampleTool) Description() string { return "example tool" }

// Declaration implements [runtime.Tool]: nothing is declared.
func (t *ExampleTool) Declaration() *v1.FunctionDeclaration { return nil }

// IsLongRunning implements [runtime.Tool].
func (t *ExampleTool) IsLongRunning() bool { return false }

// Run implements [runtime.Tool]; the model is never told of the tool.
func (t *ExampleTool) Run(*runtime.ToolContext, *structpb.Struct) (any, error) {
	return map[string]any{"error": "example_tool cannot be called"}, nil
}

// ProcessRequest implements [runtime.RequestProcessor]: the examples join
// the system instruction when the invocation's message starts with text.
func (t *ExampleTool) ProcessRequest(ictx *runtime.InvocationContext, req *v1.LlmRequest) error {
	parts := ictx.UserContent.GetParts()
	if len(parts) == 0 || parts[0].GetText() == "" {
		return nil
	}
	text := t.other
	if req.GetModel() == "" || strings.Contains(req.GetModel(), "gemini-2") {
		text = t.gemini2
	}
	runtime.AppendInstruction(req, text)
	return nil
}
