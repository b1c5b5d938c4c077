package llmagent

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// Modes of an LlmAgent as an ADK 2.x workflow node.
const (
	// ModeSingleTurn answers its node input once.
	ModeSingleTurn = "single_turn"
	// ModeTask works on a delegated task until it calls finish_task.
	ModeTask = "task"
	// ModeChat converses, delegating to its task-mode sub-agents.
	ModeChat = "chat"
)

// FinishTaskName is the tool a task-mode agent calls when its task is done.
const FinishTaskName = "finish_task"

// Texts ADK 2.x sends for task mode, byte for byte.
const (
	finishTaskDescription = "Signal that this agent has completed its delegated task. Call this when you have " +
		"finished your delegated task."
	finishTaskOutputNote  = " Pass the required output data in the parameters."
	finishTaskInstruction = "Do NOT call `finish_task` prematurely. Use your available tools to\n" +
		"fully complete every aspect of the delegated task first. If the\n" +
		"task is unclear, ask the user for clarification before proceeding.\n" +
		"Once the task is fully complete, call `finish_task` by itself with\n" +
		"no accompanying text output."
	finishTaskSuccess = "Task completed."
	finishTaskFailed  = "Task failed."
	// defaultTaskOutputDescription is the docstring of ADK's default task
	// output model, which its JSON schema carries.
	defaultTaskOutputDescription = "Default output schema when no custom output_schema is provided.\n\n" +
		"Used by FinishTaskTool to generate the function declaration when the\n" +
		"task agent does not define an explicit output_schema."
	delegationNote = "\nIMPORTANT: This tool delegates execution to a specialized agent. Do NOT call this tool " +
		"in parallel with any other tools."
	delegationRequestDescription = "Detailed instructions or context for the task sub-agent."
)

// finishTaskTool is ADK's FinishTaskTool: it validates the task's output
// against the agent's output schema and answers that the task is done;
// the workflow takes the call's arguments as the task's output.
type finishTaskTool struct {
	schema *structpb.Struct
	order  *tools.KeyOrder
	// wrapKey, when set, is the one argument the output is wrapped in: the
	// output schema is not an object's.
	wrapKey string
	decl    *v1.FunctionDeclaration
}

func newFinishTaskTool(outputSchema *structpb.Struct, order *tools.KeyOrder) *finishTaskTool {
	t := &finishTaskTool{schema: outputSchema, order: order}
	description := finishTaskDescription
	params := outputSchema
	if outputSchema == nil {
		t.schema, t.order = defaultTaskOutput(), nil
		params = t.schema
	} else {
		description += finishTaskOutputNote
		if typ := outputSchema.GetFields()["type"].GetStringValue(); typ != "object" && typ != "OBJECT" {
			t.wrapKey = "result"
			params = wrapSchema(outputSchema, t.wrapKey)
		}
	}
	t.decl = &v1.FunctionDeclaration{Name: FinishTaskName, Description: description,
		ParametersJsonSchema: structpb.NewStructValue(params)}
	return t
}

// defaultTaskOutput is the JSON schema of ADK's default task output: one
// result string.
func defaultTaskOutput() *structpb.Struct {
	s, _ := structpb.NewStruct(map[string]any{
		"additionalProperties": false,
		"description":          defaultTaskOutputDescription,
		"properties":           map[string]any{"result": map[string]any{"title": "Result", "type": "string"}},
		"required":             []any{"result"},
		"title":                "_DefaultTaskOutput",
		"type":                 "object",
	})
	return s
}

// wrapSchema is an object schema whose one required property key holds
// a value of schema, its $defs moved to the top.
func wrapSchema(schema *structpb.Struct, key string) *structpb.Struct {
	inner := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for k, v := range schema.GetFields() {
		if k != "$defs" {
			inner.Fields[k] = v
		}
	}
	out := &structpb.Struct{Fields: map[string]*structpb.Value{
		"type":       structpb.NewStringValue("object"),
		"properties": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{key: structpb.NewStructValue(inner)}}),
		"required":   structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{structpb.NewStringValue(key)}}),
	}}
	if defs, ok := schema.GetFields()["$defs"]; ok {
		out.Fields["$defs"] = defs
	}
	return out
}

func (t *finishTaskTool) Name() string                         { return FinishTaskName }
func (t *finishTaskTool) Description() string                  { return t.decl.Description }
func (t *finishTaskTool) Declaration() *v1.FunctionDeclaration { return t.decl }
func (t *finishTaskTool) IsLongRunning() bool                  { return false }

// ProcessRequest implements [runtime.RequestProcessor]: ADK appends the
// task instruction where the tool is declared.
func (t *finishTaskTool) ProcessRequest(_ *runtime.InvocationContext, req *v1.LlmRequest) error {
	runtime.AppendInstruction(req, finishTaskInstruction)
	return nil
}

// Run validates the output; a failure answers with the errors, for the
// model to call again.
func (t *finishTaskTool) Run(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
	value := structpb.NewStructValue(args)
	if args == nil {
		value = structpb.NewStructValue(&structpb.Struct{})
	}
	if t.wrapKey != "" {
		value = args.GetFields()[t.wrapKey]
		if value == nil {
			value = structpb.NewNullValue()
		}
	}
	if msg := validationErrors(t.schema, t.order, value); msg != "" {
		return map[string]any{"error": "Invoking `" + FinishTaskName + "()` failed due to validation errors:\n" + msg +
			"\nYou could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters with correct types."}, nil
	}
	return finishTaskSuccess, nil
}

// TaskOutput is a task's output from the arguments of its finish_task
// call: the wrapped value when the output schema is not an object's.
func (a *Agent) TaskOutput(args *structpb.Struct) *structpb.Value {
	if a.finish != nil && a.finish.wrapKey != "" {
		if v, ok := args.GetFields()[a.finish.wrapKey]; ok {
			return v
		}
	}
	if args == nil {
		args = &structpb.Struct{}
	}
	return structpb.NewStructValue(args)
}

// IsFinishTaskDone reports whether ev answers a finish_task call with
// ADK's terminal result (done or failed), not with a validation error.
func IsFinishTaskDone(ev *v1.Event) bool {
	for _, fr := range runtime.FunctionResponses(ev) {
		if fr.GetName() == FinishTaskName {
			r := fr.GetResponse().GetFields()["result"].GetStringValue()
			return r == finishTaskSuccess || r == finishTaskFailed
		}
	}
	return false
}

// delegationTool is ADK's _TaskAgentTool: the coordinator's call that
// hands a task to a task-mode sub-agent. The workflow runs the sub-agent;
// outside a workflow the call is answered with an error.
type delegationTool struct {
	agent string
	decl  *v1.FunctionDeclaration
}

func newDelegationTool(sub runtime.Agent) *delegationTool {
	params, _ := structpb.NewStruct(map[string]any{
		"properties": map[string]any{"request": map[string]any{
			"description": delegationRequestDescription, "title": "Request", "type": "string"}},
		"required": []any{"request"},
		"title":    "_DefaultTaskInput",
		"type":     "object",
	})
	return &delegationTool{agent: sub.Name(), decl: &v1.FunctionDeclaration{Name: sub.Name(),
		Description:          pyfmt.TrimSpace(sub.Description() + delegationNote),
		ParametersJsonSchema: structpb.NewStructValue(params)}}
}

func (t *delegationTool) Name() string                         { return t.agent }
func (t *delegationTool) Description() string                  { return t.decl.Description }
func (t *delegationTool) Declaration() *v1.FunctionDeclaration { return t.decl }
func (t *delegationTool) IsLongRunning() bool                  { return false }

// Run answers a delegation the workflow did not take over.
func (t *delegationTool) Run(*runtime.ToolContext, *structpb.Struct) (any, error) {
	return map[string]any{"error": "Task agent " + t.agent + " runs only inside a workflow."}, nil
}

// IsDelegation reports whether a call of a's is a delegation to one of its
// task-mode sub-agents, and returns that agent.
func (a *Agent) IsDelegation(call *v1.FunctionCall) (*Agent, bool) {
	for _, s := range a.cfg.SubAgents {
		if sub, ok := s.(*Agent); ok && sub.cfg.Mode == ModeTask && sub.cfg.Name == call.GetName() {
			return sub, true
		}
	}
	return nil, false
}

// IsChat reports whether a runs as a chat-mode workflow node that
// delegates: its mode says so, or it has no mode and task-mode sub-agents.
// (An agent whose sub-agents are all transfer targets runs as it would as
// a sub-agent.)
func (a *Agent) IsChat() bool {
	return a.cfg.Mode == ModeChat || (a.cfg.Mode == "" && a.delegates())
}

// IsTask reports whether a is in task mode.
func (a *Agent) IsTask() bool { return a.cfg.Mode == ModeTask }

// modeTools are the tools ADK adds for the agent's mode: finish_task for a
// task agent, then a delegation tool per task-mode sub-agent.
func modeTools(cfg *Config) (*finishTaskTool, []runtime.Tool) {
	var out []runtime.Tool
	var finish *finishTaskTool
	if cfg.Mode == ModeTask {
		finish = newFinishTaskTool(cfg.OutputSchema, cfg.OutputOrder)
		out = append(out, finish)
	}
	for _, s := range cfg.SubAgents {
		if sub, ok := s.(*Agent); ok && sub.cfg.Mode == ModeTask {
			out = append(out, newDelegationTool(sub))
		}
	}
	return finish, out
}

// isDelegatedMode reports whether a mode is one ADK delegates to (task,
// single_turn): such an agent is never a transfer target, and is not told
// about the agents it may transfer to.
func isDelegatedMode(mode string) bool { return mode == ModeTask || mode == ModeSingleTurn }

// isDelegatedAgent reports whether ag is an LlmAgent of a delegated mode.
func isDelegatedAgent(ag runtime.Agent) bool {
	a, ok := ag.(*Agent)
	return ok && isDelegatedMode(a.cfg.Mode)
}
