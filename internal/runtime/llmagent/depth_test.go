package llmagent_test

import (
	"errors"
	"strings"
	"testing"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// callNested is a model answer calling "f" with arguments nested depth
// levels deep, the arguments object included.
func callNested(depth int) *v1.LlmResponse {
	args := &structpb.Struct{Fields: map[string]*structpb.Value{"x": structpb.NewNumberValue(1)}}
	for range depth - 1 {
		args = &structpb.Struct{Fields: map[string]*structpb.Value{"x": structpb.NewStructValue(args)}}
	}
	return &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Name: "f", Args: args}}}}}
}

func TestModelResponseDepthCap(t *testing.T) {
	t.Parallel()
	fallback := llmagent.Config{ModelCallbacks: runtime.ModelCallbacks{OnError: []runtime.OnModelErrorCallback{
		func(_ *runtime.CallbackContext, _ *v1.LlmRequest, err error) (*v1.LlmResponse, error) {
			return et.Text("fallback: " + err.Error()), nil
		},
	}}}
	tests := []struct {
		name     string
		cfg      llmagent.Config
		maxDepth int
		stream   bool
		steps    []scripted.Step
		want     []string // yielded events
		wantErr  bool
		stored   string // the stored events, "author: part" joined with " | "
	}{
		{name: "a response over the cap fails the model call", maxDepth: 3,
			steps: []scripted.Step{scripted.Response(callNested(4))}, wantErr: true, stored: "user: hi"},
		{name: "a response at the cap passes", maxDepth: 3,
			steps: []scripted.Step{scripted.Response(callNested(3)), scripted.Response(et.Text("done"))},
			// The call is stored; the unknown tool then fails the run.
			want: []string{`root_agent: call f{"x":{"x":{"x":1}}}`}, wantErr: true},
		{name: "the default cap", steps: []scripted.Step{scripted.Response(callNested(65))}, wantErr: true, stored: "user: hi"},
		{name: "on_model_error callbacks answer for it", cfg: fallback, maxDepth: 3,
			steps: []scripted.Step{scripted.Response(callNested(4))},
			want:  []string{"root_agent: fallback: runtime: check model response: model error 502 INVALID_RESPONSE: the model answered with a value nested too deep: llm_response.content.parts[0].function_call.args.x.x.x is nested more than 3 levels deep"}},
		{name: "a streamed chunk over the cap ends the stream", maxDepth: 3, stream: true,
			steps: []scripted.Step{scripted.Stream(et.Text("Let me"), callNested(4), et.Text("never"))},
			want:  []string{"root_agent: Let me"}, wantErr: true, stored: "user: hi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := et.New(t, newAgent(t, tt.cfg))
			h.Runner.MaxDepth = tt.maxDepth
			h.Models.Add(scripted.New(modelName).Push(tt.steps...))
			sid := h.NewSession(t, nil)
			events, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{Streaming: tt.stream, MaxLLMCalls: 10})
			if diff := cmpDiff(tt.want, nilIfEmpty(et.Events(events))); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			var merr *models.Error
			switch {
			case !tt.wantErr && err != nil:
				t.Fatalf("run: %v", err)
			case tt.wantErr && tt.stored != "" && (!errors.As(err, &merr) || merr.HTTPStatus != 502 || merr.Status != "INVALID_RESPONSE"):
				t.Fatalf("run error = %v, want a model error 502 INVALID_RESPONSE", err)
			}
			if tt.stored != "" {
				if got := strings.Join(et.Events(h.Session(t, sid).Events), " | "); got != tt.stored {
					t.Errorf("stored = %q, want %q", got, tt.stored)
				}
			}
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}
