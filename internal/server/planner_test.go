package server_test

import (
	"encoding/json"
	"net/http"
	"os"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// planReActJourney is what google-adk 1.39.1 did on seed 003's Plan-Re-Act
// pipeline: the model's answers, the request bodies Gemini received and
// the session's events (call ids left out).
type planReActJourney struct {
	Responses [][]any          `json:"responses"`
	Requests  []map[string]any `json:"requests"`
	Stored    []map[string]any `json:"stored"`
}

const dataAnalyst = `name: data_analyst
model: gemini-2.5-flash
instruction: You are a data analyst expert.
planner: {name: PlanReActPlanner}
tools:
  - name: load_employee_data
  - name: average_age
`

// The client's tools, declared as ADK declares its Python functions.
var (
	loadEmployeeData = &api.ToolDeclaration{Name: "load_employee_data", Description: "Loads the employee records."}
	averageAge       = &api.ToolDeclaration{Name: "average_age", Description: "Average age of a department's employees.",
		Parameters: et.Struct(`{"type":"object","properties":{"department":{"type":"string"}},"required":["department"]}`)}
)

// TestPlanReActJourneyOverGRPC replays the Plan-Re-Act pipeline (plan, act,
// reason, act, final answer, then one more turn) over Connect with the
// tools in the client and Gemini served locally, and compares each request
// body and the session with google-adk 1.39.1's; the stored thoughts read
// back over REST as ADK shows them.
func TestPlanReActJourneyOverGRPC(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("testdata/adk-1.39.1-plan_re_act.json")
	if err != nil {
		t.Fatal(err)
	}
	var adk planReActJourney
	if err := json.Unmarshal(b, &adk); err != nil {
		t.Fatal(err)
	}
	s := newGeminiAppStack(t, fstest.MapFS{geminiApp + "/root_agent.yaml": {Data: []byte(dataAnalyst)}})
	for _, parts := range adk.Responses {
		s.enqueue(t, fakegemini.Item{Response: map[string]any{"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP"}}}})
	}
	sid := s.newSession(t)
	ctx := testContext(t)

	rows, _ := structpb.NewValue(map[string]any{"rows": []any{
		map[string]any{"name": "Ada", "age": 30, "department": "Engineering"},
		map[string]any{"name": "Linus", "age": 35, "department": "Engineering"},
		map[string]any{"name": "Grace", "age": 41, "department": "Sales"},
	}})
	stream := s.connect(t, ctx, geminiStart(sid, "Find the average age of employees in the Engineering dept"))
	var got []*api.ConnectResponse
	for _, result := range []*structpb.Value{rows, structpb.NewNumberValue(32.5)} {
		head := recvUntil(t, stream, isToolCall)
		got = append(got, head...)
		if err := stream.Send(resultMsg(head[len(head)-1].GetToolCall().CallId, result)); err != nil {
			t.Fatal(err)
		}
	}
	rest, err := recvAll(stream)
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, rest...)
	// Planning, reasoning and action parts stream as thought; the final
	// answer follows the thought that ends with its tag.
	wantLines := []string{
		"event data_analyst: thought /*PLANNING*/\nTo find the average age of Engineering employees:\n1. Load employee data\n" +
			"2. Calculate the average age of the Engineering department\n | data_analyst: thought /*ACTION*/\n | " +
			"data_analyst: call load_employee_data{}",
		"tool_call call load_employee_data{}",
		`event data_analyst: response load_employee_data{"rows":[{"age":30,"department":"Engineering","name":"Ada"},` +
			`{"age":35,"department":"Engineering","name":"Linus"},{"age":41,"department":"Sales","name":"Grace"}]}`,
		"event data_analyst: thought /*REASONING*/\nThe data loaded successfully. Now I'll compute the Engineering average.\n" +
			` | data_analyst: thought /*ACTION*/` + "\n" + ` | data_analyst: call average_age{"department":"Engineering"}`,
		`tool_call call average_age{"department":"Engineering"}`,
		`event data_analyst: response average_age{"result":32.5}`,
		"event data_analyst: thought /*REASONING*/\nSuccessfully calculated the average age of Engineering employees. " +
			"The result is 32.5 years.\n/*FINAL_ANSWER*/ | data_analyst: \nThe average age of employees in the Engineering " +
			"department is 32.5 years.",
		"done",
	}
	if diff := cmp.Diff(wantLines, lines(got)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}

	stream = s.connect(t, ctx, geminiStart(sid, "Thanks!"))
	if _, err := recvAll(stream); err != nil {
		t.Fatal(err)
	}

	reqs := s.fake.Requests()
	if len(reqs) != len(adk.Requests) {
		t.Fatalf("model requests = %d, want %d", len(reqs), len(adk.Requests))
	}
	for i, r := range reqs {
		body := r.Body
		delete(body, "generationConfig") // the adapter's defaults, checked elsewhere
		want := adk.Requests[i]
		delete(want, "generationConfig")
		dropEmptyArgs(want)
		if diff := cmp.Diff(want, body); diff != "" {
			t.Errorf("request %d (-adk +ours):\n%s", i+1, diff)
		}
	}

	var stored []map[string]any
	for _, ev := range s.storedEvents(t, sid) {
		stored = append(stored, map[string]any{"author": ev.Author, "content": contentJSON(t, ev.Content)})
	}
	if diff := cmp.Diff(adk.Stored, stored); diff != "" {
		t.Errorf("session (-adk +ours):\n%s", diff)
	}

	// Over REST the session's events show thought: true as ADK's do.
	code, body := doJSON(t, http.MethodGet, s.httpURL+"/apps/"+geminiApp+"/users/"+userID+"/sessions/"+sid, "")
	if code != http.StatusOK {
		t.Fatalf("GET session: %d %s", code, body)
	}
	var session struct {
		Events []struct {
			Author  string         `json:"author"`
			Content map[string]any `json:"content"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(body), &session); err != nil {
		t.Fatal(err)
	}
	var rest2 []map[string]any
	for _, ev := range session.Events {
		rest2 = append(rest2, map[string]any{"author": ev.Author, "content": withoutIDs(ev.Content)})
	}
	if diff := cmp.Diff(adk.Stored, rest2); diff != "" {
		t.Errorf("REST session (-adk +ours):\n%s", diff)
	}

	// ADK's events, thoughts included, restored over REST read back the same.
	imported, err := json.Marshal(map[string]any{"sessionId": "restored", "events": adk.Stored})
	if err != nil {
		t.Fatal(err)
	}
	sessions := s.httpURL + "/apps/" + geminiApp + "/users/" + userID + "/sessions"
	if code, body := postJSON(t, sessions, string(imported)); code != http.StatusOK {
		t.Fatalf("create with events: %d %s", code, body)
	}
	code, body = doJSON(t, http.MethodGet, sessions+"/restored", "")
	session.Events = nil
	if err := json.Unmarshal([]byte(body), &session); code != http.StatusOK || err != nil {
		t.Fatalf("GET restored session: %d %s %v", code, body, err)
	}
	var restored []map[string]any
	for _, ev := range session.Events {
		restored = append(restored, map[string]any{"author": ev.Author, "content": withoutIDs(ev.Content)})
	}
	if diff := cmp.Diff(adk.Stored, restored); diff != "" {
		t.Errorf("restored session (-adk +ours):\n%s", diff)
	}
}

// dropEmptyArgs removes the empty args of calls in a request body: the
// Python SDK sends "args": {}, Go's genai SDK leaves an empty map out
// (omitempty); Gemini reads both alike.
func dropEmptyArgs(body map[string]any) {
	contents, _ := body["contents"].([]any)
	for _, c := range contents {
		parts, _ := c.(map[string]any)["parts"].([]any)
		for _, p := range parts {
			if fc, ok := p.(map[string]any)["functionCall"].(map[string]any); ok {
				if args, ok := fc["args"].(map[string]any); ok && len(args) == 0 {
					delete(fc, "args")
				}
			}
		}
	}
}

func geminiStart(sid, text string) *api.ConnectRequest {
	return &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: &api.RunRequest{AppName: geminiApp, UserId: userID, SessionId: sid,
			NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}},
		Tools: []*api.ToolDeclaration{loadEmployeeData, averageAge},
	}}}
}

// contentJSON is c as JSON, call ids left out.
func contentJSON(t *testing.T, c *v1.Content) map[string]any {
	t.Helper()
	b, err := protojson.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return withoutIDs(m)
}

func withoutIDs(content map[string]any) map[string]any {
	parts, _ := content["parts"].([]any)
	for _, p := range parts {
		for _, k := range []string{"functionCall", "functionResponse"} {
			if m, ok := p.(map[string]any)[k].(map[string]any); ok {
				delete(m, "id")
			}
		}
	}
	return content
}

// TestBuiltInPlannerOverGRPC: a BuiltInPlanner's thinking config replaces
// the agent's in what Gemini receives, and a thought part the model sends
// is stored and sent back marked as thought, signature and all, as
// google-adk 1.39.1 does. (The Python SDK writes the thinking config's
// keys in snake_case, Go's in camelCase; Gemini reads both.)
func TestBuiltInPlannerOverGRPC(t *testing.T) {
	t.Parallel()
	s := newGeminiAppStack(t, fstest.MapFS{geminiApp + "/root_agent.yaml": {Data: []byte(`name: thinker
model: gemini-2.5-flash
instruction: Be brief.
generate_content_config: {temperature: 0.5, thinking_config: {thinking_budget: 100}}
planner: {name: BuiltInPlanner, args: {thinking_config: {include_thoughts: true, thinking_budget: 1024}}}
`)}})
	answer := func(parts ...any) fakegemini.Item {
		return fakegemini.Item{Response: map[string]any{"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP"}}}}
	}
	s.enqueue(t, answer(map[string]any{"text": "The user greets me.", "thought": true, "thoughtSignature": "c2ln"},
		map[string]any{"text": "Hello!"}), answer(map[string]any{"text": "Bye."}))
	sid := s.newSession(t)
	events, err := s.run(t.Context(), sid, "hi", false)
	if err != nil {
		t.Fatal(err)
	}
	if got := et.Events(events); !cmp.Equal(got, []string{"thinker: thought The user greets me.", "thinker: Hello!"}) {
		t.Errorf("events = %q", got)
	}
	if _, err := s.run(t.Context(), sid, "bye", false); err != nil {
		t.Fatal(err)
	}
	reqs := s.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("model requests = %d, want 2", len(reqs))
	}
	wantThinking := map[string]any{"includeThoughts": true, "thinkingBudget": float64(1024)}
	for i, r := range reqs {
		gc, _ := r.Body["generationConfig"].(map[string]any)
		if !cmp.Equal(gc["thinkingConfig"], any(wantThinking)) || gc["temperature"] != 0.5 {
			t.Errorf("request %d generationConfig = %v, want the planner's thinking config and temperature 0.5", i+1, gc)
		}
	}
	wantContents := []any{
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": "hi"}}},
		map[string]any{"role": "model", "parts": []any{
			map[string]any{"text": "The user greets me.", "thought": true, "thoughtSignature": "c2ln"},
			map[string]any{"text": "Hello!"}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": "bye"}}},
	}
	if diff := cmp.Diff(wantContents, reqs[1].Body["contents"]); diff != "" {
		t.Errorf("second request contents (-adk +ours):\n%s", diff)
	}
}
