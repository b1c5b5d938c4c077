package runtime_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

const modelName = "test-model"

func newHarness(t *testing.T, cfg llmagent.Config, resps []*v1.LlmResponse, plugins ...*runtime.Plugin) (*et.Harness, *scripted.Model, string) {
	t.Helper()
	cfg.Name, cfg.Model = "root_agent", modelName
	agent, err := llmagent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, agent, plugins...)
	m := scripted.New(modelName, resps...)
	h.Models.Add(m)
	return h, m, h.NewSession(t, nil)
}

func TestPluginsRejectDuplicateNames(t *testing.T) {
	t.Parallel()
	if _, err := runtime.NewPlugins(&runtime.Plugin{Name: "a"}, &runtime.Plugin{Name: "a"}); err == nil {
		t.Error("duplicate plugin names accepted")
	}
	if _, err := runtime.NewPlugins(&runtime.Plugin{}); err == nil {
		t.Error("unnamed plugin accepted")
	}
}

// TestPluginHooksOrder runs every plugin hook of an invocation with a tool
// call and records the order they fire in.
func TestPluginHooksOrder(t *testing.T) {
	t.Parallel()
	var got []string
	rec := func(s string) { got = append(got, s) }
	p := &runtime.Plugin{
		Name: "recorder",
		OnUserMessage: func(_ *runtime.InvocationContext, msg *v1.Content) (*v1.Content, error) {
			rec("on_user_message " + msg.Parts[0].Text)
			return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "rewritten"}}}, nil
		},
		BeforeRun: func(*runtime.InvocationContext) (*v1.Content, error) { rec("before_run"); return nil, nil },
		OnEvent: func(_ *runtime.InvocationContext, ev *v1.Event) (*v1.Event, error) {
			rec("on_event " + et.Events([]*v1.Event{ev})[0])
			return nil, nil
		},
		AfterRun: func(*runtime.InvocationContext) error { rec("after_run"); return nil },
		BeforeAgent: func(a runtime.Agent, _ *runtime.CallbackContext) (*v1.Content, error) {
			rec("before_agent " + a.Name())
			return nil, nil
		},
		AfterAgent: func(a runtime.Agent, _ *runtime.CallbackContext) (*v1.Content, error) {
			rec("after_agent " + a.Name())
			return nil, nil
		},
		BeforeModel: func(*runtime.CallbackContext, *v1.LlmRequest) (*v1.LlmResponse, error) {
			rec("before_model")
			return nil, nil
		},
		AfterModel: func(*runtime.CallbackContext, *v1.LlmResponse) (*v1.LlmResponse, error) {
			rec("after_model")
			return nil, nil
		},
		BeforeTool: func(_ *runtime.ToolContext, tool runtime.Tool, _ *structpb.Struct) (*structpb.Struct, error) {
			rec("before_tool " + tool.Name())
			return nil, nil
		},
		AfterTool: func(_ *runtime.ToolContext, tool runtime.Tool, _, _ *structpb.Struct) (*structpb.Struct, error) {
			rec("after_tool " + tool.Name())
			return nil, nil
		},
		Close: func(context.Context) error { rec("close"); return nil },
	}
	echo, err := tools.NewFunction(tools.FunctionConfig{Name: "echo", Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) { return "hi", nil }})
	if err != nil {
		t.Fatal(err)
	}
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{echo}}, []*v1.LlmResponse{et.Call("echo", `{}`), et.Text("done")}, p)
	h.RunText(t, sid, "original")
	if err := h.Runner.App.Plugins.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"on_user_message original", "before_run", "before_agent root_agent",
		"before_model", "after_model", "on_event root_agent: call echo{}",
		"before_tool echo", "after_tool echo", `on_event root_agent: response echo{"result":"hi"}`,
		"before_model", "after_model", "on_event root_agent: done",
		"after_agent root_agent", "after_run", "close",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("hook order (-want +got):\n%s", d)
	}
	if text := m.Requests()[0].Contents[0].Parts[0].Text; text != "rewritten" {
		t.Errorf("the model saw %q, want the rewritten message", text)
	}
}

func TestPluginEarlyExits(t *testing.T) {
	t.Parallel()
	t.Run("before_run reply ends the invocation", func(t *testing.T) {
		t.Parallel()
		afterRun := 0
		p := &runtime.Plugin{Name: "gate", BeforeRun: func(*runtime.InvocationContext) (*v1.Content, error) {
			return &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "maintenance"}}}, nil
		}, AfterRun: func(*runtime.InvocationContext) error { afterRun++; return nil }}
		h, m, sid := newHarness(t, llmagent.Config{}, nil, p)
		events := h.RunText(t, sid, "hi")
		if d := cmp.Diff([]string{"model: maintenance"}, et.Events(events)); d != "" || m.Calls() != 0 {
			t.Errorf("events (-want +got):\n%s; model calls %d", d, m.Calls())
		}
		// As in ADK, the after-run callbacks run after an early exit too.
		if afterRun != 1 {
			t.Errorf("after_run ran %d times, want once", afterRun)
		}
		if n := len(h.Session(t, sid).Events); n != 2 {
			t.Errorf("stored %d events, want the user event and the reply", n)
		}
	})
	t.Run("on_event replaces what the caller sees", func(t *testing.T) {
		t.Parallel()
		p := &runtime.Plugin{Name: "redact", OnEvent: func(_ *runtime.InvocationContext, ev *v1.Event) (*v1.Event, error) {
			out := &v1.Event{Id: ev.Id, Author: ev.Author, Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "[redacted]"}}}}
			return out, nil
		}}
		h, _, sid := newHarness(t, llmagent.Config{}, []*v1.LlmResponse{et.Text("secret")}, p)
		events := h.RunText(t, sid, "hi")
		if d := cmp.Diff([]string{"root_agent: [redacted]"}, et.Events(events)); d != "" {
			t.Errorf("events (-want +got):\n%s", d)
		}
		if text := h.Session(t, sid).Events[1].Content.Parts[0].Text; text != "secret" {
			t.Errorf("stored %q: the stored event must be the original", text)
		}
	})
	t.Run("a plugin error fails the invocation", func(t *testing.T) {
		t.Parallel()
		p := &runtime.Plugin{Name: "broken", BeforeModel: func(*runtime.CallbackContext, *v1.LlmRequest) (*v1.LlmResponse, error) {
			return nil, errors.New("quota check failed")
		}}
		h, _, sid := newHarness(t, llmagent.Config{}, nil, p)
		_, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{})
		if err == nil || !strings.Contains(err.Error(), "quota check failed") {
			t.Errorf("err = %v", err)
		}
	})
}

// TestCancellationStopsToolAndKeepsSessionConsistent cancels an invocation
// while a tool runs: the run ends promptly with the context's error, the
// call is closed with an error response, and a new invocation on the
// session works, its model request pairing the call with that response.
func TestCancellationStopsToolAndKeepsSessionConsistent(t *testing.T) {
	t.Parallel()
	started := make(chan struct{})
	slow, err := tools.NewFunction(tools.FunctionConfig{Name: "slow", Run: func(tctx *runtime.ToolContext, _ *structpb.Struct) (any, error) {
		close(started)
		select {
		case <-tctx.Context().Done():
			return nil, tctx.Context().Err()
		case <-time.After(10 * time.Second):
			return "too late", nil
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	h, m, sid := newHarness(t, llmagent.Config{Tools: []runtime.Tool{slow}}, []*v1.LlmResponse{et.Call("slow", `{}`)})
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-started; cancel() }()
	begin := time.Now()
	_, err = h.Run(ctx, sid, et.UserText("go"), runtime.RunConfig{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	stored := h.Session(t, sid).Events
	closed := `root_agent: response slow{"error":"The tool call was not completed: the invocation was cancelled."}`
	if d := cmp.Diff([]string{"user: go", "root_agent: call slow{}", closed}, et.Events(stored)); d != "" {
		t.Errorf("stored (-want +got):\n%s", d)
	}
	if call, resp := stored[1], stored[2]; resp.InvocationId != call.InvocationId || resp.Branch != call.Branch ||
		resp.Content.Role != "user" || resp.Content.Parts[0].FunctionResponse.Id != call.Content.Parts[0].FunctionCall.Id {
		t.Errorf("closing response %v does not answer call %v", resp, call)
	}
	m.Enqueue(et.Text("fine"))
	if events := h.RunText(t, sid, "again"); len(events) != 1 {
		t.Errorf("next invocation events = %v", et.Events(events))
	}
	reqs := m.Requests()
	got := et.Contents(reqs[len(reqs)-1].Contents)
	want := []string{"user: go", "model: call slow{}",
		`user: response slow{"error":"The tool call was not completed: the invocation was cancelled."}`, "user: again"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("next model request (-want +got):\n%s", d)
	}
}
