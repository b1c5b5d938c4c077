package llmagent

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
	"github.com/agentsvc/agentsvc/internal/runtime/instructions"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// agentNameLabel is the label ADK sets on every model request.
const agentNameLabel = "adk_agent_name"

// request is one step's model request and the tools it declares.
type request struct {
	llm   *v1.LlmRequest
	model models.Model
	// procTools are the tools processors add (set_model_response,
	// transfer_to_agent), declared first; toolList holds the agent's tools
	// in declaration order; tools indexes both.
	procTools []runtime.Tool
	toolList  []runtime.Tool
	tools     map[string]runtime.Tool
	// toolsShared is set while tools is the agent's own index, which
	// addTool copies before changing.
	toolsShared bool
	// callCtx is the context the model call runs in once the model is
	// called (inside its call_llm span); nil before.
	callCtx *runtime.InvocationContext
	// events are the processors' events, yielded before the model call.
	events []*v1.Event
}

// buildRequest runs the request processors in ADK's order: basic,
// instructions, identity, contents, planning, output schema, agent
// transfer, then the tool declarations.
func (a *Agent) buildRequest(ictx *runtime.InvocationContext, history *contents.Cache) (*request, error) {
	r := &request{llm: &v1.LlmRequest{}}
	if err := a.resolveTools(ictx, r); err != nil {
		return nil, err
	}
	if err := a.basic(ictx, r); err != nil {
		return nil, err
	}
	instructionContent, err := a.instructions(ictx, r.llm)
	if err != nil {
		return nil, err
	}
	if !a.cfg.SingleTurn {
		a.identity(r.llm)
	}
	// ADK's compaction request processor, ahead of the contents.
	ictx.CompactBeforeRequest(a.cfg.Name)
	if err := a.contents(ictx, r.llm, instructionContent, history); err != nil {
		return nil, err
	}
	a.contextCache(ictx, r.llm)
	a.planRequest(r.llm)
	for ev, err := range a.codeExecutionRequest(ictx, r) {
		if err != nil {
			return nil, err
		}
		r.events = append(r.events, ev)
	}
	a.outputSchema(ictx, r)
	a.agentTransfer(ictx, r)
	if err := a.declareTools(ictx, r); err != nil {
		return nil, err
	}
	return r, nil
}

// stepTools are the tools a step's calls may name.
type stepTools struct {
	byName map[string]runtime.Tool
	// proc and own are the processors' tools and the agent's, as declared.
	proc, own []runtime.Tool
}

func (r *request) stepTools() stepTools {
	return stepTools{byName: r.tools, proc: r.procTools, own: r.toolList}
}

// names lists the tool names in the order of ADK's tools_dict: the
// processors' tools, then the agent's, each name where it first appears.
func (s stepTools) names() []string {
	names := make([]string, 0, len(s.proc)+len(s.own))
	for _, t := range slices.Concat(s.proc, s.own) {
		if !slices.Contains(names, t.Name()) {
			names = append(names, t.Name())
		}
	}
	return names
}

// resolveTools lists the agent's tools for this invocation: its own, then
// its toolsets', in order. A later tool of the same name replaces an earlier.
func (a *Agent) resolveTools(ictx *runtime.InvocationContext, r *request) error {
	if len(a.cfg.Tools) == 0 && len(a.cfg.Toolsets) == 0 {
		return nil
	}
	r.toolList = a.cfg.Tools
	if len(a.cfg.Toolsets) == 0 {
		r.tools, r.toolsShared = a.toolIndex, true
		return nil
	}
	for _, ts := range a.cfg.Toolsets {
		list, err := ts.Tools(ictx)
		if err != nil {
			return fmt.Errorf("llmagent %s: toolset: %w", a.cfg.Name, err)
		}
		if len(list) > 0 {
			r.toolList = append(r.toolList[:len(r.toolList):len(r.toolList)], list...)
		}
	}
	r.tools = make(map[string]runtime.Tool, len(r.toolList))
	for _, t := range r.toolList {
		r.tools[t.Name()] = t
	}
	return nil
}

// addTool indexes a tool a processor adds.
func (r *request) addTool(name string, t runtime.Tool) {
	if r.toolsShared || r.tools == nil {
		r.tools = maps.Clone(r.tools)
		if r.tools == nil {
			r.tools = map[string]runtime.Tool{}
		}
		r.toolsShared = false
	}
	r.tools[name] = t
}

// basic sets the model, a copy of the agent's generate config and the output
// schema (when the model need not combine it with tools).
func (a *Agent) basic(ictx *runtime.InvocationContext, r *request) error {
	name, err := a.modelName(ictx)
	if err != nil {
		return err
	}
	r.llm.Model = name
	if r.model, err = ictx.App().Plugins.Model(ictx, name); err != nil {
		return err
	}
	if r.model == nil {
		if r.model, err = ictx.Models().Model(ictx.Context(), name); err != nil {
			return runtime.AppConfigError(v1.ErrorReason_MODEL.String(), fmt.Errorf("model %q: %w", name, err))
		}
	}
	if a.cfg.GenerateContentConfig != nil {
		r.llm.Config = proto.CloneOf(a.cfg.GenerateContentConfig)
	} else {
		r.llm.Config = &v1.GenerateContentConfig{}
	}
	if a.cfg.OutputSchema != nil && a.cfg.Mode != ModeTask && (!a.hasTools() || nativeSchemaWithTools(r.model)) {
		r.llm.Config.ResponseSchema = a.cfg.OutputSchema
		r.llm.Config.ResponseMimeType = "application/json"
	}
	return nil
}

// modelName is the agent's model, or the nearest ancestor's.
func (a *Agent) modelName(ictx *runtime.InvocationContext) (string, error) {
	tree := ictx.App().Tree
	for ag := runtime.Agent(a); ag != nil; ag = tree.Parent(ag.Name()) {
		if la, ok := ag.(*Agent); ok && la.cfg.Model != "" {
			return la.cfg.Model, nil
		}
	}
	return "", runtime.AppConfigError(v1.ErrorReason_NO_MODEL.String(), fmt.Errorf("No model found for %s.", a.cfg.Name)) //nolint:staticcheck // ST1005: ADK's message, word for word.
}

// instructions appends the global, static and dynamic instructions. With a
// static instruction, the dynamic one is returned as user content for the
// contents processor to place.
func (a *Agent) instructions(ictx *runtime.InvocationContext, req *v1.LlmRequest) (*v1.Content, error) {
	if root, ok := ictx.App().Tree.Root().(*Agent); ok && root.cfg.GlobalInstruction != "" {
		si, err := a.inject(ictx, root.cfg.GlobalInstruction)
		if err != nil {
			return nil, err
		}
		runtime.AppendInstruction(req, si)
	}
	if a.cfg.StaticInstruction != "" {
		runtime.AppendInstruction(req, a.cfg.StaticInstruction)
	}
	if a.cfg.Instruction == "" {
		return nil, nil
	}
	si, err := a.inject(ictx, a.cfg.Instruction)
	if err != nil {
		return nil, err
	}
	if a.cfg.StaticInstruction != "" {
		return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: si}}}, nil
	}
	runtime.AppendInstruction(req, si)
	return nil, nil
}

func (a *Agent) inject(ictx *runtime.InvocationContext, template string) (string, error) {
	var loader instructions.ArtifactLoader
	if ictx.HasArtifacts() {
		loader = artifactText{ictx}
	}
	s, err := instructions.Inject(ictx.Context(), template, ictx.StateValue, loader)
	if err != nil {
		return "", runtime.AppConfigError(v1.ErrorReason_INSTRUCTION.String(), err)
	}
	return s, nil
}

// artifactText inserts an artifact's latest version as ADK does: Python's
// str() of the Part.
type artifactText struct{ ictx *runtime.InvocationContext }

// LoadArtifactText implements [instructions.ArtifactLoader].
func (a artifactText) LoadArtifactText(_ context.Context, name string) (string, bool, error) {
	part, err := a.ictx.LoadArtifact(name, artifacts.Latest)
	if err != nil || part == nil {
		return "", false, err
	}
	return pyfmt.PartStr(part), true, nil
}

// identity appends ADK's identity sentence.
func (a *Agent) identity(req *v1.LlmRequest) {
	si := `You are an agent. Your internal name is "` + a.cfg.Name + `".`
	if a.cfg.Description != "" {
		si += ` The description about you is "` + a.cfg.Description + `".`
	}
	runtime.AppendInstruction(req, si)
}

// contents sets the conversation history and places instruction content
// before the trailing run of user contents.
func (a *Agent) contents(ictx *runtime.InvocationContext, req *v1.LlmRequest, instruction *v1.Content, history *contents.Cache) error {
	list, err := contents.Build(ictx.Events(), a.cfg.Name, ictx.Branch,
		contents.Options{CurrentTurnOnly: a.cfg.IncludeContents == IncludeNone, KeepClientIDs: true, Cache: history,
			QuoteOtherAgents: ictx.App().Behavior == runtime.Behavior2x})
	if err != nil {
		return runtime.AppConfigError(v1.ErrorReason_CONTENTS.String(), err)
	}
	if instruction != nil {
		at := len(list)
		for at > 0 && list[at-1].Role == "user" {
			at--
		}
		list = append(list, nil)
		copy(list[at+1:], list[at:])
		list[at] = instruction
	}
	req.Contents = list
	return nil
}

// declareTools adds the step's tools to the request in order, as ADK's
// tools process the request: each declaration joins the first Tool of
// function declarations (made where the first one is declared), as the
// app's ADK behaviour declares it; a [runtime.RequestProcessor] changes the
// request itself too, e.g. adds a Tool or an instruction of its own.
func (a *Agent) declareTools(ictx *runtime.InvocationContext, r *request) error {
	var decls *v1.Tool
	for _, list := range [2][]runtime.Tool{r.procTools, r.toolList} {
		for _, t := range list {
			if r.tools[t.Name()] != t {
				continue // replaced by a later tool of the same name
			}
			if p, ok := t.(runtime.RequestProcessor); ok {
				if err := p.ProcessRequest(ictx, r.llm); err != nil {
					return err
				}
			}
			d := runtime.DeclarationFor(t, ictx.App().Behavior)
			if d == nil {
				continue
			}
			if decls == nil {
				decls = functionTool(r.llm.Config)
			}
			decls.FunctionDeclarations = append(decls.FunctionDeclarations, d)
		}
	}
	return nil
}

// functionTool returns the first Tool of function declarations of the
// request, added at the end when there is none.
func functionTool(cfg *v1.GenerateContentConfig) *v1.Tool {
	for _, t := range cfg.Tools {
		if len(t.FunctionDeclarations) > 0 {
			return t
		}
	}
	t := &v1.Tool{}
	cfg.Tools = append(cfg.Tools, t)
	return t
}
