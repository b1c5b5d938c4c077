package integration

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// engineOverGemini runs an agent with a Go weather tool on the real Gemini
// adapter, talking HTTP to an in-process fake Gemini server.
func engineOverGemini(t *testing.T) (*et.Harness, *fakegemini.Server, string) {
	t.Helper()
	fake := fakegemini.New()
	srv := httptest.NewServer(fake.Handler())
	t.Cleanup(srv.Close)
	provider, err := gemini.New(t.Context(), gemini.Config{APIKey: "test-key", BaseURL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	params, _ := structpb.NewStruct(map[string]any{
		"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}, "required": []any{"city"},
	})
	weather, err := tools.NewFunction(tools.FunctionConfig{
		Name: "get_weather", Description: "Returns the weather in a city.", Parameters: params,
		Run: func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return map[string]any{"city": args.Fields["city"].GetStringValue(), "sky": "sunny"}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	agent, err := llmagent.New(llmagent.Config{Name: "weather_agent", Model: "gemini-2.5-flash",
		Instruction: "Use get_weather.", Tools: []runtime.Tool{weather}})
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, agent)
	h.Runner.Models = provider
	return h, fake, h.NewSession(t, nil)
}

func TestEngineToolCallOverGeminiAPI(t *testing.T) {
	t.Parallel()
	h, fake, sid := engineOverGemini(t)
	if err := fake.Enqueue(
		fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "get_weather", Args: map[string]any{"city": "Paris"}})),
		fakegemini.Reply(fakegemini.Text("It is sunny in Paris.")),
	); err != nil {
		t.Fatal(err)
	}
	events := h.RunText(t, sid, "Weather in Paris?")
	want := []string{
		`weather_agent: call get_weather{"city":"Paris"}`,
		`weather_agent: response get_weather{"city":"Paris","sky":"sunny"}`,
		"weather_agent: It is sunny in Paris.",
	}
	if d := cmp.Diff(want, et.Events(events)); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}

	reqs := fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model requests = %d, want 2", len(reqs))
	}
	var body struct {
		Contents []struct {
			Role  string           `json:"role"`
			Parts []map[string]any `json:"parts"`
		} `json:"contents"`
	}
	if err := reqs[1].Decode(&body); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range body.Contents {
		for _, p := range c.Parts {
			b, _ := json.Marshal(p)
			got = append(got, c.Role+" "+string(b))
		}
	}
	wantReq := []string{
		`user {"text":"Weather in Paris?"}`,
		`model {"functionCall":{"args":{"city":"Paris"},"name":"get_weather"}}`,
		`user {"functionResponse":{"name":"get_weather","response":{"city":"Paris","sky":"sunny"}}}`,
	}
	if d := cmp.Diff(wantReq, got); d != "" {
		t.Errorf("second request contents (-want +got):\n%s", d)
	}
}

func TestEngineStreamingOverGeminiAPI(t *testing.T) {
	t.Parallel()
	h, fake, sid := engineOverGemini(t)
	if err := fake.Enqueue(fakegemini.TextChunks("It is ", "sunny.")); err != nil {
		t.Fatal(err)
	}
	events, err := h.Run(t.Context(), sid, et.UserText("Weather?"), runtime.RunConfig{Streaming: true})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, ev := range events {
		k := "final"
		if ev.GetPartial() {
			k = "partial"
		}
		kinds = append(kinds, k+" "+ev.GetContent().GetParts()[0].GetText())
	}
	if d := cmp.Diff([]string{"partial It is ", "partial sunny.", "final It is sunny."}, kinds); d != "" {
		t.Errorf("streamed (-want +got):\n%s", d)
	}
	stored := h.Session(t, sid).Events
	if len(stored) != 2 {
		t.Fatalf("stored %d events, want 2 (user, aggregated answer)", len(stored))
	}
	for _, ev := range stored {
		if ev.GetPartial() {
			t.Errorf("partial event stored: %v", ev)
		}
	}
	if !fake.Requests()[0].Stream {
		t.Error("the model was not called in streaming mode")
	}
}
