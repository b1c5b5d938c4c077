package devui

import (
	"encoding/json"
	"net/http"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/agentsvc/agentsvc/internal/runtime"
)

// buildGraph answers GET /dev/apps/{app}/build_graph with ADK 2.x's
// serialized app (its serialize_app_info): the name and the agent tree,
// each agent with the fields ADK's agent classes hold, in their order.
func buildGraph(h Host, w http.ResponseWriter, r *http.Request, p map[string]string) {
	a, err := h.App(p["app_name"])
	if err != nil {
		h.Fail(w, r, err)
		return
	}
	writeTraceJSON(w, orderedJSON{
		{"name", a.Name},
		{"root_agent", serializeAgent(a.Root, a.ClientTools)},
	})
}

// orderedJSON is a JSON object that keeps its keys in order.
type orderedJSON []struct {
	k string
	v any
}

func (o orderedJSON) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, kv := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(kv.k)
		v, err := json.Marshal(kv.v)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// serializeAgent is one agent as ADK's serialize_agent writes it.
func serializeAgent(agent runtime.Agent, remote map[string][]string) orderedJSON {
	subs := []any{}
	for _, s := range agent.SubAgents() {
		subs = append(subs, serializeAgent(s, remote))
	}
	out := orderedJSON{{"name", agent.Name()}, {"description", agent.Description()},
		{"rerun_on_resume", false}, {"wait_for_output", false}, {"sub_agents", subs}}
	switch d := runtime.Describe(agent); d.Kind {
	case runtime.KindLLM:
		cfg := d.LLM
		tools := []any{}
		for _, tool := range cfg.Tools {
			tools = append(tools, orderedJSON{{"name", tool.Name()}, {"type", "tool"}})
		}
		for _, name := range remote[agent.Name()] {
			tools = append(tools, orderedJSON{{"name", name}, {"type", "tool"}})
		}
		if cfg.Model != "" {
			out = append(out, orderedJSON{{"model", cfg.Model}}...)
		}
		out = append(out, orderedJSON{{"instruction", cfg.Instruction}, {"global_instruction", cfg.GlobalInstruction}}...)
		if cfg.StaticInstruction != "" {
			out = append(out, orderedJSON{{"static_instruction", cfg.StaticInstruction}}...)
		}
		out = append(out, orderedJSON{{"tools", tools},
			{"disallow_transfer_to_parent", cfg.DisallowTransferToParent},
			{"disallow_transfer_to_peers", cfg.DisallowTransferToPeers},
			{"include_contents", includeContents(cfg.IncludeContents)}}...)
		if cfg.GenerateContentConfig != nil {
			b, _ := protojson.MarshalOptions{UseProtoNames: true}.Marshal(cfg.GenerateContentConfig)
			out = append(out, orderedJSON{{"generate_content_config", json.RawMessage(b)}}...)
		}
		if cfg.OutputKey != "" {
			out = append(out, orderedJSON{{"output_key", cfg.OutputKey}}...)
		}
	case runtime.KindLoop:
		if n := d.MaxIterations; n > 0 {
			out = append(out, orderedJSON{{"max_iterations", n}}...)
		}
	}
	return out
}

func includeContents(v string) string {
	if v == "" {
		return "default"
	}
	return v
}
