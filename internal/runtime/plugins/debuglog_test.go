package plugins_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/plugins"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// debugLongText is the probe's final answer: a line past the width, line
// breaks, a line that starts with spaces, quotes and a hash.
const debugLongText = "Line one: yes\nline two\n\n  indented 'quoted' #hash\nThis is a long line of text that goes on and on " +
	"with many words so that it passes the width of one hundred twenty characters for sure."

// debugAgent is the probe's agent: an instruction reading state, two
// tools, an output key and a generation config.
func debugAgent(t *testing.T) llmagent.Config {
	t.Helper()
	lookup, err := tools.NewFunction(tools.FunctionConfig{Name: "lookup", Description: "Looks up the weather.",
		Run: func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return map[string]any{"city": args.Fields["city"].GetStringValue(), "days": args.Fields["days"].GetNumberValue(),
				"empty": map[string]any{}, "empty_list": []any{}, "list": []any{1, "two", map[string]any{"x": "y"}},
				"none": nil, "ok": true, "temp": 21.5}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	fail, err := tools.NewFunction(tools.FunctionConfig{Name: "fail", Description: "Fails.",
		Run: func(*runtime.ToolContext, *structpb.Struct) (any, error) { return nil, errors.New("bad q") }})
	if err != nil {
		t.Fatal(err)
	}
	temperature, topP, topK, maxTokens := float32(0.7), float32(0.95), float32(40), int32(100)
	return llmagent.Config{Instruction: "Be brief. User is {user_name}.", Tools: []runtime.Tool{lookup, fail}, OutputKey: "z_answer",
		GenerateContentConfig: &v1.GenerateContentConfig{Temperature: &temperature, TopP: &topP, TopK: &topK, MaxOutputTokens: &maxTokens}}
}

// debugScenario runs the probe's two invocations with DebugLoggingPlugin
// configured by args (its output_path set) and returns the file.
func debugScenario(t *testing.T, args map[string]any) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "debug.yaml")
	if args == nil {
		args = map[string]any{}
	}
	args["output_path"] = path
	answer := et.Text(debugLongText)
	answer.UsageMetadata = &v1.UsageMetadata{PromptTokenCount: 10, CandidatesTokenCount: 5, TotalTokenCount: 15}
	answer.FinishReason, answer.ModelVersion = "STOP", "scripted-v1"
	h, _, _ := harness(t, "DebugLoggingPlugin", args, debugAgent(t),
		et.Calls(&v1.FunctionCall{Id: "c1", Name: "lookup", Args: et.Struct(`{"city": "Paris", "days": 3}`)}), answer, et.Text("again"))
	ctx := t.Context()
	sid := h.NewSession(t, map[string]any{"f": 1.5, "n": 1, "t": "true", "user_name": "Ada"})
	msg := &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "weather?"},
		{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("x"), DisplayName: "a.png"}}}}
	if _, err := h.Run(ctx, sid, msg, runtime.RunConfig{}); err != nil {
		t.Fatal(err)
	}
	h.RunText(t, sid, "more")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var (
	debugTimestamp  = regexp.MustCompile(`'\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?'`)
	debugInvocation = regexp.MustCompile(`e-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	debugEventID    = regexp.MustCompile(`event_id: [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	debugSessionID  = regexp.MustCompile(`session_id: \S+`)
)

// normalizeDebugLog replaces what differs from run to run, and the
// harness's names for the probe's.
func normalizeDebugLog(s string) string {
	s = debugTimestamp.ReplaceAllString(s, "'<time>'")
	s = debugInvocation.ReplaceAllString(s, "<invocation>")
	s = debugEventID.ReplaceAllString(s, "event_id: <event>")
	s = debugSessionID.ReplaceAllString(s, "session_id: <session>")
	return strings.NewReplacer("app_name: "+et.AppName+"\n", "app_name: app\n", "user_id: "+et.UserID+"\n", "user_id: u\n",
		"model: "+modelName+"\n", "model: scripted-model\n").Replace(s)
}

// TestDebugLoggingWritesADKsFile compares the file with google-adk's for
// the same invocations.
func TestDebugLoggingWritesADKsFile(t *testing.T) {
	t.Parallel()
	got := normalizeDebugLog(debugScenario(t, nil))
	if d := cmp.Diff(normalizeDebugLog(adkDebugLog), got); d != "" {
		t.Errorf("debug log (-adk +got):\n%s", d)
	}
}

// TestDebugLoggingBrief leaves out the state and the system instruction,
// whose length stands in its place.
func TestDebugLoggingBrief(t *testing.T) {
	t.Parallel()
	got := normalizeDebugLog(debugScenario(t, map[string]any{"include_session_state": false, "include_system_instruction": false}))
	if d := cmp.Diff(normalizeDebugLog(adkDebugLogBriefRequest), debugEntry(t, got, "llm_request", 0)); d != "" {
		t.Errorf("llm_request entry (-adk +got):\n%s", d)
	}
	// The entries google-adk wrote, in order.
	want := []string{"invocation_start", "agent_start", "llm_request", "llm_response", "event", "tool_call", "tool_response",
		"event", "llm_request", "llm_response", "event", "agent_end", "invocation_end",
		"invocation_start", "agent_start", "llm_request", "llm_response", "event", "agent_end", "invocation_end"}
	var types []string
	for _, line := range strings.Split(got, "\n") {
		if entryType, ok := strings.CutPrefix(line, "  entry_type: "); ok {
			types = append(types, entryType)
		}
	}
	if d := cmp.Diff(want, types); d != "" {
		t.Errorf("entries (-adk +got):\n%s", d)
	}
}

// debugEntry returns the n-th entry of the given type in a debug log: its
// lines from "- timestamp:" to the next entry or document.
func debugEntry(t *testing.T, log, entryType string, n int) string {
	t.Helper()
	var found []string
	var cur []string
	flush := func() {
		if len(cur) > 1 && cur[1] == "  entry_type: "+entryType {
			found = append(found, strings.Join(cur, "\n")+"\n")
		}
		cur = nil
	}
	for _, line := range strings.Split(log, "\n") {
		switch {
		case strings.HasPrefix(line, "- timestamp:"):
			flush()
			cur = []string{line}
		case cur != nil && strings.HasPrefix(line, " "):
			cur = append(cur, line)
		default:
			flush()
		}
	}
	flush()
	if n >= len(found) {
		t.Fatalf("no %s entry #%d in:\n%s", entryType, n, log)
	}
	return found[n]
}

// debugRun runs the scripted responses on an agent with the given plugins,
// DebugLoggingPlugin among them writing to path, in a session with the
// given state, and returns the file.
func debugRun(t *testing.T, path string, state map[string]any, cfg llmagent.Config, script []*v1.LlmResponse,
	ps ...*runtime.Plugin) (string, error) {
	t.Helper()
	h, _, _ := pluginHarness(t, cfg, script, ps...)
	_, err := h.Run(t.Context(), h.NewSession(t, state), et.UserText("go"), runtime.RunConfig{})
	data, rerr := os.ReadFile(path)
	if rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		t.Fatal(rerr)
	}
	return normalizeDebugLog(string(data)), err
}

func mustPlugin(t *testing.T, name string, args map[string]any) *runtime.Plugin {
	t.Helper()
	p, err := plugins.New(name, args)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDebugLoggingToolError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "debug.yaml")
	log, err := debugRun(t, path, map[string]any{"user_name": "Ada"}, debugAgent(t),
		[]*v1.LlmResponse{et.Calls(&v1.FunctionCall{Id: "c2", Name: "nope", Args: et.Struct(`{"q": "z"}`)}), et.Text("sorry")},
		mustPlugin(t, "DebugLoggingPlugin", map[string]any{"output_path": path}),
		mustPlugin(t, "ReflectAndRetryToolPlugin", map[string]any{"max_retries": 1}))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(normalizeDebugLog(adkToolErrorEntry), debugEntry(t, log, "tool_error", 0)); d != "" {
		t.Errorf("tool_error entry (-adk +got):\n%s", d)
	}
}

// TestDebugLoggingToolParts runs MultimodalToolResultsPlugin first: the
// Parts a tool returned show in its result and in the next request, and
// the tool that returned a string has no tool_response entry, since that
// plugin ends the after-tool callbacks for it, as in ADK.
func TestDebugLoggingToolParts(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "debug.yaml")
	snap, err := tools.NewFunction(tools.FunctionConfig{Name: "snap", Description: "Takes pictures.",
		Run: func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return []*v1.Part{{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("PNG\xff\xfe")}},
				{Text: "caption " + args.Fields["q"].GetStringValue()}}, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	word, err := tools.NewFunction(tools.FunctionConfig{Name: "word", Description: "Returns a string.",
		Run: func(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
			return "plain " + args.Fields["q"].GetStringValue(), nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	log, err := debugRun(t, path, nil, llmagent.Config{Tools: []runtime.Tool{snap, word}},
		[]*v1.LlmResponse{et.Calls(call("c1", "snap", "cat")), et.Calls(call("c2", "word", "w")), et.Text("seen")},
		mustPlugin(t, "MultimodalToolResultsPlugin", nil), mustPlugin(t, "DebugLoggingPlugin", map[string]any{"output_path": path}))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		entryType string
		n         int
		want      string
	}{
		{"tool_response", 0, adkPartsResultEntry},
		{"llm_request", 1, adkPartsRequestEntry},
		{"session_state_snapshot", 0, adkPartsStateEntry},
	} {
		if d := cmp.Diff(normalizeDebugLog(c.want), debugEntry(t, log, c.entryType, c.n)); d != "" {
			t.Errorf("%s entry #%d (-adk +got):\n%s", c.entryType, c.n, d)
		}
	}
	if n := strings.Count(log, "entry_type: tool_response"); n != 1 {
		t.Errorf("%d tool_response entries, want 1 (snap's)", n)
	}
}

// TestDebugLoggingModelError records a failed model call that another
// plugin answers.
func TestDebugLoggingModelError(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "debug.yaml")
	answer := &runtime.Plugin{Name: "answer", OnModelError: func(*runtime.CallbackContext, *v1.LlmRequest, error) (*v1.LlmResponse, error) {
		return et.Text("fallback"), nil
	}}
	h, m, sid := pluginHarness(t, llmagent.Config{}, nil, mustPlugin(t, "DebugLoggingPlugin", map[string]any{"output_path": path}), answer)
	m.Push(scripted.Fail(&models.Error{HTTPStatus: 400, Status: "INVALID_ARGUMENT", Message: "bad request",
		Body: []byte(`{"error": {"code": 400, "message": "bad request", "status": "INVALID_ARGUMENT"}}`)}))
	h.RunText(t, sid, "go")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := normalizeDebugLog(string(data))
	if d := cmp.Diff(normalizeDebugLog(adkModelErrorEntry), debugEntry(t, log, "llm_error", 0)); d != "" {
		t.Errorf("llm_error entry (-adk +got):\n%s", d)
	}
	if d := cmp.Diff(normalizeDebugLog(adkModelErrorResponseEntry), debugEntry(t, log, "llm_response", 0)); d != "" {
		t.Errorf("llm_response entry (-adk +got):\n%s", d)
	}
}

// TestDebugLoggingFailedInvocation checks that, as in ADK, an invocation
// that fails writes nothing.
func TestDebugLoggingFailedInvocation(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "debug.yaml")
	_, err := debugRun(t, path, nil, llmagent.Config{}, nil, mustPlugin(t, "DebugLoggingPlugin", map[string]any{"output_path": path}))
	if err == nil {
		t.Fatal("run succeeded without a scripted answer")
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stat = %v, want no file", err)
	}
}

// TestDebugLoggingBound checks that the file never grows past
// max_file_bytes: documents that do not fit are left out whole.
func TestDebugLoggingBound(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{400, 5000} {
		path := filepath.Join(t.TempDir(), "debug.yaml")
		script := make([]*v1.LlmResponse, 10)
		for i := range script {
			script[i] = et.Text("answer")
		}
		h, _, sid := pluginHarness(t, llmagent.Config{}, script,
			mustPlugin(t, "DebugLoggingPlugin", map[string]any{"output_path": path, "max_file_bytes": limit}))
		for range script {
			h.RunText(t, sid, "go")
		}
		data, err := os.ReadFile(path)
		if limit == 400 {
			// One document is larger than that: nothing is written.
			if !errors.Is(err, os.ErrNotExist) {
				t.Errorf("limit %d: read = %d bytes, %v; want no file", limit, len(data), err)
			}
			continue
		}
		docs := strings.Count(string(data), "---\ninvocation_id:")
		if err != nil || len(data) > limit || docs == 0 || docs == len(script) || !strings.HasSuffix(string(data), "data: {}\n") {
			t.Errorf("limit %d: %d bytes, %d documents, %v", limit, len(data), docs, err)
		}
	}
}
