package plugins_test

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
	"github.com/agentsvc/agentsvc/internal/runtime/plugins"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

const modelName = "test-model"

// harness runs an agent with the named plugin on a scripted model.
func harness(t *testing.T, name string, args map[string]any, cfg llmagent.Config, resps ...*v1.LlmResponse) (*et.Harness, *scripted.Model, string) {
	t.Helper()
	p, err := plugins.New(name, args)
	if err != nil {
		t.Fatal(err)
	}
	return pluginHarness(t, cfg, resps, p)
}

// pluginHarness runs an agent with the given plugins on a scripted model,
// in a session whose state holds user_name.
func pluginHarness(t *testing.T, cfg llmagent.Config, resps []*v1.LlmResponse, ps ...*runtime.Plugin) (*et.Harness, *scripted.Model, string) {
	t.Helper()
	cfg.Name, cfg.Model = "root_agent", modelName
	agent, err := llmagent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h := et.New(t, agent, ps...)
	m := scripted.New(modelName, resps...)
	h.Models.Add(m)
	return h, m, h.NewSession(t, map[string]any{"user_name": "Ada"})
}

func TestNewErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args map[string]any
		want string
	}{
		{"LoggerPlugin", nil, `no plugin named "LoggerPlugin" (built-in plugins: ContextFilterPlugin, DebugLoggingPlugin, GlobalInstructionPlugin, MultimodalToolResultsPlugin, ReflectAndRetryToolPlugin, SaveFilesAsArtifactsPlugin)`},
		{"ContextFilterPlugin", map[string]any{"keep": 2}, "args.keep: ContextFilterPlugin takes no such argument"},
		{"ContextFilterPlugin", map[string]any{"num_invocations_to_keep": "two"}, "args.num_invocations_to_keep: want an integer"},
		{"ContextFilterPlugin", map[string]any{"num_invocations_to_keep": 1.5}, "args.num_invocations_to_keep: want an integer"},
		{"GlobalInstructionPlugin", map[string]any{"global_instruction": 3}, "args.global_instruction: want a string"},
		{"ReflectAndRetryToolPlugin", map[string]any{"max_retries": -1}, "args.max_retries: must be a non-negative integer"},
		{"ReflectAndRetryToolPlugin", map[string]any{"tracking_scope": "session"}, `args.tracking_scope: want invocation or global, got "session"`},
		{"ReflectAndRetryToolPlugin", map[string]any{"throw_exception_if_retry_exceeded": "no"}, "args.throw_exception_if_retry_exceeded: want true or false"},
		{"SaveFilesAsArtifactsPlugin", map[string]any{"attach_file_reference": "yes"}, "args.attach_file_reference: want true or false"},
		{"SaveFilesAsArtifactsPlugin", map[string]any{"output_path": "x"}, "args.output_path: SaveFilesAsArtifactsPlugin takes no such argument"},
		{"MultimodalToolResultsPlugin", map[string]any{"parts": true}, "args.parts: MultimodalToolResultsPlugin takes no such argument"},
		{"DebugLoggingPlugin", map[string]any{"output_path": 3}, "args.output_path: want a string"},
		{"DebugLoggingPlugin", map[string]any{"output_path": ""}, "args.output_path: must not be empty"},
		{"DebugLoggingPlugin", map[string]any{"include_session_state": "no"}, "args.include_session_state: want true or false"},
		{"DebugLoggingPlugin", map[string]any{"include_system_instruction": 1}, "args.include_system_instruction: want true or false"},
		{"DebugLoggingPlugin", map[string]any{"max_file_bytes": 0}, "args.max_file_bytes: must be a positive integer, got 0"},
		{"DebugLoggingPlugin", map[string]any{"max_file_bytes": "1MB"}, "args.max_file_bytes: want an integer"},
	}
	for _, tt := range tests {
		if _, err := plugins.New(tt.name, tt.args); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%s, %v) = %v, want an error containing %q", tt.name, tt.args, err, tt.want)
		}
	}
	for _, name := range plugins.Names() {
		p, err := plugins.New(name, map[string]any{"name": "mine"})
		if err != nil || p.Name != "mine" {
			t.Errorf("New(%s) with a name = %v, %v", name, p, err)
		}
	}
}

func TestContextFilterKeepsTheLastInvocations(t *testing.T) {
	t.Parallel()
	h, m, sid := harness(t, "ContextFilterPlugin", map[string]any{"num_invocations_to_keep": 2}, llmagent.Config{},
		et.Text("a1"), et.Text("a2"), et.Text("a3"))
	for _, q := range []string{"q1", "q2", "q3"} {
		h.RunText(t, sid, q)
	}
	reqs := m.Requests()
	if d := cmp.Diff([]string{"user: q1", "model: a1", "user: q2"}, et.Contents(reqs[1].Contents)); d != "" {
		t.Errorf("second request (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"user: q2", "model: a2", "user: q3"}, et.Contents(reqs[2].Contents)); d != "" {
		t.Errorf("third request (-want +got):\n%s", d)
	}
}

func TestGlobalInstructionLeadsTheSystemInstruction(t *testing.T) {
	t.Parallel()
	h, m, sid := harness(t, "GlobalInstructionPlugin", map[string]any{"global_instruction": "The user is {user_name}."},
		llmagent.Config{Instruction: "Be brief."}, et.Text("ok"))
	h.RunText(t, sid, "hi")
	got := m.Requests()[0].GetConfig().GetSystemInstruction()
	want := "The user is Ada.\n\nBe brief.\n\nYou are an agent. Your internal name is \"root_agent\"."
	if got != want {
		t.Errorf("system instruction = %q, want %q", got, want)
	}

	h, _, sid = harness(t, "GlobalInstructionPlugin", map[string]any{"global_instruction": "Hi {missing}."}, llmagent.Config{})
	_, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{})
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || rerr.Message != "Context variable not found: `missing`." {
		t.Errorf("err = %v, want ADK's missing variable error", err)
	}
}

// failing returns a tool that fails with err until it has failed n times.
func failing(t *testing.T, n int, err error) runtime.Tool {
	t.Helper()
	calls := 0
	tool, e := tools.NewFunction(tools.FunctionConfig{Name: "lookup", Description: "Looks up.",
		Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) {
			if calls++; calls <= n {
				return nil, err
			}
			return map[string]any{"found": true}, nil
		}})
	if e != nil {
		t.Fatal(e)
	}
	return tool
}

// responses returns the function responses of events, by event.
func responses(events []*v1.Event) []*structpb.Struct {
	var out []*structpb.Struct
	for _, ev := range events {
		for _, p := range ev.GetContent().GetParts() {
			if fr := p.GetFunctionResponse(); fr != nil {
				out = append(out, fr.GetResponse())
			}
		}
	}
	return out
}

func TestReflectAndRetryGuidesTheModel(t *testing.T) {
	t.Parallel()
	call := et.Call("lookup", `{"q":"é"}`)
	h, _, sid := harness(t, "ReflectAndRetryToolPlugin", map[string]any{"max_retries": 2},
		llmagent.Config{Tools: []runtime.Tool{failing(t, 2, errors.New("backend down"))}},
		call, et.Call("lookup", `{"q":"é"}`), et.Call("lookup", `{"q":"é"}`), et.Text("found"))
	events := h.RunText(t, sid, "find")
	resps := responses(events)
	if len(resps) != 3 {
		t.Fatalf("responses = %v", resps)
	}
	first := resps[0].GetFields()
	if first["response_type"].GetStringValue() != "ERROR_HANDLED_BY_REFLECT_AND_RETRY_PLUGIN" ||
		first["error_type"].GetStringValue() != "ToolError" || first["error_details"].GetStringValue() != "backend down" ||
		first["retry_count"].GetNumberValue() != 1 {
		t.Errorf("first response = %v", resps[0])
	}
	guidance := first["reflection_guidance"].GetStringValue()
	for _, want := range []string{
		"The call to tool `lookup` failed.\n\n**Error Details:**\n```\nToolError: backend down\n```\n\n",
		"**Tool Arguments Used:**\n```json\n{\n  \"q\": \"\\u00e9\"\n}\n```\n\n",
		"This is retry attempt **1 of 2**. Analyze the error",
		"\n\nFormulate a new plan based on your analysis and try a corrected or different approach.",
	} {
		if !strings.Contains(guidance, want) {
			t.Errorf("guidance lacks %q:\n%s", want, guidance)
		}
	}
	if n := resps[1].GetFields()["retry_count"].GetNumberValue(); n != 2 {
		t.Errorf("second failure retry_count = %v, want 2", n)
	}
	if !resps[2].GetFields()["found"].GetBoolValue() {
		t.Errorf("third call = %v, want the tool's result", resps[2])
	}
}

func TestReflectAndRetryLimit(t *testing.T) {
	t.Parallel()
	down := errors.New("backend down")
	calls := []*v1.LlmResponse{et.Call("lookup", `{}`), et.Call("lookup", `{}`), et.Call("lookup", `{}`), et.Text("giving up")}

	h, _, sid := harness(t, "ReflectAndRetryToolPlugin", map[string]any{"max_retries": 1},
		llmagent.Config{Tools: []runtime.Tool{failing(t, 5, down)}}, calls...)
	if _, err := h.Run(t.Context(), sid, et.UserText("find"), runtime.RunConfig{}); !errors.Is(err, down) {
		t.Errorf("past the limit err = %v, want the tool's error", err)
	}

	h, _, sid = harness(t, "ReflectAndRetryToolPlugin", map[string]any{"max_retries": 1, "throw_exception_if_retry_exceeded": false},
		llmagent.Config{Tools: []runtime.Tool{failing(t, 5, down)}}, calls[1:]...)
	resps := responses(h.RunText(t, sid, "find"))
	if len(resps) != 2 {
		t.Fatalf("responses = %v", resps)
	}
	last := resps[1].GetFields()
	if g := last["reflection_guidance"].GetStringValue(); !strings.HasPrefix(g,
		"The tool `lookup` has failed consecutively 1 times and the retry limit has been exceeded.\n\n**Last Error:**\n```\nToolError: backend down\n```") ||
		!strings.HasSuffix(g, "informing the user that the task cannot be completed.") || last["retry_count"].GetNumberValue() != 1 {
		t.Errorf("give-up response = %v", resps[1])
	}
}

func TestReflectAndRetryUnknownTool(t *testing.T) {
	t.Parallel()
	h, _, sid := harness(t, "ReflectAndRetryToolPlugin", nil, llmagent.Config{}, et.Call("nope", `{}`), et.Text("sorry"))
	resps := responses(h.RunText(t, sid, "hi"))
	if len(resps) != 1 || resps[0].GetFields()["error_type"].GetStringValue() != "ValueError" ||
		!strings.HasPrefix(resps[0].GetFields()["error_details"].GetStringValue(), "Tool 'nope' not found.") {
		t.Errorf("responses = %v", resps)
	}
}

// TestReflectAndRetryCountsPerInvocation checks that failures counted in
// one invocation do not carry over to the next.
func TestReflectAndRetryCountsPerInvocation(t *testing.T) {
	t.Parallel()
	down := errors.New("backend down")
	h, _, sid := harness(t, "ReflectAndRetryToolPlugin", map[string]any{"max_retries": 1},
		llmagent.Config{Tools: []runtime.Tool{failing(t, 5, down)}},
		et.Call("lookup", `{}`), et.Text("later"), et.Call("lookup", `{}`), et.Text("later again"))
	for turn := range 2 {
		resps := responses(h.RunText(t, sid, "find"))
		if len(resps) != 1 || resps[0].GetFields()["retry_count"].GetNumberValue() != 1 {
			t.Errorf("turn %d: responses = %v, want a first retry", turn, resps)
		}
	}
}
