package llmagent_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/codeexec"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// The facts below were observed on google-adk 1.39.1 with a scripted model
// and a stub BaseCodeExecutor (ClientCodeExecutor's counterpart) or
// BuiltInCodeExecutor, comparing events, stored state and request contents.

// codeClient is a client that runs code: it answers from a script and
// records the calls.
type codeClient struct {
	mu      sync.Mutex
	results []*codeexec.Result
	calls   []*codeexec.Call
}

func (c *codeClient) Tools() []runtime.Tool { return nil }

func (c *codeClient) RunCode(_ context.Context, call *codeexec.Call) (*codeexec.Result, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, call)
	if len(c.results) == 0 {
		return nil, errors.New("no result scripted")
	}
	r := c.results[0]
	c.results = c.results[1:]
	return r, nil
}

func clientExecutor(t *testing.T, opts codeexec.Options) *codeexec.Executor {
	t.Helper()
	e, err := codeexec.New(codeexec.Client, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// codeLines renders events or contents with their code parts.
func codeLines(contents []*v1.Content, authors []string) []string {
	var out []string
	for i, c := range contents {
		who := c.GetRole()
		if authors != nil {
			who = authors[i]
		}
		for _, p := range c.GetParts() {
			switch {
			case p.ExecutableCode != nil:
				out = append(out, who+": code "+p.ExecutableCode.Language+" "+p.ExecutableCode.Code)
			case p.CodeExecutionResult != nil:
				out = append(out, who+": result "+p.CodeExecutionResult.Outcome+" "+p.CodeExecutionResult.Output)
			default:
				out = append(out, who+": "+et.PartString(p))
			}
		}
	}
	return out
}

func eventLines(events []*v1.Event) []string {
	contents := make([]*v1.Content, len(events))
	authors := make([]string, len(events))
	for i, ev := range events {
		contents[i], authors[i] = ev.GetContent(), ev.Author
	}
	return codeLines(contents, authors)
}

func runWithClient(t *testing.T, h *et.Harness, sid string, msg *v1.Content, client runtime.ClientTools) ([]*v1.Event, error) {
	t.Helper()
	var events []*v1.Event
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid, NewMessage: msg,
		RunConfig: runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls}, Client: client}) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

func TestBehaviorCodeExecutionRetriesWithTheError(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Name: "coder", Instruction: "Compute.",
		CodeExecutor: clientExecutor(t, codeexec.Options{Stateful: true})})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{
		et.Text("Let me compute.\n```python\nprint(1/0)\n```\nThat is it."),
		et.Text("Fixed:\n```tool_code\nprint(6*7)\n```"),
		et.Text("The answer is 42."),
	})
	client := &codeClient{results: []*codeexec.Result{{Stderr: "ZeroDivisionError: division by zero"}, {Stdout: "42\n"}}}
	events, err := runWithClient(t, h, sid, et.UserText("6 times 7?"), client)
	if err != nil {
		t.Fatal(err)
	}
	diffPairs(t, "events", eventLines(events), []string{
		"coder: Let me compute.\n",
		"coder: code PYTHON print(1/0)",
		"coder: result OUTCOME_FAILED ZeroDivisionError: division by zero",
		"coder: Fixed:\n",
		"coder: code PYTHON print(6*7)",
		"coder: result OUTCOME_OK Code execution result:\n42\n\n",
		"coder: The answer is 42.",
	})
	reqs := m.Requests()
	if len(reqs) != 3 {
		t.Fatalf("model calls = %d, want 3", len(reqs))
	}
	diffPairs(t, "third request", codeLines(reqs[2].Contents, nil), []string{
		"user: 6 times 7?",
		"model: Let me compute.\n",
		"model: ```tool_code\nprint(1/0)\n```",
		"user: ```tool_output\nZeroDivisionError: division by zero\n```",
		"model: Fixed:\n",
		"model: ```tool_code\nprint(6*7)\n```",
		"user: ```tool_output\nCode execution result:\n42\n\n\n```",
	})
	// A stateful executor runs every block with the session's id, which
	// the result events store in ADK's context.
	for i, c := range client.calls {
		if c.ExecutionID != sid || c.AgentName != "coder" || c.InvocationID != events[0].InvocationId {
			t.Errorf("call %d = %+v, want execution id %s", i, c, sid)
		}
	}
	if client.calls[0].Language != "python" || client.calls[1].Language != "tool_code" {
		t.Errorf("languages = %q, %q; want python, tool_code", client.calls[0].Language, client.calls[1].Language)
	}
	got := h.Session(t, sid).GetState().AsMap()
	want := map[string]any{codeexec.ContextKey: map[string]any{codeexec.ExecutionIDKey: sid}}
	if !cmpEqual(got, want) {
		t.Errorf("stored state = %v, want %v", got, want)
	}
	if sd := events[1].GetActions().GetStateDelta().AsMap(); !cmpEqual(sd, want) {
		t.Errorf("result state_delta = %v, want %v", sd, want)
	}
}

func TestBehaviorCodeExecutionStopsAfterErrorRetryAttempts(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Name: "coder", CodeExecutor: clientExecutor(t, codeexec.Options{})})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{
		et.Text("```python\nboom()\n```"), et.Text("```python\nboom()\n```"), et.Text("```python\nboom() again\n```"),
	})
	client := &codeClient{results: []*codeexec.Result{{Stderr: "NameError: boom"}, {Stderr: "NameError: boom"}}}
	events, err := runWithClient(t, h, sid, et.UserText("go"), client)
	if err != nil {
		t.Fatal(err)
	}
	diffPairs(t, "events", eventLines(events), []string{
		"coder: code PYTHON boom()",
		"coder: result OUTCOME_FAILED NameError: boom",
		"coder: code PYTHON boom()",
		"coder: result OUTCOME_FAILED NameError: boom",
		"coder: ```python\nboom() again\n```",
	})
	if m.Calls() != 3 || len(client.calls) != 2 {
		t.Errorf("model calls = %d, code runs = %d; want 3, 2", m.Calls(), len(client.calls))
	}
	want := map[string]any{codeexec.ContextKey: map[string]any{}}
	if got := h.Session(t, sid).GetState().AsMap(); !cmpEqual(got, want) {
		t.Errorf("stored state = %v, want %v (error counts stay in memory)", got, want)
	}
	if !runtime.IsFinalResponse(events[len(events)-1]) || runtime.IsFinalResponse(events[3]) {
		t.Error("a trailing code execution result must not be final; the last answer must")
	}
}

func TestBehaviorCodeExecutionDataFilesAndArtifacts(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Name: "coder", CodeExecutor: clientExecutor(t, codeexec.Options{OptimizeDataFile: true})})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{et.Text("```python\nsave()\n```"), et.Text("done")})
	h.Runner.Artifacts = newArtifacts(t)
	client := &codeClient{results: []*codeexec.Result{{Stdout: "explored\n"},
		{OutputFiles: []codeexec.File{{Name: "plot.png", MimeType: "image/png", Content: []byte("PNG")}}}}}
	msg := &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "analyse"},
		{InlineData: &v1.Blob{MimeType: "text/csv", Data: []byte("a,b\n1,2\n")}}}}
	events, err := runWithClient(t, h, sid, msg, client)
	if err != nil {
		t.Fatal(err)
	}
	explore := codeexec.ExploreCode(codeexec.File{Name: "data_1_2.csv", MimeType: "text/csv"}, false)
	if !strings.HasPrefix(explore, "\n\nimport pandas as pd\n") || !strings.HasSuffix(explore,
		"\n\n# Load the dataframe.\ndata_1_2 = pd.read_csv('data_1_2.csv')\n\n# Use `explore_df` to guide my analysis.\nexplore_df(data_1_2)\n") {
		t.Errorf("explore code = %q", explore)
	}
	diffPairs(t, "events", eventLines(events), []string{
		"coder: Processing input file: `data_1_2.csv`",
		"coder: code PYTHON " + explore,
		"coder: result OUTCOME_OK Code execution result:\nexplored\n\n",
		"coder: code PYTHON save()",
		"coder: result OUTCOME_OK Saved artifacts:\n`plot.png`",
		"coder: done",
	})
	if len(client.calls) != 2 || len(client.calls[1].InputFiles) != 1 || string(client.calls[1].InputFiles[0].Content) != "a,b\n1,2\n" {
		t.Fatalf("calls = %+v, want the CSV as input of both", client.calls)
	}
	if d := events[3].GetActions().GetArtifactDelta(); d["plot.png"] != 0 || len(d) != 1 {
		t.Errorf("artifact_delta = %v, want plot.png: 0", d)
	}
	want := map[string]any{codeexec.ContextKey: map[string]any{codeexec.ProcessedFilesKey: []any{"data_1_2.csv"}}}
	if got := h.Session(t, sid).GetState().AsMap(); !cmpEqual(got, want) {
		t.Errorf("stored state = %v, want %v", got, want)
	}
	first := codeLines(m.Requests()[0].Contents, nil)
	diffPairs(t, "first request", first, []string{
		"user: analyse",
		"user: \nAvailable file: `data_1_2.csv`\n",
		"model: Processing input file: `data_1_2.csv`",
		"model: ```tool_code\n" + explore + "\n```",
		"user: ```tool_output\nCode execution result:\nexplored\n\n\n```",
	})
}

func TestBehaviorBuiltInCodeExecutor(t *testing.T) {
	t.Parallel()
	builtIn, err := codeexec.New(codeexec.BuiltIn, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Run("adds Gemini's tool and an empty event", func(t *testing.T) {
		t.Parallel()
		agent := newAgent(t, llmagent.Config{Name: "b", Model: "gemini-2.5-flash", CodeExecutor: builtIn})
		h, _, sid := setup(t, agent, nil)
		m := newScripted("gemini-2.5-flash")
		h.Models.Add(m)
		events := h.RunText(t, sid, "go")
		if len(events) != 2 || events[0].Content != nil || events[1].GetContent().GetParts()[0].Text != "hi" {
			t.Fatalf("events = %v, want user, an empty event, hi", eventLines(events))
		}
		tools := m.Requests()[0].GetConfig().GetTools()
		if len(tools) != 1 || tools[0].CodeExecution == nil {
			t.Errorf("tools = %v, want [code_execution]", tools)
		}
	})
	t.Run("Gemini 1.x fails", func(t *testing.T) {
		t.Parallel()
		agent := newAgent(t, llmagent.Config{Name: "b", Model: "gemini-1.5-flash", CodeExecutor: builtIn})
		h, _, sid := setup(t, agent, nil)
		h.Models.Add(newScripted("gemini-1.5-flash"))
		_, err := h.Run(t.Context(), sid, et.UserText("go"), runtime.RunConfig{})
		var rerr *runtime.Error
		if !errors.As(err, &rerr) || rerr.Message != "Gemini code execution tool is not supported for model gemini-1.5-flash" {
			t.Errorf("err = %v, want ADK's text", err)
		}
	})
}

func TestClientCodeExecutorWithoutClientFails(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Name: "coder", CodeExecutor: clientExecutor(t, codeexec.Options{})})
	h, _, sid := setup(t, agent, []*v1.LlmResponse{et.Text("```python\nx()\n```")})
	events, err := h.Run(t.Context(), sid, et.UserText("go"), runtime.RunConfig{})
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || rerr.Reason != "CODE_EXECUTOR_NOT_DECLARED" {
		t.Errorf("err = %v, want CODE_EXECUTOR_NOT_DECLARED", err)
	}
	if len(events) != 0 {
		t.Errorf("events = %v, want none: the code is not stored without a client to run it", eventLines(events))
	}
}

func newArtifacts(t *testing.T) artifacts.Service {
	t.Helper()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	return store
}

func newScripted(name string) *scripted.Model { return scripted.New(name, et.Text("hi")) }

// TestBehaviorProfileCodeExecution2x: ADK 2.x (observed on 2.13.0) tells a
// client executor reading data files to write fenced blocks, defines crop
// in the explore code, keeps the model's thoughts before its code, and
// gives any Gemini its code execution tool.
func TestBehaviorProfileCodeExecution2x(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Name: "c", CodeExecutor: clientExecutor(t, codeexec.Options{OptimizeDataFile: true})})
	h, m, sid := setup(t, agent, []*v1.LlmResponse{
		{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "t", Thought: true}, {Text: "```python\nx()\n```"}}}},
		et.Text("done"),
	})
	withBehavior(h, runtime.Behavior2x)
	client := &codeClient{results: []*codeexec.Result{{Stdout: "ok\n"}, {Stdout: "ok\n"}}}
	msg := &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "go"}, {InlineData: &v1.Blob{MimeType: "text/csv", Data: []byte("a\n1\n")}}}}
	events, err := runWithClient(t, h, sid, msg, client)
	if err != nil {
		t.Fatal(err)
	}
	const instruction = "You are an agent. Your internal name is \"c\".\n\n# CRITICAL: Code execution format\n\n" +
		"You have access to an external Python sandbox managed by the host\napplication. To run Python code, output it inside a fenced markdown\n" +
		"block exactly like this:\n\n```tool_code\nprint(\"hello\")\n\n```\n\nDO NOT emit native executable_code parts.\n" +
		"DO NOT attempt to call a code_execution tool \u2014 no such tool is\nregistered for this request and the API will reject the response with\n" +
		"UNEXPECTED_TOOL_CALL or MALFORMED_FUNCTION_CALL.\n\nAlways wrap Python code in the markdown fence shown above.\n"
	if got := m.Requests()[0].GetConfig().GetSystemInstruction(); got != instruction {
		t.Errorf("system instruction = %q", got)
	}
	explore := client.calls[0].Code
	if !strings.HasPrefix(explore, "\n\nimport pandas as pd\n\ndef crop(s: str, max_chars: int = 64) -> str:\n") ||
		!strings.Contains(explore, "  return s[:max_chars]\n\ndef explore_df(df: pd.DataFrame) -> None:\n") {
		t.Errorf("explore code = %q", explore)
	}
	got := eventLines(events)[2:]
	want := []string{
		"c: result OUTCOME_OK Code execution result:\nok\n\n",
		"c: thought t",
		"c: code PYTHON x()",
		"c: result OUTCOME_OK Code execution result:\nok\n\n",
		"c: done",
	}
	diffPairs(t, "events", got, want)

	builtIn, err := codeexec.New(codeexec.BuiltIn, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := newAgent(t, llmagent.Config{Name: "b", Model: "gemini-1.5-flash", CodeExecutor: builtIn})
	h2, _, sid2 := setup(t, b, nil)
	withBehavior(h2, runtime.Behavior2x)
	m2 := newScripted("gemini-1.5-flash")
	h2.Models.Add(m2)
	h2.RunText(t, sid2, "go")
	if tools := m2.Requests()[0].GetConfig().GetTools(); len(tools) != 1 || tools[0].CodeExecution == nil {
		t.Errorf("tools = %v, want code_execution for Gemini 1.5 in 2.x", tools)
	}
}

// TestCodeExecutionStreaming: partial chunks pass as they come; only the
// aggregate of a streamed answer has its code run.
func TestCodeExecutionStreaming(t *testing.T) {
	t.Parallel()
	agent := newAgent(t, llmagent.Config{Name: "coder", CodeExecutor: clientExecutor(t, codeexec.Options{})})
	h, _, sid := setup(t, agent, nil)
	m := scripted.New(modelName).Push(scripted.Stream(et.Text("Run:\n```python\n"), et.Text("f()\n```")),
		scripted.Stream(et.Text("Done.")))
	h.Models.Add(m)
	client := &codeClient{results: []*codeexec.Result{{Stdout: "1"}}}
	var events []*v1.Event
	for ev, err := range h.Runner.Run(t.Context(), runtime.RunRequest{UserID: et.UserID, SessionID: sid,
		NewMessage: et.UserText("go"), RunConfig: runtime.RunConfig{Streaming: true}, Client: client}) {
		if err != nil {
			t.Fatal(err)
		}
		events = append(events, ev)
	}
	var partial []string
	for _, ev := range events {
		if ev.GetPartial() {
			partial = append(partial, ev.GetContent().GetParts()[0].Text)
		}
	}
	diffPairs(t, "partial", partial, []string{"Run:\n```python\n", "f()\n```", "Done."})
	if len(client.calls) != 1 || client.calls[0].Code != "f()" {
		t.Errorf("calls = %+v, want f() once", client.calls)
	}
	var final []string
	for _, ev := range events {
		if !ev.GetPartial() {
			final = append(final, eventLines([]*v1.Event{ev})...)
		}
	}
	diffPairs(t, "final events", final, []string{"coder: Run:\n", "coder: code PYTHON f()",
		"coder: result OUTCOME_OK Code execution result:\n1\n", "coder: Done."})
}
