package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// startExamples serves the bundled example apps.
func startExamples(t *testing.T) *stack {
	t.Helper()
	dir, err := filepath.Abs("../examples")
	if err != nil {
		t.Fatal(err)
	}
	return startStack(t, nil, "--agents", dir)
}

// postScript sends a fake Gemini script.
func (s *stack) postScript(t *testing.T, sc fakegemini.Script) {
	t.Helper()
	body, err := json.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.fakeURL+"/_fake/script", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("script: %d", resp.StatusCode)
	}
}

// runApp runs text on a new session of app and returns the session id and
// the events.
func (s *stack) runApp(t *testing.T, ctx context.Context, app, sid, text string) (string, []*v1.Event) {
	t.Helper()
	if sid == "" {
		created, err := api.NewSessionServiceClient(s.conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: app, UserId: "u"})
		if err != nil {
			t.Fatal(err)
		}
		sid = created.Session.Id
	}
	stream, err := api.NewRunnerServiceClient(s.conn).Run(ctx, &api.RunRequest{AppName: app, UserId: "u", SessionId: sid,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: text}}}})
	if err != nil {
		t.Fatal(err)
	}
	var events []*v1.Event
	for {
		r, err := stream.Recv()
		if err == io.EOF {
			return sid, events
		}
		if err != nil {
			t.Fatalf("run %s: %v", app, err)
		}
		events = append(events, r.Event)
	}
}

func TestStoryPipelineOverGRPC(t *testing.T) {
	t.Parallel()
	s := startExamples(t)
	// The critic, the only agent with a tool, ends the loop at once; every
	// other agent gets the fake model's echo.
	s.postScript(t, fakegemini.Script{Rules: []fakegemini.Rule{{
		Tools: ptr(true), Item: fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "exit_loop"})),
	}}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid, events := s.runApp(t, ctx, "story_pipeline", "", "a cat who sails")

	var authors []string
	branches := map[string]string{}
	texts := map[string]string{}
	for _, ev := range events {
		authors = append(authors, ev.Author)
		branches[ev.Author] = ev.Branch
		texts[ev.Author] = partLine(ev.GetContent().GetParts()[0])
	}
	// The two reviews run in parallel and may come in either order.
	if len(authors) != 6 || authors[0] != "writer" || authors[3] != "editor" || authors[4] != "critic" || authors[5] != "critic" ||
		!(authors[1] == "style_reviewer" && authors[2] == "plot_reviewer" || authors[1] == "plot_reviewer" && authors[2] == "style_reviewer") {
		t.Fatalf("authors = %q", authors)
	}
	if texts["writer"] != "Echo: a cat who sails" || texts["critic"] != `response exit_loop{"result":null}` {
		t.Errorf("texts = %q", texts)
	}
	// Other agents' replies reach a later agent as context (C2).
	if !strings.HasPrefix(texts["style_reviewer"], "Echo: For context:[writer] said: ") {
		t.Errorf("style reviewer saw %q", texts["style_reviewer"])
	}
	if branches["style_reviewer"] != "reviews.style_reviewer" || branches["plot_reviewer"] != "reviews.plot_reviewer" || branches["editor"] != "" {
		t.Errorf("branches = %v", branches)
	}

	sess, err := api.NewSessionServiceClient(s.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "story_pipeline", UserId: "u", SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	st := sess.Session.State.AsMap()
	want := map[string]any{"draft": texts["editor"], "style_notes": texts["style_reviewer"], "plot_notes": texts["plot_reviewer"]}
	for k, v := range want {
		if st[k] != v {
			t.Errorf("state[%s] = %v, want %v", k, st[k], v)
		}
	}

	// output_key hand-off: the reviewers' instructions carry the draft.
	handedOff := 0
	for _, r := range s.modelRequests(t) {
		if si := systemInstruction(t, r.Body); strings.Contains(si, "of this draft in two sentences: Echo: a cat who sails") {
			handedOff++
		}
	}
	if handedOff != 2 {
		t.Errorf("reviewer requests carrying the draft = %d, want 2", handedOff)
	}
}

func TestDispatcherTransferOverGRPC(t *testing.T) {
	t.Parallel()
	s := startExamples(t)
	s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{
		fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "transfer_to_agent", Args: map[string]any{"agent_name": "sales"}})),
		fakegemini.Reply(fakegemini.Text("Our premium plan costs 10 euros.")),
		fakegemini.Reply(fakegemini.Text("It includes support.")),
	}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid, events := s.runApp(t, ctx, "dispatcher", "", "How much is the premium plan?")
	var got []string
	for _, ev := range events {
		got = append(got, ev.Author+": "+partLine(ev.Content.Parts[0]))
	}
	equalLines(t, "first turn", got, []string{
		`dispatcher: call transfer_to_agent{"agent_name":"sales"}`,
		`dispatcher: response transfer_to_agent{"result":null}`,
		"sales: Our premium plan costs 10 euros.",
	})
	// The specialist keeps the conversation on the next turn (L7).
	_, events = s.runApp(t, ctx, "dispatcher", sid, "What does it include?")
	if len(events) != 1 || events[0].Author != "sales" {
		t.Errorf("second turn = %v", events)
	}
	// I4: the dispatcher's request names its targets.
	first := systemInstruction(t, s.modelRequests(t)[0].Body)
	if !strings.Contains(first, "**NOTE**: the only available agents for `transfer_to_agent` function are\n`billing`, `sales`, `support`.\n") {
		t.Errorf("dispatcher instruction:\n%s", first)
	}
}

func ptr[T any](v T) *T { return &v }

func TestDispatcherSpecialistCallsClientTool(t *testing.T) {
	t.Parallel()
	s := startExamples(t)
	s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{
		fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "transfer_to_agent", Args: map[string]any{"agent_name": "billing"}})),
		fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "get_invoice", Args: map[string]any{"month": "May"}})),
		fakegemini.Reply(fakegemini.Text("You were charged twice; a refund is on its way.")),
		fakegemini.Reply(fakegemini.Text("The refund takes three days.")),
	}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := newSession(t, ctx, s, "dispatcher")
	invoice := &api.ToolDeclaration{Name: "get_invoice", Description: "Returns an invoice."}
	stream := s.connectRun(t, ctx, "dispatcher", sid, userText("I was charged twice for my subscription"), invoice)
	msgs, calls := until(t, stream, 1)
	if calls[0].AgentName != "billing" {
		t.Errorf("tool_call from %s, want billing", calls[0].AgentName)
	}
	answer(t, stream, calls[0].CallId, structpb.NewStructValue(mustStruct(map[string]any{"charges": 2})))
	rest, err := drain(stream)
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "first turn", describe(append(msgs, rest...)), []string{
		`event dispatcher: call transfer_to_agent{"agent_name":"billing"}`,
		`event dispatcher: response transfer_to_agent{"result":null}`,
		`event billing: call get_invoice{"month":"May"}`,
		`tool_call call get_invoice{"month":"May"}`,
		`event billing: response get_invoice{"charges":2}`,
		"event billing: You were charged twice; a refund is on its way.",
		"done",
	})
	// The next turn goes straight to the specialist.
	msgs, err = drain(s.connectRun(t, ctx, "dispatcher", sid, userText("How long will it take?"), invoice))
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "second turn", describe(msgs), []string{"event billing: The refund takes three days.", "done"})
}

// TestOtherAgentCallRetoldInModelKeyOrder checks BEHAVIOR C2 end to end: a
// call the model wrote with its arguments in an unsorted order is retold
// to another agent with the arguments in that order, as ADK prints a dict.
func TestOtherAgentCallRetoldInModelKeyOrder(t *testing.T) {
	t.Parallel()
	s := startExamples(t)
	invoiceCall := json.RawMessage(`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":` +
		`{"name":"get_invoice","args":{"month":"May","year":2025,"detailed":true,"filter":{"status":"open","kind":null}}}}]},` +
		`"finishReason":"STOP"}]}`)
	s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{
		fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "transfer_to_agent", Args: map[string]any{"agent_name": "billing"}})),
		fakegemini.Reply(invoiceCall),
		fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{Name: "transfer_to_agent", Args: map[string]any{"agent_name": "dispatcher"}})),
		fakegemini.Reply(fakegemini.Text("Anything else?")),
	}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := newSession(t, ctx, s, "dispatcher")
	invoice := &api.ToolDeclaration{Name: "get_invoice", Description: "Returns an invoice."}
	stream := s.connectRun(t, ctx, "dispatcher", sid, userText("Show my invoice"), invoice)
	msgs, calls := until(t, stream, 1)
	if got := msgs[len(msgs)-2].GetEvent().GetContent().GetParts()[0].GetFunctionCall().GetKeyOrder(); strings.Join(got, ",") != "month,year,detailed,filter,status,kind" {
		t.Errorf("call event key_order = %q, want the model's", got)
	}
	answer(t, stream, calls[0].CallId, structpb.NewStructValue(mustStruct(map[string]any{"total": 12})))
	if _, err := drain(stream); err != nil {
		t.Fatal(err)
	}
	reqs := s.modelRequests(t)
	if len(reqs) != 4 {
		t.Fatalf("model requests = %d, want 4", len(reqs))
	}
	body, err := json.Marshal(reqs[3].Body)
	if err != nil {
		t.Fatal(err)
	}
	want := "[billing] called tool `get_invoice` with parameters: " +
		"{'month': 'May', 'year': 2025, 'detailed': True, 'filter': {'status': 'open', 'kind': None}}"
	if !strings.Contains(string(body), want) {
		t.Errorf("the dispatcher's request does not retell the call as %s:\n%s", want, body)
	}
}
