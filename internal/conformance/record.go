package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"
	"gopkg.in/yaml.v3"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Recorder is the plugin that records the invocations whose session state
// asks for it (RecordKey), as ADK's recordings plugin does: each model
// request with its responses and each tool call with its response, in the
// order they were made, added to the case's recordings file when the
// invocation ends. Safe for concurrent use.
type Recorder struct {
	root   string
	active active[*take]
}

// take is what one invocation recorded.
type take struct {
	path string
	msg  int

	mu      sync.Mutex
	order   []map[string]any          // every recording, in order
	pending map[string]map[string]any // agent → its model call still answering
	tools   map[string]map[string]any // call id → its tool call
}

// NewRecorder returns the recording plugin for case directories under
// root.
func NewRecorder(root string) (*Recorder, error) {
	real, err := realRoot(root)
	if err != nil {
		return nil, err
	}
	return &Recorder{root: real}, nil
}

// Plugin returns the runtime plugin.
func (r *Recorder) Plugin() *runtime.Plugin {
	return &runtime.Plugin{
		Name:        "adk_recordings",
		BeforeRun:   r.beforeRun,
		BeforeModel: r.beforeModel,
		AfterModel:  r.afterModel,
		BeforeTool:  r.beforeTool,
		AfterTool:   r.afterTool,
		AfterRun:    r.afterRun,
	}
}

func (r *Recorder) beforeRun(ictx *runtime.InvocationContext) (*v1.Content, error) {
	path, msg, ok, err := caseConfig(ictx, r.root, RecordKey)
	if !ok {
		return nil, err
	}
	return nil, r.active.add(ictx, &take{path: path, msg: msg,
		pending: map[string]map[string]any{}, tools: map[string]map[string]any{}})
}

func (r *Recorder) of(ictx *runtime.InvocationContext) *take {
	t, _ := r.active.get(ictx)
	return t
}

// beforeModel starts the recording of a model call with its request as the
// model is sent it.
func (r *Recorder) beforeModel(cctx *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
	t := r.of(cctx.InvocationContext)
	if t == nil {
		return nil, nil
	}
	dump, err := dumpMessage(req)
	if err != nil {
		return nil, err
	}
	dropEngineIDs(dump["contents"])
	dump["contents"] = withUserTurn(dump["contents"])
	schemaTypes(dump)
	agent := cctx.Agent.Name()
	rec := map[string]any{"user_message_index": t.msg, "agent_name": agent,
		"llm_recording": map[string]any{"llm_request": dump, "llm_responses": []any{}}}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending[agent] = rec
	t.order = append(t.order, rec)
	return nil, nil
}

// afterModel adds a response to the agent's model call; a whole one ends
// it.
func (r *Recorder) afterModel(cctx *runtime.CallbackContext, resp *v1.LlmResponse) (*v1.LlmResponse, error) {
	t := r.of(cctx.InvocationContext)
	if t == nil {
		return nil, nil
	}
	dump, err := dumpMessage(resp)
	if err != nil {
		return nil, err
	}
	agent := cctx.Agent.Name()
	t.mu.Lock()
	defer t.mu.Unlock()
	rec, ok := t.pending[agent]
	if !ok {
		return nil, nil
	}
	llm := rec["llm_recording"].(map[string]any)
	llm["llm_responses"] = append(llm["llm_responses"].([]any), dump)
	if !resp.GetPartial() {
		delete(t.pending, agent)
	}
	return nil, nil
}

func (r *Recorder) beforeTool(tctx *runtime.ToolContext, tool runtime.Tool, args *structpb.Struct) (*structpb.Struct, error) {
	t := r.of(tctx.InvocationContext)
	if t == nil || tctx.FunctionCallID == "" {
		return nil, nil
	}
	rec := map[string]any{"user_message_index": t.msg, "agent_name": tctx.Agent.Name(),
		"tool_recording": map[string]any{"tool_call": map[string]any{
			"id": tctx.FunctionCallID, "name": tool.Name(), "args": args.AsMap()}}}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.tools[tctx.FunctionCallID] = rec
	t.order = append(t.order, rec)
	return nil, nil
}

func (r *Recorder) afterTool(tctx *runtime.ToolContext, tool runtime.Tool, _, result *structpb.Struct) (*structpb.Struct, error) {
	t := r.of(tctx.InvocationContext)
	if t == nil {
		return nil, nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if rec, ok := t.tools[tctx.FunctionCallID]; ok {
		rec["tool_recording"].(map[string]any)["tool_response"] = map[string]any{
			"id": tctx.FunctionCallID, "name": tool.Name(), "response": result.AsMap()}
		delete(t.tools, tctx.FunctionCallID)
	}
	return nil, nil
}

// afterRun adds the invocation's complete recordings to the case's file.
func (r *Recorder) afterRun(ictx *runtime.InvocationContext) error {
	t, ok := r.active.remove(ictx)
	if !ok {
		return nil
	}
	var all []any
	if _, err := os.Stat(t.path); err == nil {
		doc, err := readYAML(t.path)
		if err != nil {
			return failure(ErrConfig, "%w", err)
		}
		all, _ = doc.(map[string]any)["recordings"].([]any)
	}
	t.mu.Lock()
	for _, rec := range t.order {
		if llm, ok := rec["llm_recording"].(map[string]any); ok && len(llm["llm_responses"].([]any)) == 0 {
			continue // a call that got no answer
		}
		if tr, ok := rec["tool_recording"].(map[string]any); ok && tr["tool_response"] == nil {
			continue
		}
		all = append(all, rec)
	}
	t.mu.Unlock()
	b, err := yaml.Marshal(map[string]any{"recordings": all})
	if err != nil {
		return fmt.Errorf("recordings: %w", err)
	}
	if err := os.WriteFile(t.path, b, 0o644); err != nil {
		return fmt.Errorf("recordings %s: %w", filepath.Base(t.path), err)
	}
	return nil
}

// schemaTypes writes the types of the declarations' parameter schemas as
// ADK's Schema model dumps them: in upper case (STRING, OBJECT).
func schemaTypes(req map[string]any) {
	cfg, _ := req["config"].(map[string]any)
	tools, _ := cfg["tools"].([]any)
	for _, t := range tools {
		decls, _ := t.(map[string]any)["function_declarations"].([]any)
		for _, d := range decls {
			if dm, ok := d.(map[string]any); ok {
				upperTypes(dm["parameters"])
			}
		}
	}
}

func upperTypes(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if s, ok := e.(string); ok && k == "type" {
				t[k] = strings.ToUpper(s)
				continue
			}
			upperTypes(e)
		}
	case []any:
		for _, e := range t {
			upperTypes(e)
		}
	}
}

// dumpMessage is a message as ADK dumps its pydantic model: field names in
// snake_case, unset fields left out.
func dumpMessage(m proto.Message) (map[string]any, error) {
	b, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	return out, nil
}
