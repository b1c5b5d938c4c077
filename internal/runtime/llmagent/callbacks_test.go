package llmagent_test

import (
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// trace records the order in which callbacks run.
type trace struct{ calls []string }

func (tr *trace) add(s string) { tr.calls = append(tr.calls, s) }

func TestBehaviorL5Callbacks(t *testing.T) {
	t.Parallel()
	t.Run("before_model answer skips the model and is not counted", func(t *testing.T) {
		t.Parallel()
		cfg := llmagent.Config{ModelCallbacks: runtime.ModelCallbacks{Before: []runtime.BeforeModelCallback{
			func(*runtime.CallbackContext, *v1.LlmRequest) (*v1.LlmResponse, error) { return et.Text("cached"), nil },
		}}}
		h, m, sid := setup(t, newAgent(t, cfg), nil)
		events, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{MaxLLMCalls: 1})
		if err != nil {
			t.Fatal(err)
		}
		diffPairs(t, "events", et.Events(events), []string{"root_agent: cached"})
		if m.Calls() != 0 {
			t.Errorf("model called %d times", m.Calls())
		}
	})
	t.Run("plugin first; a plugin answer skips the agent's callbacks", func(t *testing.T) {
		t.Parallel()
		tr := &trace{}
		plugins := []*runtime.Plugin{
			{Name: "p1", BeforeModel: func(*runtime.CallbackContext, *v1.LlmRequest) (*v1.LlmResponse, error) {
				tr.add("p1")
				return nil, nil
			}},
			{Name: "p2", BeforeModel: func(*runtime.CallbackContext, *v1.LlmRequest) (*v1.LlmResponse, error) {
				tr.add("p2")
				return et.Text("from plugin"), nil
			}},
			{Name: "p3", BeforeModel: func(*runtime.CallbackContext, *v1.LlmRequest) (*v1.LlmResponse, error) {
				tr.add("p3")
				return nil, nil
			}},
		}
		cfg := llmagent.Config{ModelCallbacks: runtime.ModelCallbacks{Before: []runtime.BeforeModelCallback{
			func(*runtime.CallbackContext, *v1.LlmRequest) (*v1.LlmResponse, error) {
				tr.add("agent")
				return nil, nil
			},
		}}}
		h, _, sid := setup(t, newAgent(t, cfg), nil, plugins...)
		events := h.RunText(t, sid, "hi")
		diffPairs(t, "events", et.Events(events), []string{"root_agent: from plugin"})
		if got := strings.Join(tr.calls, ","); got != "p1,p2" {
			t.Errorf("order = %s, want p1,p2", got)
		}
	})
	t.Run("after_model replaces; agent callbacks run in order until one answers", func(t *testing.T) {
		t.Parallel()
		tr := &trace{}
		cfg := llmagent.Config{ModelCallbacks: runtime.ModelCallbacks{After: []runtime.AfterModelCallback{
			func(*runtime.CallbackContext, *v1.LlmResponse) (*v1.LlmResponse, error) {
				tr.add("a1")
				return nil, nil
			},
			func(_ *runtime.CallbackContext, r *v1.LlmResponse) (*v1.LlmResponse, error) {
				tr.add("a2")
				return et.Text("edited " + r.Content.Parts[0].Text), nil
			},
			func(*runtime.CallbackContext, *v1.LlmResponse) (*v1.LlmResponse, error) {
				tr.add("a3")
				return nil, nil
			},
		}}}
		h, _, sid := setup(t, newAgent(t, cfg), []*v1.LlmResponse{et.Text("raw")})
		diffPairs(t, "events", et.Events(h.RunText(t, sid, "hi")), []string{"root_agent: edited raw"})
		if got := strings.Join(tr.calls, ","); got != "a1,a2" {
			t.Errorf("order = %s", got)
		}
	})
	t.Run("on_model_error answers for a failed call", func(t *testing.T) {
		t.Parallel()
		cfg := llmagent.Config{ModelCallbacks: runtime.ModelCallbacks{OnError: []runtime.OnModelErrorCallback{
			func(_ *runtime.CallbackContext, _ *v1.LlmRequest, err error) (*v1.LlmResponse, error) {
				return et.Text("fallback: " + err.Error()), nil
			},
		}}}
		h := et.New(t, newAgent(t, cfg))
		h.Models.Add(scripted.New(modelName).Push(scripted.Fail(errBoom)))
		sid := h.NewSession(t, nil)
		diffPairs(t, "events", et.Events(h.RunText(t, sid, "hi")), []string{"root_agent: fallback: boom"})
	})
	t.Run("before_agent content ends the agent; after_agent content adds an event", func(t *testing.T) {
		t.Parallel()
		stop := llmagent.Config{AgentCallbacks: runtime.AgentCallbacks{Before: []runtime.BeforeAgentCallback{
			func(c *runtime.CallbackContext) (*v1.Content, error) {
				c.State().Set("seen", structpb.NewBoolValue(true))
				return &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "closed today"}}}, nil
			},
		}}}
		h, m, sid := setup(t, newAgent(t, stop), []*v1.LlmResponse{et.Text("unused")})
		events := h.RunText(t, sid, "hi")
		diffPairs(t, "before", et.Events(events), []string{"root_agent: closed today"})
		if m.Calls() != 0 || !h.Session(t, sid).State.Fields["seen"].GetBoolValue() {
			t.Errorf("model calls = %d, state = %v", m.Calls(), h.Session(t, sid).State)
		}

		after := llmagent.Config{AgentCallbacks: runtime.AgentCallbacks{After: []runtime.AfterAgentCallback{
			func(*runtime.CallbackContext) (*v1.Content, error) {
				return &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "anything else?"}}}, nil
			},
		}}}
		h, _, sid = setup(t, newAgent(t, after), []*v1.LlmResponse{et.Text("answer")})
		diffPairs(t, "after", et.Events(h.RunText(t, sid, "hi")), []string{"root_agent: answer", "root_agent: anything else?"})
	})
	t.Run("tool callbacks: before replaces the run, after replaces the result, on_error answers", func(t *testing.T) {
		t.Parallel()
		ran := 0
		fail := toolFunc(t, "fail", false, func(*runtime.ToolContext, *structpb.Struct) (any, error) { ran++; return nil, errBoom })
		skip := toolFunc(t, "skip", false, func(*runtime.ToolContext, *structpb.Struct) (any, error) { ran++; return "ran", nil })
		edit := toolFunc(t, "edit", false, func(*runtime.ToolContext, *structpb.Struct) (any, error) { return "raw", nil })
		cfg := llmagent.Config{
			Tools: []runtime.Tool{fail, skip, edit},
			ToolCallbacks: runtime.ToolCallbacks{
				Before: []runtime.BeforeToolCallback{func(_ *runtime.ToolContext, tool runtime.Tool, _ *structpb.Struct) (*structpb.Struct, error) {
					if tool.Name() == "skip" {
						return structpb.NewStruct(map[string]any{"skipped": true})
					}
					return nil, nil
				}},
				After: []runtime.AfterToolCallback{func(_ *runtime.ToolContext, tool runtime.Tool, _, result *structpb.Struct) (*structpb.Struct, error) {
					if tool.Name() == "edit" {
						return structpb.NewStruct(map[string]any{"edited": result.Fields["result"].GetStringValue()})
					}
					return nil, nil
				}},
				OnError: []runtime.OnToolErrorCallback{func(_ *runtime.ToolContext, _ runtime.Tool, _ *structpb.Struct, err error) (*structpb.Struct, error) {
					return structpb.NewStruct(map[string]any{"error": err.Error()})
				}},
			},
		}
		calls := et.Calls(&v1.FunctionCall{Name: "fail"}, &v1.FunctionCall{Name: "skip"}, &v1.FunctionCall{Name: "edit"})
		h, _, sid := setup(t, newAgent(t, cfg), []*v1.LlmResponse{calls, et.Text("done")})
		events := h.RunText(t, sid, "hi")
		diffPairs(t, "responses", et.Events(events[1:2]), []string{
			`root_agent: response fail{"error":"boom"}`,
			`root_agent: response skip{"skipped":true}`,
			`root_agent: response edit{"edited":"raw"}`,
		})
		if ran != 1 {
			t.Errorf("tools ran %d times, want 1 (skip must not run)", ran)
		}
	})
}

type boomError struct{}

func (boomError) Error() string { return "boom" }

var errBoom error = boomError{}

func TestBehaviorL3StreamingPartialEvents(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
	h := et.New(t, agent)
	callChunk := et.Call("echo", `{"a":1}`)
	callChunk.Partial = proto.Bool(true)
	h.Models.Add(scripted.New(modelName).Push(
		scripted.Stream(partial(et.Text("Let me ")), partial(et.Text("check.")), callChunk),
		scripted.Stream(partial(et.Text("Done")), partial(et.Text(".")))))
	sid := h.NewSession(t, nil)
	events, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{Streaming: true})
	if err != nil {
		t.Fatal(err)
	}
	var streamed []string
	for _, ev := range events {
		kind := "final"
		if ev.GetPartial() {
			kind = "partial"
		}
		streamed = append(streamed, kind+" "+strings.Join(partStrings(ev), "|"))
	}
	want := []string{
		"partial Let me ", "partial check.", `partial call echo{"a":1}`,
		`final Let me check.|call echo{"a":1}`,
		`final response echo{"echo":{"a":1}}`,
		"partial Done", "partial .", "final Done.",
	}
	if d := cmpDiff(want, streamed); d != "" {
		t.Errorf("streamed events (-want +got):\n%s", d)
	}
	for _, ev := range h.Session(t, sid).Events {
		if ev.GetPartial() {
			t.Errorf("partial event %s was stored", ev.Id)
		}
	}
	if n := len(h.Session(t, sid).Events); n != 4 {
		t.Errorf("stored %d events, want 4 (user, call, response, answer)", n)
	}
}

func partial(r *v1.LlmResponse) *v1.LlmResponse { r.Partial = proto.Bool(true); return r }

func partStrings(ev *v1.Event) []string {
	var out []string
	for _, p := range et.Events([]*v1.Event{ev}) {
		out = append(out, strings.SplitN(p, ": ", 2)[1])
	}
	return out
}

// TestBehaviorC4CallbacksSeeClearedIDs checks that a before-model callback
// sees the request as ADK builds it (engine-made ids cleared) and that
// editing it cannot reach the stored events.
func TestBehaviorC4CallbacksSeeClearedIDs(t *testing.T) {
	t.Parallel()
	var seen []string
	cfg := llmagent.Config{
		Tools: []runtime.Tool{echoTool(t, "echo")},
		ModelCallbacks: runtime.ModelCallbacks{Before: []runtime.BeforeModelCallback{
			func(_ *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
				for _, c := range req.Contents {
					for _, p := range c.Parts {
						if p.FunctionCall != nil {
							seen = append(seen, "call id="+p.FunctionCall.Id)
							p.FunctionCall.Name = "edited"
						}
					}
				}
				return nil, nil
			},
		}},
	}
	h, _, sid := setup(t, newAgent(t, cfg), []*v1.LlmResponse{et.Call("echo", `{}`), et.Text("done")})
	h.RunText(t, sid, "hi")
	if strings.Join(seen, ",") != "call id=" {
		t.Errorf("callback saw %v, want one call with a cleared id", seen)
	}
	call := h.Session(t, sid).Events[1].Content.Parts[0].FunctionCall
	if call.Name != "echo" || !strings.HasPrefix(call.Id, "adk-") {
		t.Errorf("stored call = %v: the callback's edit reached the session", call)
	}
}

// TestBehaviorC4CallbackEditsStayInTheirRequest checks that a part a
// before-model callback adds to a content of one request is not in the
// next request of the invocation, which is built from the same history.
func TestBehaviorC4CallbackEditsStayInTheirRequest(t *testing.T) {
	t.Parallel()
	calls := 0
	cfg := llmagent.Config{
		Tools: []runtime.Tool{echoTool(t, "echo")},
		ModelCallbacks: runtime.ModelCallbacks{Before: []runtime.BeforeModelCallback{
			func(_ *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
				if calls++; calls == 2 {
					last := req.Contents[len(req.Contents)-1]
					last.Parts = append(last.Parts, &v1.Part{Text: "added"})
				}
				return nil, nil
			},
		}},
	}
	h, m, sid := setup(t, newAgent(t, cfg), []*v1.LlmResponse{et.Call("echo", `{}`), et.Call("echo", `{}`), et.Text("done")})
	h.RunText(t, sid, "hi")
	diffPairs(t, "third request", et.Contents(m.Requests()[2].Contents), []string{
		"user: hi", "model: call echo{}", "user: response echo{\"echo\":{}}", "model: call echo{}", "user: response echo{\"echo\":{}}",
	})
}
