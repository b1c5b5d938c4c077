package server_test

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// guardAgent names a client callback of every kind, two before_model ones,
// and the client tool get_weather. Its names are Python-style paths, as
// adk-python's YAML writes them.
const guardAgent = `name: desk_agent
model: m
tools:
  - name: get_weather
before_agent_callbacks: [{name: guards.before_agent}]
after_agent_callbacks: [{name: guards.after_agent}]
before_model_callbacks: [{name: guards.before_model_a}, {name: guards.before_model_b}]
after_model_callbacks: [{name: after_model}]
on_model_error_callbacks: [{name: on_model_error}]
before_tool_callbacks: [{name: before_tool}]
after_tool_callbacks: [{name: after_tool}]
on_tool_error_callbacks: [{name: on_tool_error}]
`

var guardCallbacks = []string{"before_agent", "after_agent", "before_model_a", "before_model_b", "after_model",
	"on_model_error", "before_tool", "after_tool", "on_tool_error"}

func newGuardStack(t *testing.T, toolTimeout time.Duration) *stack {
	t.Helper()
	return &stack{newFixture(t, withApp(fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(guardAgent)}}),
		withConfig(func(cfg *server.Config) { cfg.ToolTimeout = toolTimeout }))}
}

// callbackHandler answers one callback call; nil means no override.
type callbackHandler func(*api.CallbackCall) *api.CallbackResult

// guardStart is the start message declaring get_weather and every callback.
func guardStart(sid, text string) *api.ConnectRequest {
	start := startMsg(sid, text, weatherTool)
	for _, name := range guardCallbacks {
		start.GetStart().Callbacks = append(start.GetStart().Callbacks, &api.CallbackDeclaration{Name: name})
	}
	return start
}

// driveClient plays the client of a Connect stream: it answers callback
// calls with handlers (no override for a callback without one) and tool
// calls with {"weather": "sunny"}, and returns what it saw, in order, and
// the stream's final status.
func driveClient(t *testing.T, stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse],
	handlers map[string]callbackHandler) ([]string, error) {
	t.Helper()
	var seen []string
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return seen, nil
		}
		if err != nil {
			return seen, err
		}
		switch {
		case m.GetCallbackCall() != nil:
			call := m.GetCallbackCall()
			seen = append(seen, "callback "+call.Name)
			res := &api.CallbackResult{}
			if h := handlers[call.Name]; h != nil {
				if res = h(call); res == nil {
					continue // no answer at all
				}
			}
			res.CallId = call.CallId
			// A stream the server ended fails Send with io.EOF; its
			// status comes with the next Recv.
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_CallbackResult{CallbackResult: res}}); err != nil && !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
		case m.GetToolCall() != nil:
			seen = append(seen, line(m))
			if err := stream.Send(resultMsg(m.GetToolCall().CallId, structpb.NewStringValue("sunny"))); err != nil && !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
		default:
			seen = append(seen, line(m))
		}
	}
}

func textResponse(text string) *v1.LlmResponse { return et.Text(text) }

// TestCallbacksOverConnect runs each kind of client callback and each
// short-circuit over a Connect stream: the order the client sees, the
// events, what the model was asked.
func TestCallbacksOverConnect(t *testing.T) {
	t.Parallel()
	answer := func(r *api.CallbackResult) callbackHandler {
		return func(*api.CallbackCall) *api.CallbackResult { return r }
	}
	tests := []struct {
		name     string
		model    []scripted.Step
		handlers map[string]callbackHandler
		want     []string
		// modelCalls is how many calls reached the model.
		modelCalls int
		check      func(t *testing.T, s *stack, sid string)
	}{{
		name:  "every callback returns nothing",
		model: []scripted.Step{scripted.Response(et.Call("get_weather", `{"city":"Paris"}`)), scripted.Response(textResponse("Sunny."))},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback after_model",
			`event desk_agent: call get_weather{"city":"Paris"}`, "callback before_tool",
			`tool_call call get_weather{"city":"Paris"}`, "callback after_tool",
			`event desk_agent: response get_weather{"result":"sunny"}`,
			"callback before_model_a", "callback before_model_b", "callback after_model", "event desk_agent: Sunny.",
			"callback after_agent", "done"},
		modelCalls: 2,
	}, {
		name:     "before_agent answers: the agent does not run",
		handlers: map[string]callbackHandler{"before_agent": answer(&api.CallbackResult{Override: &api.CallbackResult_Content{Content: &v1.Content{Parts: []*v1.Part{{Text: "Closed today."}}}}})},
		want:     []string{"callback before_agent", "event desk_agent: Closed today.", "done"},
	}, {
		name:  "after_agent adds an event",
		model: []scripted.Step{scripted.Response(textResponse("Hello."))},
		handlers: map[string]callbackHandler{"after_agent": answer(&api.CallbackResult{Override: &api.CallbackResult_Content{
			Content: &v1.Content{Parts: []*v1.Part{{Text: "Anything else?"}}}}})},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback after_model",
			"event desk_agent: Hello.", "callback after_agent", "event desk_agent: Anything else?", "done"},
		modelCalls: 1,
	}, {
		name: "before_model answers: no model call, no later before_model, no after_model",
		handlers: map[string]callbackHandler{"before_model_a": answer(&api.CallbackResult{
			StateDelta: et.Struct(`{"guarded":true}`),
			Override:   &api.CallbackResult_LlmResponse{LlmResponse: textResponse("Blocked.")}})},
		want: []string{"callback before_agent", "callback before_model_a", "event desk_agent: Blocked.", "callback after_agent", "done"},
		check: func(t *testing.T, s *stack, sid string) {
			sess := s.session(t, testContext(t), sid)
			if got := sess.State.Fields["guarded"].GetBoolValue(); !got {
				t.Errorf("state guarded = %v, want true", sess.State.Fields["guarded"])
			}
			last := sess.Events[len(sess.Events)-1]
			if last.GetActions().GetStateDelta().GetFields()["guarded"] == nil {
				t.Errorf("the answer's event has no guarded delta: %v", last.GetActions())
			}
		},
	}, {
		name:  "before_model edits the request",
		model: []scripted.Step{scripted.Response(textResponse("Bonjour."))},
		handlers: map[string]callbackHandler{"before_model_a": func(c *api.CallbackCall) *api.CallbackResult {
			req := c.LlmRequest
			req.Config.SystemInstruction = "Answer in French."
			return &api.CallbackResult{Override: &api.CallbackResult_LlmRequest{LlmRequest: req}}
		}, "before_model_b": func(c *api.CallbackCall) *api.CallbackResult {
			if c.LlmRequest.GetConfig().GetSystemInstruction() != "Answer in French." {
				return &api.CallbackResult{Error: "before_model_b saw " + c.LlmRequest.GetConfig().GetSystemInstruction()}
			}
			return &api.CallbackResult{}
		}},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback after_model",
			"event desk_agent: Bonjour.", "callback after_agent", "done"},
		modelCalls: 1,
		check: func(t *testing.T, s *stack, sid string) {
			if got := s.model.Requests()[0].GetConfig().GetSystemInstruction(); got != "Answer in French." {
				t.Errorf("the model's system instruction = %q", got)
			}
		},
	}, {
		name:     "after_model replaces the response",
		model:    []scripted.Step{scripted.Response(textResponse("My secret is 42."))},
		handlers: map[string]callbackHandler{"after_model": answer(&api.CallbackResult{Override: &api.CallbackResult_LlmResponse{LlmResponse: textResponse("[redacted]")}})},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback after_model",
			"event desk_agent: [redacted]", "callback after_agent", "done"},
		modelCalls: 1,
	}, {
		name:  "on_model_error recovers",
		model: []scripted.Step{scripted.Fail(&models.Error{HTTPStatus: 503, Status: "UNAVAILABLE", Message: "overloaded"})},
		handlers: map[string]callbackHandler{"on_model_error": func(c *api.CallbackCall) *api.CallbackResult {
			if c.Error == "" || c.LlmRequest == nil {
				return &api.CallbackResult{Error: "no error or request given"}
			}
			return &api.CallbackResult{Override: &api.CallbackResult_LlmResponse{LlmResponse: textResponse("Try again later.")}}
		}},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback on_model_error",
			"callback after_model", "event desk_agent: Try again later.", "callback after_agent", "done"},
		modelCalls: 1,
	}, {
		name:  "before_tool answers: the client's tool is not called",
		model: []scripted.Step{scripted.Response(et.Call("get_weather", `{"city":"Paris"}`)), scripted.Response(textResponse("Cached."))},
		handlers: map[string]callbackHandler{"before_tool": func(c *api.CallbackCall) *api.CallbackResult {
			if c.ToolCall.GetName() != "get_weather" || c.ToolCall.GetArgs().GetFields()["city"].GetStringValue() != "Paris" {
				return &api.CallbackResult{Error: fmt.Sprintf("tool call %v", c.ToolCall)}
			}
			return &api.CallbackResult{Override: &api.CallbackResult_ToolResponse{ToolResponse: et.Struct(`{"weather":"cached"}`)}}
		}},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback after_model",
			`event desk_agent: call get_weather{"city":"Paris"}`, "callback before_tool", "callback after_tool",
			`event desk_agent: response get_weather{"weather":"cached"}`,
			"callback before_model_a", "callback before_model_b", "callback after_model", "event desk_agent: Cached.",
			"callback after_agent", "done"},
		modelCalls: 2,
	}, {
		name:  "after_tool replaces the result",
		model: []scripted.Step{scripted.Response(et.Call("get_weather", `{"city":"Paris"}`)), scripted.Response(textResponse("Done."))},
		handlers: map[string]callbackHandler{"after_tool": func(c *api.CallbackCall) *api.CallbackResult {
			if c.ToolResponse.GetFields()["result"].GetStringValue() != "sunny" {
				return &api.CallbackResult{Error: fmt.Sprintf("tool response %v", c.ToolResponse)}
			}
			return &api.CallbackResult{Override: &api.CallbackResult_ToolResponse{ToolResponse: et.Struct(`{"weather":"redacted"}`)}}
		}},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback after_model",
			`event desk_agent: call get_weather{"city":"Paris"}`, "callback before_tool",
			`tool_call call get_weather{"city":"Paris"}`, "callback after_tool",
			`event desk_agent: response get_weather{"weather":"redacted"}`,
			"callback before_model_a", "callback before_model_b", "callback after_model", "event desk_agent: Done.",
			"callback after_agent", "done"},
		modelCalls: 2,
	}, {
		// As ADK 1.x: an unknown tool runs no before/after tool callbacks.
		name:  "on_tool_error answers for an unknown tool",
		model: []scripted.Step{scripted.Response(et.Call("get_news", `{}`)), scripted.Response(textResponse("No news."))},
		handlers: map[string]callbackHandler{"on_tool_error": func(c *api.CallbackCall) *api.CallbackResult {
			return &api.CallbackResult{Override: &api.CallbackResult_ToolResponse{ToolResponse: et.Struct(`{"error":"no news today"}`)}}
		}},
		want: []string{"callback before_agent", "callback before_model_a", "callback before_model_b", "callback after_model",
			`event desk_agent: call get_news{}`, "callback on_tool_error",
			`event desk_agent: response get_news{"error":"no news today"}`,
			"callback before_model_a", "callback before_model_b", "callback after_model", "event desk_agent: No news.",
			"callback after_agent", "done"},
		modelCalls: 2,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newGuardStack(t, 0)
			ctx := testContext(t)
			sid := s.newSession(t, ctx)
			s.model.Push(tt.model...)
			got, err := driveClient(t, s.connect(t, ctx, guardStart(sid, "Weather in Paris?")), tt.handlers)
			if err != nil {
				t.Fatalf("stream: %v (after %q)", err, got)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if n := s.model.Calls(); n != tt.modelCalls {
				t.Errorf("model calls = %d, want %d", n, tt.modelCalls)
			}
			if tt.check != nil {
				tt.check(t, s, sid)
			}
		})
	}
}

// TestCallbackRefusals: a callback the client did not declare, or any on
// Run, fails before anything is stored; a declaration no agent names is
// refused.
func TestCallbackRefusals(t *testing.T) {
	t.Parallel()
	s := newGuardStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)

	missing := guardStart(sid, "Hi")
	missing.GetStart().Callbacks = slices.DeleteFunc(missing.GetStart().Callbacks,
		func(d *api.CallbackDeclaration) bool { return d.Name == "after_tool" })
	_, err := recvAll(s.connect(t, ctx, missing))
	wantStatus(t, err, codes.FailedPrecondition, `agent desk_agent names the callback "after_tool" (after_tool_callbacks), which the client did not declare in start.callbacks`)

	unknown := guardStart(sid, "Hi")
	unknown.GetStart().Callbacks = append(unknown.GetStart().Callbacks, &api.CallbackDeclaration{Name: "pkg.audit"})
	_, err = recvAll(s.connect(t, ctx, unknown))
	wantStatus(t, err, codes.InvalidArgument, `start.callbacks[9]: no agent of app "desk" names the callback "audit" in its *_callbacks`)

	run, err := s.runner.Run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "Hi"}}}})
	if err == nil {
		_, err = run.Recv()
	}
	wantStatus(t, err, codes.FailedPrecondition, `agent desk_agent names the callback "before_agent" (before_agent_callbacks), which lives in a client: run app desk over Connect and declare it`)

	if n := len(s.session(t, ctx, sid).Events); n != 0 {
		t.Errorf("%d events stored by refused runs", n)
	}
	if n := s.model.Calls(); n != 0 {
		t.Errorf("%d model calls by refused runs", n)
	}
}

func wantStatus(t *testing.T, err error, code codes.Code, msg string) {
	t.Helper()
	st, _ := status.FromError(err)
	if st.Code() != code || st.Message() != msg {
		t.Errorf("status = %v %q, want %v %q", st.Code(), st.Message(), code, msg)
	}
}

// TestCallbackFailures: a callback that does not answer in time fails the
// invocation with DEADLINE_EXCEEDED and one that raised with UNKNOWN; the
// session keeps what was stored and runs again.
func TestCallbackFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		handler callbackHandler
		code    codes.Code
		msg     string
		ended   string
	}{
		{"timeout", func(*api.CallbackCall) *api.CallbackResult { return nil }, codes.DeadlineExceeded,
			"the after_tool callback after_tool of agent desk_agent did not answer within 200ms", "ran out of time"},
		{"raised", func(*api.CallbackCall) *api.CallbackResult { return &api.CallbackResult{Error: "KeyError: 'city'"} },
			codes.Unknown, "the after_tool callback after_tool of agent desk_agent failed: KeyError: 'city'", "failed"},
		{"wrong override", func(*api.CallbackCall) *api.CallbackResult {
			return &api.CallbackResult{Override: &api.CallbackResult_LlmResponse{LlmResponse: textResponse("x")}}
		}, codes.InvalidArgument,
			"the after_tool callback after_tool answered with llm_response; a after_tool callback may answer with tool_response", "failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newGuardStack(t, 200*time.Millisecond)
			ctx := testContext(t)
			sid := s.newSession(t, ctx)
			s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
			_, err := driveClient(t, s.connect(t, ctx, guardStart(sid, "Weather?")),
				map[string]callbackHandler{"after_tool": tt.handler})
			wantStatus(t, err, tt.code, tt.msg)
			stored := s.storedEvents(t, ctx, sid)
			wantStored := []string{"user: Weather?", `desk_agent: call get_weather{"city":"Paris"}`,
				`desk_agent: response get_weather{"error":"The tool call was not completed: the invocation ` + tt.ended + `."}`}
			if diff := cmp.Diff(wantStored, stored); diff != "" {
				t.Errorf("stored (-want +got):\n%s", diff)
			}
			// The session runs again; the dangling call is closed.
			s.model.Enqueue(et.Text("Hello again."))
			got, err := driveClient(t, s.connect(t, ctx, guardStart(sid, "Hi")), nil)
			if err != nil || got[len(got)-1] != "done" {
				t.Fatalf("second run: %v %q", err, got)
			}
		})
	}
}

// TestParallelToolCallbacks: the tool callbacks of parallel calls run at
// once, as ADK runs them.
func TestParallelToolCallbacks(t *testing.T) {
	t.Parallel()
	s := newGuardStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Calls(
		&v1.FunctionCall{Name: "get_weather", Args: et.Struct(`{"city":"Paris"}`)},
		&v1.FunctionCall{Name: "get_weather", Args: et.Struct(`{"city":"Rome"}`)},
	), et.Text("Done."))
	// Each before_tool answers only once both have been asked.
	var mu sync.Mutex
	asked := 0
	both := make(chan struct{})
	stream := s.connect(t, ctx, guardStart(sid, "Two cities"))
	var wg sync.WaitGroup
	handler := func(c *api.CallbackCall) *api.CallbackResult {
		mu.Lock()
		asked++
		if asked == 2 {
			close(both)
		}
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case <-both:
			case <-time.After(5 * time.Second):
			}
			_ = stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_CallbackResult{CallbackResult: &api.CallbackResult{CallId: c.CallId,
				Override: &api.CallbackResult_ToolResponse{ToolResponse: structOf(map[string]any{"city": c.ToolCall.Args.Fields["city"].GetStringValue()})}}}})
		}()
		return nil
	}
	got, err := driveClient(t, stream, map[string]callbackHandler{"before_tool": handler})
	wg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-both:
	default:
		t.Fatalf("the two before_tool calls were not out at once: %q", got)
	}
}
