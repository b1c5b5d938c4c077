package config

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// nodeFuncs runs function nodes in-process.
type nodeFuncs map[string]func(*graph.Call) *graph.Result

func (nodeFuncs) Tools() []runtime.Tool { return nil }

func (f nodeFuncs) RunNode(_ context.Context, call *graph.Call) (*graph.Result, error) {
	return f[call.Function](call), nil
}

// TestBehaviorSeedSentimentPipeline (seed 002 §3 Example 1, as YAML): the
// single-turn LlmAgent node's request is the node input alone under its
// instruction (no identity sentence), its answer is parsed by its output
// schema into its output and output_key, and the function node after it
// reads the state; events and request as google-adk 2.13 records them.
func TestBehaviorSeedSentimentPipeline(t *testing.T) {
	t.Parallel()
	app, err := buildFiles(map[string]string{"root_agent.yaml": `agent_class: Workflow
name: sentiment_pipeline
nodes:
  - {name: sentiment, config_path: sentiment.yaml}
  - {name: format_output, function: format_output}
edges:
  - [START, sentiment, format_output]
`, "sentiment.yaml": `name: sentiment
model: gemini-2.5-flash
instruction: Classify the sentiment of the text you receive. Return only JSON matching the schema.
output_key: sentiment_result
output_schema:
  type: object
  title: SentimentResult
  properties:
    sentiment: {type: string, title: Sentiment}
    confidence: {type: number, title: Confidence}
    reason: {type: string, title: Reason}
  required: [sentiment, confidence, reason]
`})
	if err != nil {
		t.Fatal(err)
	}
	model := scripted.New("gemini-2.5-flash", et.Text(`{"sentiment": "positive", "confidence": 0.97, "reason": "The text expresses strong enthusiasm."}`))
	store := memory.New()
	r := &runtime.Runner{App: app, Sessions: store, Models: scripted.NewResolver(model)}
	s, err := store.Create(t.Context(), sessions.CreateRequest{AppName: app.Name, UserID: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	client := nodeFuncs{"format_output": func(call *graph.Call) *graph.Result {
		res := call.State.GetFields()["sentiment_result"].GetStructValue().GetFields()
		report := "Sentiment: " + res["sentiment"].GetStringValue() + " (confidence 97%)"
		return &graph.Result{StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{"report": structpb.NewStringValue(report)}}}
	}}
	var events []*v1.Event
	for ev, err := range r.Run(t.Context(), runtime.RunRequest{UserID: "u1", SessionID: s.Id, Client: client,
		NewMessage: et.UserText("I absolutely love this product!"), RunConfig: runtime.RunConfig{MaxLLMCalls: 10}}) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	req := model.Requests()[0]
	if diff := cmp.Diff([]string{"user: I absolutely love this product!"}, et.Contents(req.Contents)); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}
	if got := req.GetConfig().GetSystemInstruction(); got != "Classify the sentiment of the text you receive. Return only JSON matching the schema." {
		t.Errorf("system instruction = %q", got)
	}
	type shape struct {
		Author, Path string
		OutputFor    []string
		Output       string
		Delta        string
	}
	var got []shape
	for _, ev := range events {
		out := ""
		if ev.Output != nil {
			b, _ := json.Marshal(ev.Output.AsInterface())
			out = string(b)
		}
		delta := ""
		if d := ev.GetActions().GetStateDelta(); d != nil {
			keys := []string{}
			for k := range d.GetFields() {
				keys = append(keys, k)
			}
			delta = keys[0]
		}
		got = append(got, shape{ev.Author, ev.GetNodeInfo().GetPath(), ev.GetNodeInfo().GetOutputFor(), out, delta})
	}
	want := []shape{
		{"sentiment", "sentiment_pipeline@1/sentiment@1", []string{"sentiment_pipeline@1/sentiment@1"},
			`{"confidence":0.97,"reason":"The text expresses strong enthusiasm.","sentiment":"positive"}`, "sentiment_result"},
		{"sentiment_pipeline", "sentiment_pipeline@1/format_output@1", nil, "", "report"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
