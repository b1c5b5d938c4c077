package tools

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// AgentToolConfig declares an agent called as a tool (ADK's AgentTool).
type AgentToolConfig struct {
	// Agent is the agent the tool runs, with its sub-agents. Required.
	Agent runtime.Agent
	// InputSchema is the JSON schema of the agent's input: the tool's
	// parameters instead of a "request" string; nil for none.
	InputSchema *structpb.Struct
	// InputOrder is the order of the input schema's properties as written:
	// the agent's message lists the arguments in it.
	InputOrder *KeyOrder
	// OutputSchema, when set, makes the agent's final text a JSON object
	// that is the tool's result.
	OutputSchema *structpb.Struct
	// SkipSummarization ends the caller's turn with the tool's result.
	SkipSummarization bool
}

// AgentTool runs an agent as a tool, as ADK's AgentTool does: each call
// runs the agent on a session of its own, held in memory for the call and
// never stored, which starts with the caller's state; the state changes of
// the agent's events flow back into the call's actions, and the text of
// its last event (or the object its output schema describes) is the
// result. The agent reaches the caller's models, plugins and client. It is
// immutable and safe for concurrent use.
type AgentTool struct {
	cfg    AgentToolConfig
	tree   *runtime.Tree
	decl1x *v1.FunctionDeclaration
	decl2x *v1.FunctionDeclaration
}

// NewAgentTool returns the tool that runs cfg.Agent.
func NewAgentTool(cfg AgentToolConfig) (*AgentTool, error) {
	if cfg.Agent == nil {
		return nil, errors.New("tools: agent tool needs an agent")
	}
	tree, err := runtime.NewTree(cfg.Agent)
	if err != nil {
		return nil, fmt.Errorf("tools: agent tool %s: %w", cfg.Agent.Name(), err)
	}
	t := &AgentTool{cfg: cfg, tree: tree}
	name, desc := cfg.Agent.Name(), cfg.Agent.Description()
	params := cfg.InputSchema
	if params == nil {
		params = mustStruct(map[string]any{
			"type":       "object",
			"properties": map[string]any{"request": map[string]any{"type": "string"}},
			"required":   []any{"request"},
		})
	}
	t.decl1x = &v1.FunctionDeclaration{Name: name, Description: desc, Parameters: params}
	t.decl2x = &v1.FunctionDeclaration{Name: name, Description: desc, ParametersJsonSchema: structpb.NewStructValue(params)}
	if vertexAI() {
		// ADK declares the result's type to Vertex AI, not to the Gemini API.
		typ := "string"
		if cfg.OutputSchema != nil {
			typ = "object"
		}
		t.decl1x.Response = mustStruct(map[string]any{"type": typ})
		t.decl2x.Response = t.decl1x.Response
	}
	return t, nil
}

// vertexAI reports GOOGLE_GENAI_USE_VERTEXAI ("1" or "true", any case), the
// variant of Google's models ADK declares tools for.
func vertexAI() bool {
	return features.EnvEnabled(os.Getenv("GOOGLE_GENAI_USE_VERTEXAI"))
}

// Name implements [runtime.Tool]: the agent's name.
func (t *AgentTool) Name() string { return t.cfg.Agent.Name() }

// Agent returns the agent the tool runs.
func (t *AgentTool) Agent() runtime.Agent { return t.cfg.Agent }

// Description implements [runtime.Tool]: the agent's description.
func (t *AgentTool) Description() string { return t.cfg.Agent.Description() }

// Declaration implements [runtime.Tool].
func (t *AgentTool) Declaration() *v1.FunctionDeclaration { return t.decl1x }

// DeclarationFor implements [runtime.BehaviorDeclarer]: ADK 2.x declares
// the parameters as a JSON schema.
func (t *AgentTool) DeclarationFor(b runtime.Behavior) *v1.FunctionDeclaration {
	if b == runtime.Behavior2x {
		return t.decl2x
	}
	return t.decl1x
}

// IsLongRunning implements [runtime.Tool].
func (t *AgentTool) IsLongRunning() bool { return false }

// ToolType implements [runtime.ToolTyper].
func (t *AgentTool) ToolType() string { return "AgentTool" }

// Run implements [runtime.Tool].
func (t *AgentTool) Run(tctx *runtime.ToolContext, args *structpb.Struct) (any, error) {
	if t.cfg.SkipSummarization {
		tctx.Actions.SkipSummarization = true
	}
	text, err := t.input(args)
	if err != nil {
		return nil, err
	}
	app := tctx.App()
	store := memory.New()
	ctx := tctx.Context()
	sess, err := store.Create(ctx, sessions.CreateRequest{AppName: app.Name, UserID: tctx.UserID(), State: t.startState(tctx)})
	if err != nil {
		return nil, fmt.Errorf("tools: agent tool %s: %w", t.Name(), err)
	}
	runner := &runtime.Runner{
		App: &runtime.App{Name: app.Name, Tree: t.tree, Plugins: app.Plugins, Behavior: app.Behavior,
			NodePaths: app.NodePaths},
		Sessions: store, Models: tctx.Models(), MaxDepth: tctx.MaxDepth(), HistorySessions: -1,
	}
	inv, err := runner.Start(ctx, runtime.RunRequest{UserID: sess.UserId, SessionID: sess.Id,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}},
		Client:     tctx.ClientTools(), Callbacks: tctx.ClientCallbacks(),
		RunConfig: runtime.RunConfig{MaxLLMCalls: tctx.RunConfig.MaxLLMCalls}})
	if err != nil {
		return nil, fmt.Errorf("tools: agent tool %s: %w", t.Name(), err)
	}
	var last *v1.Content
	state := tctx.State()
	for ev, err := range inv.Events() {
		if err != nil {
			return nil, err
		}
		for k, v := range ev.GetActions().GetStateDelta().GetFields() {
			state.Set(k, v)
		}
		if ev.Content != nil {
			last = ev.Content
		}
	}
	return t.result(last)
}

// input is the agent's user message: the request, or with an input
// schema the arguments as the model that schema describes dumps them.
func (t *AgentTool) input(args *structpb.Struct) (string, error) {
	if t.cfg.InputSchema != nil {
		return modelJSON(t.cfg.InputSchema, t.cfg.InputOrder, args), nil
	}
	req, ok := args.GetFields()["request"]
	if !ok {
		return "", &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_TOOL_ARGUMENT_MISSING.String(),
			Message: fmt.Sprintf("agent tool %s was called without its request argument", t.Name())}
	}
	if s, ok := req.GetKind().(*structpb.Value_StringValue); ok {
		return s.StringValue, nil
	}
	b, _ := req.MarshalJSON()
	return string(b), nil
}

// startState is the caller's state without ADK's internal keys.
func (t *AgentTool) startState(tctx *runtime.ToolContext) *structpb.Struct {
	state := tctx.StateSnapshot()
	if state.Fields == nil {
		state.Fields = map[string]*structpb.Value{}
	}
	for k, v := range tctx.Actions.GetStateDelta().GetFields() {
		state.Fields[k] = v
	}
	for k := range state.Fields {
		if strings.HasPrefix(k, "_adk") {
			delete(state.Fields, k)
		}
	}
	return state
}

// result is the text of the last content's parts (not thoughts), one per
// line, or with an output schema the object that text holds.
func (t *AgentTool) result(last *v1.Content) (any, error) {
	var texts []string
	for _, p := range last.GetParts() {
		if p.Thought {
			continue
		}
		if s := partText(p); s != "" {
			texts = append(texts, s)
		}
	}
	text := strings.Join(texts, "\n")
	if t.cfg.OutputSchema == nil {
		return text, nil
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return nil, &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_OUTPUT_SCHEMA_MISMATCH.String(),
			Message: fmt.Sprintf("agent tool %s: the agent's answer is not the JSON object its output_schema describes", t.Name()), Err: err}
	}
	return obj, nil
}

// partText is what a part shows as text: its text, the output of code it
// ran, or the code.
func partText(p *v1.Part) string {
	switch {
	case p.Text != "":
		return p.Text
	case p.GetCodeExecutionResult().GetOutput() != "":
		return strings.TrimRight(p.GetCodeExecutionResult().GetOutput(), "\n")
	case p.GetExecutableCode().GetCode() != "":
		return p.GetExecutableCode().GetCode()
	}
	return ""
}
