package integration

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// assistantAgent names two remote tools: a client declares them on Connect.
const assistantAgent = `name: assistant
model: gemini-2.5-flash
description: Answers with the help of the user's own tools.
instruction: Use the tools to answer.
tools:
  - name: get_weather
  - name: request_approval
`

var getWeather = &api.ToolDeclaration{
	Name:        "get_weather",
	Description: "Returns the weather of a city.",
	Parameters: mustStruct(map[string]any{
		"type":       "object",
		"properties": map[string]any{"city": map[string]any{"type": "string"}},
		"required":   []any{"city"},
	}),
}

var requestApproval = &api.ToolDeclaration{Name: "request_approval", Description: "Asks a human to approve.", LongRunning: true}

func mustStruct(m map[string]any) *structpb.Struct {
	s, err := structpb.NewStruct(m)
	if err != nil {
		panic(err)
	}
	return s
}

type connectStream = grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]

// script queues model answers on the fake Gemini server, in order.
func (s *stack) script(t *testing.T, answers ...json.RawMessage) {
	t.Helper()
	sc := fakegemini.Script{}
	for _, a := range answers {
		sc.Responses = append(sc.Responses, fakegemini.Item{Response: a})
	}
	s.postScript(t, sc)
}

func weatherCall(city string) fakegemini.Call {
	return fakegemini.Call{Name: "get_weather", Args: map[string]any{"city": city}}
}

// connectSession creates a session of the assistant app.
func (s *stack) connectSession(t *testing.T, ctx context.Context) string {
	t.Helper()
	resp, err := api.NewSessionServiceClient(s.conn).CreateSession(ctx, &api.CreateSessionRequest{
		AppName: "assistant", UserId: "u1", State: mustStruct(map[string]any{"unit": "celsius"})})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Session.Id
}

// open starts a Connect run of text on the session with the declared tools.
func (s *stack) open(t *testing.T, ctx context.Context, sid, text string, tools ...*api.ToolDeclaration) connectStream {
	t.Helper()
	stream, err := api.NewRunnerServiceClient(s.conn).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: &api.RunRequest{AppName: "assistant", UserId: "u1", SessionId: sid,
			NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}},
		Tools: tools,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	return stream
}

func answer(t *testing.T, stream connectStream, callID string, v *structpb.Value) {
	t.Helper()
	err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: &api.ToolResult{CallId: callID, Response: v}}})
	if err != nil {
		t.Fatal(err)
	}
}

// until receives messages up to and including the n-th tool call.
func until(t *testing.T, stream connectStream, n int) (msgs []*api.ConnectResponse, calls []*api.ToolCall) {
	t.Helper()
	for len(calls) < n {
		m, err := stream.Recv()
		if err != nil {
			t.Fatalf("recv after %d messages: %v", len(msgs), err)
		}
		msgs = append(msgs, m)
		if c := m.GetToolCall(); c != nil {
			calls = append(calls, c)
		}
	}
	return msgs, calls
}

// drain receives until the stream ends; the error is nil for OK.
func drain(stream connectStream) ([]*api.ConnectResponse, error) {
	var msgs []*api.ConnectResponse
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return msgs, nil
		}
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, m)
	}
}

// describe renders messages as "event <author>: <part>", "tool_call <name>
// <args>" and "done" lines.
func describe(msgs []*api.ConnectResponse) []string {
	var out []string
	for _, m := range msgs {
		switch {
		case m.GetEvent() != nil:
			var parts []string
			for _, p := range m.GetEvent().GetContent().GetParts() {
				parts = append(parts, partLine(p))
			}
			out = append(out, "event "+m.GetEvent().Author+": "+strings.Join(parts, " | "))
		case m.GetToolCall() != nil:
			out = append(out, "tool_call "+partLine(&v1.Part{FunctionCall: m.GetToolCall().FunctionCall}))
		case m.GetDone() != nil:
			out = append(out, "done")
		}
	}
	return out
}

func partLine(p *v1.Part) string {
	switch {
	case p.FunctionCall != nil:
		return "call " + p.FunctionCall.Name + compact(p.FunctionCall.Args)
	case p.FunctionResponse != nil:
		return "response " + p.FunctionResponse.Name + compact(p.FunctionResponse.Response)
	}
	return p.Text
}

func compact(s *structpb.Struct) string {
	b, _ := protojson.Marshal(s)
	var out bytes.Buffer
	_ = json.Compact(&out, b)
	return out.String()
}

func equalLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%s:\n  got  %q\n  want %q", what, got, want)
	}
}

func TestConnectRemoteToolRoundTrip(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"assistant": assistantAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.connectSession(t, ctx)
	s.script(t, fakegemini.FunctionCalls(weatherCall("Paris")), fakegemini.Text("It is sunny in Paris."))

	stream := s.open(t, ctx, sid, "Weather in Paris?", getWeather, requestApproval)
	head, calls := until(t, stream, 1)
	call := calls[0]
	callEvent := head[0].GetEvent()
	fc := callEvent.GetContent().GetParts()[0].GetFunctionCall()
	if call.CallId != fc.GetId() || !strings.HasPrefix(call.CallId, "adk-") || call.InvocationId != callEvent.InvocationId ||
		call.AgentName != "assistant" || call.State.Fields["unit"].GetStringValue() != "celsius" {
		t.Errorf("tool_call = %v, want call id %q of invocation %q by assistant with the session state", call, fc.GetId(), callEvent.InvocationId)
	}
	answer(t, stream, call.CallId, structpb.NewStructValue(mustStruct(map[string]any{"sky": "sunny", "temp": 21})))
	rest, err := drain(stream)
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "messages", describe(append(head, rest...)), []string{
		`event assistant: call get_weather{"city":"Paris"}`,
		`tool_call call get_weather{"city":"Paris"}`,
		`event assistant: response get_weather{"sky":"sunny","temp":21}`,
		"event assistant: It is sunny in Paris.",
		"done",
	})
	if got := rest[len(rest)-1].GetDone().GetInvocationId(); got != callEvent.InvocationId {
		t.Errorf("done.invocation_id = %q, want %q", got, callEvent.InvocationId)
	}

	// The model saw the client's declarations, the long-running note, and
	// then [user, model call, user response].
	reqs := s.modelRequests(t)
	if len(reqs) != 2 {
		t.Fatalf("model requests = %d, want 2", len(reqs))
	}
	tools, _ := json.Marshal(reqs[0].Body["tools"])
	for _, want := range []string{`"name":"get_weather"`, `"Returns the weather of a city."`, `"required":["city"]`,
		`Asks a human to approve.\n\nNOTE: This is a long-running operation.`} {
		if !strings.Contains(string(tools), want) {
			t.Errorf("declared tools %s lack %s", tools, want)
		}
	}
	if contents, _ := reqs[1].Body["contents"].([]any); len(contents) != 3 {
		t.Errorf("second request contents = %v, want user, call, response", contents)
	}
}

func TestConnectParallelRemoteCallsMergedInCallOrder(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"assistant": assistantAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.connectSession(t, ctx)
	s.script(t, fakegemini.FunctionCalls(weatherCall("Paris"), weatherCall("Rome"), weatherCall("Oslo")),
		fakegemini.Text("Sunny, rainy and snowy."))

	stream := s.open(t, ctx, sid, "Weather in three cities?", getWeather)
	head, calls := until(t, stream, 3) // all three are out before any answer
	var order []string                 // call ids in the model's order
	for _, p := range head[0].GetEvent().GetContent().GetParts() {
		order = append(order, p.GetFunctionCall().GetId())
	}
	byID := map[string]*api.ToolCall{}
	for _, c := range calls {
		byID[c.CallId] = c
	}
	weather := map[string]string{"Paris": "sunny", "Rome": "rainy", "Oslo": "snowy"}
	for _, i := range []int{2, 0, 1} { // out of order
		c := byID[order[i]]
		if c == nil {
			t.Fatalf("no tool_call for call %s", order[i])
		}
		answer(t, stream, c.CallId, structpb.NewStringValue(weather[c.FunctionCall.Args.Fields["city"].GetStringValue()]))
	}
	rest, err := drain(stream)
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "messages after the calls", describe(rest), []string{
		`event assistant: response get_weather{"result":"sunny"} | response get_weather{"result":"rainy"} | response get_weather{"result":"snowy"}`,
		"event assistant: Sunny, rainy and snowy.",
		"done",
	})
	for i, p := range rest[0].GetEvent().GetContent().GetParts() {
		if got := p.GetFunctionResponse().GetId(); got != order[i] {
			t.Errorf("response %d id = %q, want %q", i, got, order[i])
		}
	}
}

func TestConnectToolTimeout(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"assistant": assistantAgent}, "--tool-timeout", "300ms")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.connectSession(t, ctx)
	s.script(t, fakegemini.FunctionCalls(weatherCall("Paris")), fakegemini.Text("The weather service did not answer."))

	msgs, err := drain(s.open(t, ctx, sid, "Weather in Paris?", getWeather)) // the client never answers
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "messages", describe(msgs), []string{
		`event assistant: call get_weather{"city":"Paris"}`,
		`tool_call call get_weather{"city":"Paris"}`,
		`event assistant: response get_weather{"error":"Tool 'get_weather' did not return a result within 300ms."}`,
		"event assistant: The weather service did not answer.",
		"done",
	})
}

// runAgain runs a text on the session with Run, retrying while the server
// still holds the session for the ended invocation.
func (s *stack) runAgain(t *testing.T, ctx context.Context, sid, text string) []*v1.Event {
	t.Helper()
	for {
		stream, err := api.NewRunnerServiceClient(s.conn).Run(ctx, &api.RunRequest{AppName: "assistant", UserId: "u1",
			SessionId: sid, NewMessage: &v1.Content{Parts: []*v1.Part{{Text: text}}}})
		if err != nil {
			t.Fatal(err)
		}
		var events []*v1.Event
		for {
			resp, err := stream.Recv()
			if errors.Is(err, io.EOF) {
				return events
			}
			if status.Code(err) == codes.Aborted && len(events) == 0 {
				break
			}
			if err != nil {
				t.Fatalf("run again: %v", err)
			}
			events = append(events, resp.Event)
		}
		select {
		case <-ctx.Done():
			t.Fatal("the session stayed busy")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestConnectEndedMidCallLeavesSessionConsistent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		end  func(cancelStream context.CancelFunc, stream connectStream) error
		code codes.Code // what the client sees
	}{
		{"client disconnects", func(cancelStream context.CancelFunc, _ connectStream) error {
			cancelStream()
			return nil
		}, codes.Canceled},
		{"cancel message", func(_ context.CancelFunc, stream connectStream) error {
			return stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Cancel{Cancel: &api.CancelRun{}}})
		}, codes.Canceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := startStack(t, map[string]string{"assistant": assistantAgent})
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			sid := s.connectSession(t, ctx)
			s.script(t, fakegemini.FunctionCalls(weatherCall("Paris")))

			streamCtx, cancelStream := context.WithCancel(ctx)
			defer cancelStream()
			stream := s.open(t, streamCtx, sid, "Weather in Paris?", getWeather)
			until(t, stream, 1)
			if err := tt.end(cancelStream, stream); err != nil {
				t.Fatal(err)
			}
			msgs, err := drain(stream)
			if status.Code(err) != tt.code || len(msgs) != 0 {
				t.Errorf("after the end: %v then %v, want %v", describe(msgs), err, tt.code)
			}

			// The pending call was closed with an error response, a new run
			// succeeds (the default model answer echoes the text), and the
			// session holds whole events only.
			events := s.runAgain(t, ctx, sid, "Hello again")
			if len(events) != 1 || events[0].GetContent().GetParts()[0].GetText() != "Echo: Hello again" {
				t.Errorf("new run events = %v", events)
			}
			got, err := api.NewSessionServiceClient(s.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "assistant", UserId: "u1", SessionId: sid})
			if err != nil {
				t.Fatal(err)
			}
			var stored []string
			for _, ev := range got.Session.Events {
				var parts []string
				for _, p := range ev.GetContent().GetParts() {
					parts = append(parts, partLine(p))
				}
				stored = append(stored, ev.Author+": "+strings.Join(parts, " | "))
			}
			equalLines(t, "stored events", stored, []string{
				"user: Weather in Paris?",
				`assistant: call get_weather{"city":"Paris"}`,
				`assistant: response get_weather{"error":"The tool call was not completed: the invocation was cancelled."}`,
				"user: Hello again",
				"assistant: Echo: Hello again",
			})
		})
	}
}

func TestConnectUndeclaredRemoteTool(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"assistant": assistantAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.connectSession(t, ctx)
	s.script(t, fakegemini.FunctionCalls(weatherCall("Paris")))

	// The client declares only request_approval: get_weather is absent.
	msgs, err := drain(s.open(t, ctx, sid, "Weather in Paris?", requestApproval))
	st := status.Convert(err)
	if st.Code() != codes.FailedPrecondition || !strings.HasPrefix(st.Message(), "Tool 'get_weather' not found.\nAvailable tools: request_approval\n") {
		t.Errorf("status = %v, want FAILED_PRECONDITION Tool 'get_weather' not found.", err)
	}
	equalLines(t, "messages", describe(msgs), []string{`event assistant: call get_weather{"city":"Paris"}`})

	// A declared tool that no agent names is refused at start.
	_, err = drain(s.open(t, ctx, sid, "hi", &api.ToolDeclaration{Name: "get_time"}))
	if st := status.Convert(err); st.Code() != codes.InvalidArgument || !strings.Contains(st.Message(), `"get_time"`) {
		t.Errorf("undeclarable tool: %v, want INVALID_ARGUMENT naming get_time", err)
	}
}

func TestConnectLongRunningToolWithoutResult(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"assistant": assistantAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.connectSession(t, ctx)
	s.script(t, fakegemini.FunctionCalls(fakegemini.Call{Name: "request_approval", Args: map[string]any{"amount": 10}}))

	stream := s.open(t, ctx, sid, "Please approve 10 euros.", getWeather, requestApproval)
	head, calls := until(t, stream, 1)
	if ids := head[0].GetEvent().GetLongRunningToolIds(); len(ids) != 1 || ids[0] != calls[0].CallId {
		t.Errorf("long_running_tool_ids = %v, want [%s]", ids, calls[0].CallId)
	}
	answer(t, stream, calls[0].CallId, nil) // neither response nor error
	rest, err := drain(stream)
	if err != nil {
		t.Fatal(err)
	}
	equalLines(t, "messages after the empty result", describe(rest), []string{"done"})
	if n := len(s.modelRequests(t)); n != 1 {
		t.Errorf("model requests = %d, want 1: the turn ends", n)
	}
}
