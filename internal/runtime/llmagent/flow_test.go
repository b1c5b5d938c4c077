package llmagent_test

import (
	"errors"
	"strings"
	"testing"

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

// newAgent returns an LLM agent on the test model.
func newAgent(t testing.TB, cfg llmagent.Config) *llmagent.Agent {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "root_agent"
	}
	if cfg.Model == "" {
		cfg.Model = modelName
	}
	a, err := llmagent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// setup returns a harness for agent with a scripted model answering resps.
func setup(t testing.TB, agent runtime.Agent, resps []*v1.LlmResponse, plugins ...*runtime.Plugin) (*et.Harness, *scripted.Model, string) {
	t.Helper()
	h := et.New(t, agent, plugins...)
	m := scripted.New(modelName, resps...)
	h.Models.Add(m)
	return h, m, h.NewSession(t, nil)
}

// echoTool returns its arguments under "echo".
func echoTool(t testing.TB, name string, required ...string) *tools.Function {
	t.Helper()
	req := make([]any, len(required))
	for i, r := range required {
		req[i] = r
	}
	params, _ := structpb.NewStruct(map[string]any{"type": "object", "required": req})
	f, err := tools.NewFunction(tools.FunctionConfig{
		Name: name, Description: "Echoes its arguments.", Parameters: params,
		Run: func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return map[string]any{"echo": args.AsMap()}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func toolFunc(t testing.TB, name string, longRunning bool, run func(*runtime.ToolContext, *structpb.Struct) (any, error)) *tools.Function {
	t.Helper()
	f, err := tools.NewFunction(tools.FunctionConfig{Name: name, Description: "A test tool.", LongRunning: longRunning, Run: run})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func diffPairs(t *testing.T, what string, got, want []string) {
	t.Helper()
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("%s mismatch (-want +got):\n%s", what, d)
	}
}

func TestBehaviorL2ToolCallThenAnswer(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{et.Call("echo", `{"x":1}`), et.Text("done")})

	events := h.RunText(t, sid, "hi")
	diffPairs(t, "events", et.Events(events), []string{
		`root_agent: call echo{"x":1}`,
		`root_agent: response echo{"echo":{"x":1}}`,
		"root_agent: done",
	})
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model calls = %d, want 2", len(reqs))
	}
	diffPairs(t, "second request", et.Contents(reqs[1].Contents), []string{
		"user: hi",
		`model: call echo{"x":1}`,
		`user: response echo{"echo":{"x":1}}`,
	})
	// C4: generated ids are cleared in the request but kept in the events.
	callID := events[0].Content.Parts[0].FunctionCall.Id
	if !strings.HasPrefix(callID, "adk-") || events[1].Content.Parts[0].FunctionResponse.Id != callID {
		t.Errorf("call id %q / response id %q: want the same adk- id", callID, events[1].Content.Parts[0].FunctionResponse.Id)
	}
	if id := reqs[1].Contents[1].Parts[0].FunctionCall.Id; id != "" {
		t.Errorf("request call id = %q, want cleared", id)
	}
	if events[1].Content.Role != "user" {
		t.Errorf("response role = %q, want user", events[1].Content.Role)
	}
	// L1: only the answer is final.
	for i, want := range []bool{false, false, true} {
		if got := runtime.IsFinalResponse(events[i]); got != want {
			t.Errorf("event %d final = %v, want %v", i, got, want)
		}
	}
}

func TestBehaviorL4UserEventStored(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{})
	h, _, sid := setup(t, agent, []*v1.LlmResponse{et.Text("ok")})
	msg := &v1.Content{Parts: []*v1.Part{{Text: "hello"}}} // no role
	delta := et.Struct(`{"k":"v"}`)
	var got []*v1.Event
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: msg, StateDelta: delta}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ev)
	}
	if len(got) != 1 || got[0].Author != "root_agent" {
		t.Fatalf("streamed %v, want only the agent's answer", et.Events(got))
	}
	stored := h.Session(t, sid)
	if len(stored.Events) != 2 {
		t.Fatalf("stored %d events, want 2", len(stored.Events))
	}
	user := stored.Events[0]
	if user.Author != "user" || user.Content.Role != "user" || user.InvocationId != got[0].InvocationId {
		t.Errorf("user event = %v", user)
	}
	if user.GetActions().GetStateDelta().GetFields()["k"].GetStringValue() != "v" {
		t.Errorf("user event state delta = %v, want k=v", user.GetActions().GetStateDelta())
	}
	if stored.State.Fields["k"].GetStringValue() != "v" {
		t.Errorf("state = %v, want k=v", stored.State)
	}

	_, err := h.Run(t.Context(), sid, &v1.Content{Role: "user"}, runtime.RunConfig{})
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || rerr.Code != runtime.CodeInvalidArgument {
		t.Errorf("message without parts: err = %v, want invalid argument", err)
	}
}

func TestBehaviorL6MaxLLMCalls(t *testing.T) {
	t.Parallel()
	loop := func() []*v1.LlmResponse {
		var r []*v1.LlmResponse
		for range 5 {
			r = append(r, et.Call("echo", `{}`))
		}
		return append(r, et.Text("end"))
	}
	tests := []struct {
		name    string
		limit   int
		wantErr string
		calls   int
	}{
		{"limit 2", 2, "Max number of llm calls limit of `2` exceeded", 2},
		{"zero is unlimited", 0, "", 6},
		{"negative is unlimited", -1, "", 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
			h, m, sid := setup(t, agent, loop())
			_, err := h.Run(t.Context(), sid, et.UserText("go"), runtime.RunConfig{MaxLLMCalls: tt.limit})
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || err.Error() != tt.wantErr) {
				t.Errorf("err = %v, want %q", err, tt.wantErr)
			}
			if tt.wantErr != "" && !errors.Is(err, runtime.ErrLLMCallsExceeded) {
				t.Errorf("err %v is not ErrLLMCallsExceeded", err)
			}
			if m.Calls() != tt.calls {
				t.Errorf("model calls = %d, want %d", m.Calls(), tt.calls)
			}
		})
	}
}

func TestBehaviorI2InstructionOrder(t *testing.T) {
	t.Parallel()
	identity := `You are an agent. Your internal name is "root_agent".`
	tests := []struct {
		name         string
		cfg          llmagent.Config
		wantSystem   string
		wantContents []string
	}{
		{
			name:         "instruction then identity",
			cfg:          llmagent.Config{Instruction: "Be brief in {city}."},
			wantSystem:   "Be brief in Paris.\n\n" + identity,
			wantContents: []string{"user: hi"},
		},
		{
			name: "global, static, identity; the instruction moves into the contents",
			cfg: llmagent.Config{GlobalInstruction: "Global {city}.", StaticInstruction: "Static {city}.",
				Instruction: "Dynamic {city}."},
			wantSystem:   "Global Paris.\n\nStatic {city}.\n\n" + identity,
			wantContents: []string{"user: Dynamic Paris.", "user: hi"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := et.New(t, newAgent(t, tt.cfg))
			m := scripted.New(modelName, et.Text("ok"))
			h.Models.Add(m)
			sid := h.NewSession(t, map[string]any{"city": "Paris"})
			h.RunText(t, sid, "hi")
			req := m.Requests()[0]
			if got := req.Config.SystemInstruction; got != tt.wantSystem {
				t.Errorf("system instruction =\n%q\nwant\n%q", got, tt.wantSystem)
			}
			diffPairs(t, "contents", et.Contents(req.Contents), tt.wantContents)
		})
	}
}

func TestBehaviorI3Identity(t *testing.T) {
	t.Parallel()
	tests := []struct{ desc, want string }{
		{"", `You are an agent. Your internal name is "root_agent".`},
		{"Helps.", `You are an agent. Your internal name is "root_agent". The description about you is "Helps.".`},
	}
	for _, tt := range tests {
		h, m, sid := setup(t, newAgent(t, llmagent.Config{Description: tt.desc}), []*v1.LlmResponse{et.Text("ok")})
		h.RunText(t, sid, "hi")
		if got := m.Requests()[0].Config.SystemInstruction; got != tt.want {
			t.Errorf("description %q: system instruction = %q, want %q", tt.desc, got, tt.want)
		}
	}
}

func TestBehaviorI1MissingVariableFailsInvocation(t *testing.T) {
	t.Parallel()
	h, m, sid := setup(t, newAgent(t, llmagent.Config{Instruction: "Hello {name}, {opt?}."}), []*v1.LlmResponse{et.Text("ok")})
	_, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{})
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || rerr.Code != runtime.CodeFailedPrecondition || rerr.Message != "Context variable not found: `name`." {
		t.Fatalf("err = %#v, want FAILED_PRECONDITION with ADK's message", err)
	}
	if m.Calls() != 0 {
		t.Errorf("model was called %d times", m.Calls())
	}
}

func TestBehaviorI5LabelsAndToolDeclarations(t *testing.T) {
	t.Parallel()
	temp := float32(0.2)
	agent := newAgent(t, llmagent.Config{
		Tools:                 []runtime.Tool{echoTool(t, "b_tool"), echoTool(t, "a_tool")},
		GenerateContentConfig: &v1.GenerateContentConfig{Temperature: &temp, Labels: map[string]string{"team": "x"}},
	})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{et.Text("ok"), et.Text("again")})
	h.RunText(t, sid, "hi")
	h.RunText(t, sid, "hi")
	req := m.Requests()[1]
	if diff := cmp.Diff(map[string]string{"team": "x", "adk_agent_name": "root_agent"}, req.Config.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if req.Config.GetTemperature() != 0.2 {
		t.Errorf("temperature = %v", req.Config.GetTemperature())
	}
	var names []string
	for _, tool := range req.Config.Tools {
		for _, d := range tool.FunctionDeclarations {
			names = append(names, d.Name)
		}
	}
	if diff := cmp.Diff([]string{"b_tool", "a_tool"}, names); diff != "" {
		t.Errorf("declarations in agent order (-want +got):\n%s", diff)
	}
	// The agent's own config is copied, not mutated.
	if _, ok := agent.Config().GenerateContentConfig.Labels["adk_agent_name"]; ok {
		t.Error("the agent's generate config was mutated")
	}
}
