package config

import (
	"strings"
	"testing"
	"testing/fstest"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// modesApp is a workflow with a task node wrapping a task-mode agent and
// a chat coordinator delegating to two task-mode sub-agents.
var modesApp = fstest.MapFS{
	"w/root_agent.yaml": {Data: []byte(`agent_class: Workflow
name: ner_pipeline
nodes:
  - {name: entity_node, task: entity.yaml}
  - {name: coordinator, config_path: coordinator.yaml}
edges:
  - [START, [entity_node, coordinator]]
`)},
	"w/entity.yaml": {Data: []byte(`name: entity_extractor
model: scripted
mode: task
instruction: Extract all named entities.
output_schema:
  title: ExtractedEntities
  type: object
  properties:
    people: {type: array, items: {type: string}}
    organisations: {type: array, items: {type: string}}
    locations: {type: array, items: {type: string}}
  required: [people, organisations, locations]
`)},
	"w/coordinator.yaml": {Data: []byte(`name: coordinator
model: scripted
mode: chat
instruction: Coordinate.
sub_agents:
  - config_path: researcher.yaml
`)},
	"w/researcher.yaml": {Data: []byte("name: researcher\nmodel: scripted\nmode: task\ninstruction: Research.\n")},
}

func TestLoadWorkflowTaskAndChatNodes(t *testing.T) {
	t.Parallel()
	apps, err := LoadAll(modesApp)
	if err != nil {
		t.Fatal(err)
	}
	app, _, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	wf, ok := app.Tree.Root().(*graph.Workflow)
	if !ok {
		t.Fatalf("root is %T", app.Tree.Root())
	}
	nodes := wf.Nodes()
	if nodes[0].Kind != graph.TaskNode || nodes[0].Agent.Name() != "entity_extractor" {
		t.Errorf("entity_node = kind %d agent %v", nodes[0].Kind, nodes[0].Agent.Name())
	}
	if la, ok := nodes[0].Agent.(*llmagent.Agent); !ok || !la.IsTask() {
		t.Errorf("entity_extractor is not a task agent")
	}
	coord, ok := nodes[1].Agent.(*llmagent.Agent)
	if nodes[1].Kind != graph.AgentNode || !ok || !coord.IsChat() {
		t.Fatalf("coordinator = kind %d %T", nodes[1].Kind, nodes[1].Agent)
	}
	if sub, ok := coord.IsDelegation(&v1.FunctionCall{Name: "researcher"}); !ok || !sub.IsTask() {
		t.Error("researcher is not a delegation target")
	}
	if app.Tree.Find("researcher") == nil || app.Tree.Find("entity_extractor") == nil {
		t.Error("task agents are missing from the tree")
	}
}

// TestBehaviorTaskOutputErrorsInWrittenOrder runs the task node built from
// YAML: pydantic reports validation errors in the output schema's written
// property order, which the YAML keeps.
func TestBehaviorTaskOutputErrorsInWrittenOrder(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"w/root_agent.yaml": {Data: []byte("agent_class: Workflow\nname: ner_pipeline\nnodes:\n  - {name: entity_node, task: entity.yaml}\nedges:\n  - [START, entity_node]\n")},
		"w/entity.yaml":     modesApp["w/entity.yaml"],
	}
	apps, err := LoadAll(fsys)
	if err != nil {
		t.Fatal(err)
	}
	app, _, err := Build(apps[0])
	if err != nil {
		t.Fatal(err)
	}
	bad := &v1.FunctionCall{Id: "fc-bad", Name: "finish_task", Args: mustStruct(t, map[string]any{
		"people": "Steve Jobs, Tim Cook", "organisations": []any{"Apple Inc."}})}
	good := &v1.FunctionCall{Id: "fc-good", Name: "finish_task", Args: mustStruct(t, map[string]any{
		"people": []any{"Steve Jobs"}, "organisations": []any{}, "locations": []any{"Cupertino"}})}
	m := scripted.New("scripted",
		&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: bad}}}},
		&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: good}}}})
	store := memory.New()
	runner := &runtime.Runner{App: app, Sessions: store, Models: scripted.NewResolver(m)}
	s, err := store.Create(t.Context(), sessions.CreateRequest{AppName: app.Name, UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	var events []*v1.Event
	for ev, err := range runner.Run(t.Context(), runtime.RunRequest{UserID: "u", SessionID: s.Id,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Apple Inc. was founded by Steve Jobs in Cupertino."}}},
		RunConfig:  runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}}) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	if len(events) != 4 {
		t.Fatalf("%d events, want 4", len(events))
	}
	got := events[1].GetContent().GetParts()[0].GetFunctionResponse().GetResponse().GetFields()["error"].GetStringValue()
	want := "Invoking `finish_task()` failed due to validation errors:\n2 validation errors for ExtractedEntities\npeople\n" +
		"  Input should be a valid list [type=list_type, input_value='Steve Jobs, Tim Cook', input_type=str]\n" +
		"    For further information visit https://errors.pydantic.dev/2.14/v/list_type\nlocations\n" +
		"  Field required [type=missing, input_value={'people': 'Steve Jobs, T...ations': ['Apple Inc.']}, input_type=dict]\n" +
		"    For further information visit https://errors.pydantic.dev/2.14/v/missing\n" +
		"You could retry calling this tool, but it is IMPORTANT for you to provide all the mandatory parameters with correct types."
	if got != want {
		t.Errorf("error =\n%s\nwant\n%s", got, want)
	}
	if out := events[3].GetOutput().GetStructValue().GetFields()["locations"]; out == nil || events[3].GetAuthor() != "ner_pipeline" {
		t.Errorf("output event = %v", events[3])
	}
}

func TestWorkflowModeConfigErrorsNameFileAndField(t *testing.T) {
	t.Parallel()
	root := func(node string) []byte {
		return []byte("agent_class: Workflow\nname: wf\nnodes:\n  - " + node + "\nedges:\n  - [START, n]\n")
	}
	tests := []struct {
		name, node, agent, want string
		sub                     string
	}{
		{"task node of a chat agent", "{name: n, task: a.yaml}", "name: a\nmodel: m\nmode: chat\n",
			`w/root_agent.yaml: nodes[0].task: a.yaml must be an LlmAgent with mode task, not a LlmAgent with mode "chat"`, ""},
		{"task node of a workflow agent", "{name: n, task: a.yaml}", "agent_class: SequentialAgent\nname: a\nsub_agents:\n  - config_path: b.yaml\n",
			`w/root_agent.yaml: nodes[0].task: a.yaml must be an LlmAgent with mode task, not a SequentialAgent`, ""},
		{"task and function", "{name: n, task: a.yaml, function: f}", "name: a\nmodel: m\nmode: task\n",
			"w/root_agent.yaml: nodes[0]: set exactly one of function, config_path, join, tool and task", ""},
		{"retried task node", "{name: n, task: a.yaml, retry_config: {max_attempts: 1000}}", "name: a\nmodel: m\nmode: task\n",
			"w/root_agent.yaml: nodes[0].retry_config.max_attempts: must be at most 100", ""},
		{"task agent as an agent node", "{name: a, config_path: a.yaml}", "name: a\nmodel: m\nmode: task\n",
			"w/root_agent.yaml: nodes[0]: agent a has mode task", ""},
		{"unknown mode of a sub-agent", "{name: a, config_path: a.yaml}", "name: a\nmodel: m\nmode: chat\nsub_agents:\n  - config_path: b.yaml\n",
			`w/b.yaml: mode: "solo" is not single_turn, task or chat`, "name: b\nmodel: m\nmode: solo\n"},
		{"missing task file", "{name: n, task: nope.yaml}", "name: a\nmodel: m\n", "nope.yaml", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := root(tt.node)
			if strings.Contains(tt.node, "name: a,") {
				r = []byte(strings.Replace(string(r), "[START, n]", "[START, a]", 1))
			}
			sub := tt.sub
			if sub == "" {
				sub = "name: b\nmodel: m\n"
			}
			fsys := fstest.MapFS{"w/root_agent.yaml": {Data: r}, "w/a.yaml": {Data: []byte(tt.agent)},
				"w/b.yaml": {Data: []byte(sub)}}
			apps, err := LoadAll(fsys)
			if err == nil {
				_, _, err = Build(apps[0])
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want %q", err, tt.want)
			}
		})
	}
}

func mustStruct(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
