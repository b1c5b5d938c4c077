package config

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// seedApp builds one of the seed workflow apps.
func seedApp(t *testing.T, name string) *runtime.App {
	t.Helper()
	apps, err := LoadAll(os.DirFS(filepath.Join("..", "..", "integration", "testdata", "workflows", "apps")))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range apps {
		if a.Name == name {
			app, _, err := Build(a)
			if err != nil {
				t.Fatal(err)
			}
			return app
		}
	}
	t.Fatalf("no app %s", name)
	return nil
}

// recordedEvents reads a recording's first turn's events and requests as
// JSON values.
func recordedEvents(t *testing.T, file string) (events []map[string]any, systems []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "integration", "testdata", "workflows", "adk213", file))
	if err != nil {
		t.Fatal(err)
	}
	var rec struct {
		Turns []struct {
			Events []map[string]any `json:"events"`
		} `json:"turns"`
		Requests []struct {
			SystemInstruction string `json:"system_instruction"`
		} `json:"requests"`
	}
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	for _, r := range rec.Requests {
		systems = append(systems, r.SystemInstruction)
	}
	return rec.Turns[0].Events, systems
}

// eventJSON keeps an event's author, content, node info, output, branch,
// isolation scope and state delta.
func eventJSON(t *testing.T, ev any) map[string]any {
	t.Helper()
	var m map[string]any
	if e, ok := ev.(*v1.Event); ok {
		b, _ := protojson.Marshal(e)
		_ = json.Unmarshal(b, &m)
	} else {
		b, _ := json.Marshal(ev)
		_ = json.Unmarshal(b, &m)
	}
	out := map[string]any{}
	for _, k := range []string{"author", "content", "nodeInfo", "output", "branch", "isolationScope"} {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	if sd, _ := m["actions"].(map[string]any)["stateDelta"].(map[string]any); len(sd) > 0 {
		out["stateDelta"] = sd
	}
	return out
}

func runSeed(t *testing.T, app *runtime.App, model *scripted.Model, client nodeFuncs, text string) ([]*v1.Event, *v1.Session) {
	t.Helper()
	store := memory.New()
	// One script answers every agent's model, in call order.
	r := &runtime.Runner{App: app, Sessions: store, Models: oneModel{model}}
	s, err := store.Create(t.Context(), sessions.CreateRequest{AppName: app.Name, UserID: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	req := runtime.RunRequest{UserID: "u1", SessionID: s.Id, NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}},
		RunConfig: runtime.RunConfig{MaxLLMCalls: 10}}
	if client != nil {
		req.Client = client
	}
	var events []*v1.Event
	for ev, err := range r.Run(t.Context(), req) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	got, err := store.Get(t.Context(), sessions.GetRequest{AppName: app.Name, UserID: "u1", SessionID: s.Id})
	if err != nil {
		t.Fatal(err)
	}
	return events, got
}

func fc(id, name, args string) *v1.LlmResponse {
	var s structpb.Struct
	if err := protojson.Unmarshal([]byte(args), &s); err != nil {
		panic(err)
	}
	return &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: name, Args: &s}}}}}
}

func compareSeed(t *testing.T, file string, events []*v1.Event, model *scripted.Model) {
	t.Helper()
	want, systems := recordedEvents(t, file)
	var got, wantJSON []map[string]any
	for _, ev := range events {
		got = append(got, eventJSON(t, ev))
	}
	for _, ev := range want {
		wantJSON = append(wantJSON, eventJSON(t, ev))
	}
	if diff := cmp.Diff(wantJSON, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	var gotSystems []string
	for _, r := range model.Requests() {
		gotSystems = append(gotSystems, r.GetConfig().GetSystemInstruction())
	}
	if diff := cmp.Diff(systems, gotSystems); diff != "" {
		t.Errorf("system instructions (-want +got):\n%s", diff)
	}
}

// TestBehaviorSeedTaskNode (seed 002 §3 Example 2, as YAML): the task node
// retries a finish_task call that fails validation, its output is the
// good call's arguments, and the function node after it gets them as its
// input; events as google-adk 2.13 records the wrapped form.
func TestBehaviorSeedTaskNode(t *testing.T) {
	t.Parallel()
	app := seedApp(t, "ner_pipeline")
	model := scripted.New("gemini-2.5-flash",
		fc("fc-bad", "finish_task", `{"people": "Steve Jobs, Tim Cook", "organisations": ["Apple Inc."]}`),
		fc("fc-good", "finish_task", `{"people": ["Steve Jobs", "Tim Cook"], "organisations": ["Apple Inc."], "locations": ["Cupertino"]}`))
	var input *structpb.Value
	client := nodeFuncs{"summarise": func(call *graph.Call) *graph.Result {
		input = call.Input
		n := func(k string) int { return len(call.Input.GetStructValue().GetFields()[k].GetListValue().GetValues()) }
		summary := structpb.NewStringValue("Found " + itoa(n("people")) + " people, " + itoa(n("organisations")) + " orgs, " +
			itoa(n("locations")) + " locations.")
		return &graph.Result{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{"summary": summary}}}
	}}
	events, s := runSeed(t, app, model, client, "Apple Inc. was founded by Steve Jobs in Cupertino. Tim Cook now leads the company.")
	compareSeed(t, "s3e2_task_wrapped.json", events, model)
	if got := len(input.GetStructValue().GetFields()["people"].GetListValue().GetValues()); got != 2 {
		t.Errorf("summarise input = %v", input)
	}
	if got := s.GetState().GetFields()["summary"].GetStringValue(); got != "Found 2 people, 1 orgs, 1 locations." {
		t.Errorf("summary = %q", got)
	}
}

// TestBehaviorSeedChatDelegation (seed 002 §3 Example 3, as YAML): the
// chat coordinator delegates to the researcher and then the writer, each
// in its own scope; events as google-adk 2.13 records them.
func TestBehaviorSeedChatDelegation(t *testing.T) {
	t.Parallel()
	app := seedApp(t, "research_write")
	model := scripted.New("scripted",
		fc("fc-research", "researcher", `{"request": "Gather the key milestones in the history of quantum computing."}`),
		fc("fc-research-done", "finish_task", `{"result": "Feynman proposed quantum simulation in 1981; Shor's algorithm followed in 1994."}`),
		fc("fc-write", "writer", `{"request": "Write a short article from: Feynman 1981, Shor 1994."}`),
		fc("fc-write-done", "finish_task", `{"result": "Quantum computing began with Feynman's 1981 proposal and took off with Shor's 1994 algorithm."}`),
		&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "I researched the history and had the writer produce a short article."}}}})
	events, _ := runSeed(t, app, model, nil, "Write a short article about the history of quantum computing.")
	compareSeed(t, "s3e3_chat_delegation.json", events, model)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// oneModel resolves every model name to one scripted model.
type oneModel struct{ m *scripted.Model }

func (o oneModel) Model(context.Context, string) (models.Model, error) { return o.m, nil }
