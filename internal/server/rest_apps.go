package server

import (
	"encoding/json"
	"net/http"
	"strconv"

	"google.golang.org/protobuf/encoding/protojson"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// appSummary is ADK's AppInfo as GET /list-apps?detailed=true lists it.
type appSummary struct {
	Name          string `json:"name"`
	RootAgentName string `json:"rootAgentName"`
	Description   string `json:"description"`
	// Language is how the app is written: agentsvc's apps are Agent
	// Config YAML.
	Language      string `json:"language"`
	IsComputerUse bool   `json:"isComputerUse"`
}

// appInfo is ADK's AppInfo of GET /apps/{app}/app-info: the summary and
// every LLM agent of the tree.
type appInfo struct {
	appSummary
	Agents map[string]agentInfo `json:"agents"`
}

// agentInfo is ADK's AgentInfo of one LLM agent. Its tools are the
// declarations the model sees; a client tool, declared by each Connect
// client, shows by name only.
type agentInfo struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Instruction string            `json:"instruction"`
	Tools       []json.RawMessage `json:"tools"`
	SubAgents   []string          `json:"sub_agents"`
}

func summary(a *App) appSummary {
	root := a.Runner.App.Tree.Root()
	return appSummary{Name: a.Info.GetName(), RootAgentName: root.Name(), Description: root.Description(), Language: "yaml"}
}

// listApps answers GET /list-apps: the app names, or with detailed=true
// ADK's {"apps": [AppInfo...]}.
func (h *restRunner) listApps(w http.ResponseWriter, r *http.Request, _ map[string]string) {
	detailed := false
	if v := r.URL.Query().Get("detailed"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			h.fail(w, r, invalid("detailed: want true or false"))
			return
		}
		detailed = b
	}
	w.Header().Set("Content-Type", "application/json")
	if !detailed {
		_ = json.NewEncoder(w).Encode(h.s.names)
		return
	}
	out := struct {
		Apps []appSummary `json:"apps"`
	}{Apps: make([]appSummary, 0, len(h.s.names))}
	for _, name := range h.s.names {
		out.Apps = append(out.Apps, summary(h.s.apps[name]))
	}
	_ = json.NewEncoder(w).Encode(out)
}

// appInfoRoute answers GET /apps/{app_name}/app-info as ADK does: 400 when
// the root agent is not an LLM agent.
func (h *restRunner) appInfo(w http.ResponseWriter, r *http.Request, params map[string]string) {
	a, err := h.s.app(params["app_name"])
	if err != nil {
		h.fail(w, r, err)
		return
	}
	root := a.Runner.App.Tree.Root()
	llm := runtime.Describe(root).LLM
	if llm == nil {
		h.fail(w, r, invalid("Root agent is not an LlmAgent"))
		return
	}
	out := appInfo{appSummary: summary(a), Agents: map[string]agentInfo{}}
	infos := map[string]*api.AgentInfo{}
	indexAgents(a.Info.GetRootAgent(), infos)
	addAgentInfo(out.Agents, root, llm, infos)
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}

// addAgentInfo adds agent and its LLM descendants, as ADK walks them.
// Its tools come in the Agent Config's order (infos, by agent name): the
// declarations of the service's tools, the names of the client's.
func addAgentInfo(into map[string]agentInfo, agent runtime.Agent, llm *runtime.LLMDescription, infos map[string]*api.AgentInfo) {
	if _, seen := into[agent.Name()]; seen {
		return
	}
	info := agentInfo{Name: agent.Name(), Description: agent.Description(), Instruction: llm.Instruction,
		Tools: []json.RawMessage{}, SubAgents: []string{}}
	for _, sub := range agent.SubAgents() {
		if l := runtime.Describe(sub).LLM; l != nil {
			addAgentInfo(into, sub, l, infos)
			info.SubAgents = append(info.SubAgents, sub.Name())
		}
	}
	builtins := make(map[string]runtime.Tool, len(llm.Tools))
	for _, t := range llm.Tools {
		builtins[t.Name()] = t
	}
	for _, ti := range infos[agent.Name()].GetTools() {
		info.Tools = append(info.Tools, toolInfo(ti.GetName(), builtins[ti.GetName()]))
	}
	into[agent.Name()] = info
}

// indexAgents indexes the agent infos of a tree by name.
func indexAgents(a *api.AgentInfo, into map[string]*api.AgentInfo) {
	if a == nil {
		return
	}
	into[a.GetName()] = a
	for _, sub := range a.GetSubAgents() {
		indexAgents(sub, into)
	}
}

// toolInfo is a tool as genai's Tool: one function declaration; a tool
// without one (a client tool) by its name.
func toolInfo(name string, t runtime.Tool) json.RawMessage {
	var decl []byte
	if t != nil && t.Declaration() != nil {
		decl, _ = protojson.Marshal(t.Declaration())
	}
	if decl == nil {
		decl, _ = json.Marshal(map[string]string{"name": name})
	}
	b, _ := json.Marshal(map[string]any{"functionDeclarations": []json.RawMessage{decl}})
	return b
}

// telemetryConsent answers ADK's GET and POST /config/telemetry: agentsvc
// sends no usage telemetry anywhere, so consent is always false and is not
// stored.
func telemetryConsent(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"telemetry":false}` + "\n"))
}
