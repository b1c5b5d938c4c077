package server_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

const (
	appName   = "desk"
	userID    = "u1"
	modelName = "m"
	deskAgent = `name: desk_agent
model: m
tools:
  - name: get_weather
  - name: approve
sub_agents:
  - config_path: helper.yaml
`
	helperAgent = "name: helper\nmodel: m\ntools:\n  - name: send_mail\n"
)

// stack is the desk app's [fixture] served over bufconn.
type stack struct{ *fixture }

func newStack(t *testing.T, toolTimeout time.Duration) *stack {
	t.Helper()
	return newStackWith(t, func(cfg *server.Config) { cfg.ToolTimeout = toolTimeout })
}

// newStackWith is newStack with the server's config adjusted by configure.
func newStackWith(t *testing.T, configure func(*server.Config)) *stack {
	t.Helper()
	return &stack{newFixture(t, withConfig(configure))}
}

func (s *stack) newSession(t *testing.T, ctx context.Context) string {
	t.Helper()
	st, _ := structpb.NewStruct(map[string]any{"city": "Paris"})
	resp, err := s.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID, State: st})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Session.Id
}

// session returns the stored session sid of userID.
func (s *stack) session(t *testing.T, ctx context.Context, sid string) *v1.Session {
	t.Helper()
	resp, err := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Session
}

// storedEvents returns the session's events reduced to "author: part".
func (s *stack) storedEvents(t *testing.T, ctx context.Context, sid string) []string {
	t.Helper()
	return et.Events(s.session(t, ctx, sid).Events)
}

func startMsg(sid, text string, tools ...*api.ToolDeclaration) *api.ConnectRequest {
	return &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
			NewMessage: &v1.Content{Parts: []*v1.Part{{Text: text}}}},
		Tools: tools,
	}}}
}

func resultMsg(callID string, v *structpb.Value) *api.ConnectRequest {
	return &api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: &api.ToolResult{CallId: callID, Response: v}}}
}

var weatherTool = &api.ToolDeclaration{Name: "get_weather", Description: "Weather of a city.",
	Parameters: et.Struct(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}

// connect opens a Connect stream and sends start.
func (f *fixture) connect(t *testing.T, ctx context.Context, start *api.ConnectRequest) grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse] {
	t.Helper()
	stream, err := f.runner.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A stream the server ends at once (over the stream cap) fails Send
	// with io.EOF; its status is what the next Recv returns.
	if err := stream.Send(start); err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	return stream
}

// line renders a server message for assertions.
func line(m *api.ConnectResponse) string {
	switch k := m.Kind.(type) {
	case *api.ConnectResponse_Event:
		return "event " + strings.Join(et.Events([]*v1.Event{k.Event}), " | ")
	case *api.ConnectResponse_ToolCall:
		return "tool_call " + et.PartString(&v1.Part{FunctionCall: k.ToolCall.FunctionCall})
	case *api.ConnectResponse_Done:
		return "done"
	}
	return "?"
}

// recvUntil receives messages until one matches stop (included); it fails
// on a stream error.
func recvUntil(t *testing.T, stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse],
	stop func(*api.ConnectResponse) bool) []*api.ConnectResponse {
	t.Helper()
	var got []*api.ConnectResponse
	for {
		m, err := stream.Recv()
		if err != nil {
			t.Fatalf("recv after %d messages: %v", len(got), err)
		}
		got = append(got, m)
		if stop(m) {
			return got
		}
	}
}

// recvAll receives until the stream ends and returns the messages and the
// final status (nil for OK).
func recvAll(stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]) ([]*api.ConnectResponse, error) {
	var got []*api.ConnectResponse
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, m)
	}
}

func isToolCall(m *api.ConnectResponse) bool { return m.GetToolCall() != nil }

func lines(ms []*api.ConnectResponse) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = line(m)
	}
	return out
}

func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestConnectRoundTrip(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("It is sunny in Paris."))

	stream := s.connect(t, ctx, startMsg(sid, "Weather in Paris?", weatherTool))
	head := recvUntil(t, stream, isToolCall)
	call := head[len(head)-1].GetToolCall()
	callEvent := head[0].GetEvent()
	want := &api.ToolCall{CallId: callEvent.Content.Parts[0].FunctionCall.Id, InvocationId: callEvent.InvocationId,
		AgentName: "desk_agent", FunctionCall: callEvent.Content.Parts[0].FunctionCall, State: et.Struct(`{"city":"Paris"}`)}
	if diff := cmp.Diff(want, call, protocmp.Transform()); diff != "" {
		t.Errorf("tool call (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(call.CallId, "adk-") {
		t.Errorf("call id = %q, want adk-", call.CallId)
	}
	if err := stream.Send(resultMsg(call.CallId, structpb.NewStringValue("sunny"))); err != nil {
		t.Fatal(err)
	}
	rest, err := recvAll(stream)
	if err != nil {
		t.Fatal(err)
	}
	wantLines := []string{
		`event desk_agent: call get_weather{"city":"Paris"}`,
		`tool_call call get_weather{"city":"Paris"}`,
		`event desk_agent: response get_weather{"result":"sunny"}`,
		"event desk_agent: It is sunny in Paris.",
		"done",
	}
	if diff := cmp.Diff(wantLines, lines(append(head, rest...))); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if got := rest[len(rest)-1].GetDone().GetInvocationId(); got != callEvent.InvocationId {
		t.Errorf("done invocation id = %q, want %q", got, callEvent.InvocationId)
	}
	// The declaration the model saw is the client's, with its mandatory
	// parameter.
	var decl *v1.FunctionDeclaration
	for _, tl := range s.model.Requests()[0].GetConfig().GetTools() {
		for _, d := range tl.GetFunctionDeclarations() {
			if d.Name == "get_weather" {
				decl = d
			}
		}
	}
	if diff := cmp.Diff(&v1.FunctionDeclaration{Name: "get_weather", Description: weatherTool.Description,
		Parameters: weatherTool.Parameters}, decl, protocmp.Transform()); diff != "" {
		t.Errorf("declaration (-want +got):\n%s", diff)
	}
}

func TestConnectParallelCallsAnsweredOutOfOrder(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Calls(
		&v1.FunctionCall{Name: "get_weather", Args: et.Struct(`{"city":"Paris"}`)},
		&v1.FunctionCall{Name: "get_weather", Args: et.Struct(`{"city":"Rome"}`)},
		&v1.FunctionCall{Name: "get_weather", Args: et.Struct(`{"city":"Oslo"}`)},
	), et.Text("Done."))
	stream := s.connect(t, ctx, startMsg(sid, "Three cities", weatherTool))
	var calls []*api.ToolCall
	recvUntil(t, stream, func(m *api.ConnectResponse) bool {
		if c := m.GetToolCall(); c != nil {
			calls = append(calls, c)
		}
		return len(calls) == 3
	})
	// Every call is out before any is answered; answer in reverse.
	for i := len(calls) - 1; i >= 0; i-- {
		city := calls[i].FunctionCall.Args.Fields["city"].GetStringValue()
		if err := stream.Send(resultMsg(calls[i].CallId, structpb.NewStringValue("sunny in "+city))); err != nil {
			t.Fatal(err)
		}
	}
	rest, err := recvAll(stream)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`event desk_agent: response get_weather{"result":"sunny in Paris"} | desk_agent: response get_weather{"result":"sunny in Rome"} | desk_agent: response get_weather{"result":"sunny in Oslo"}`,
		"event desk_agent: Done.",
		"done",
	}
	if diff := cmp.Diff(want, lines(rest)); diff != "" {
		t.Errorf("messages after the calls (-want +got):\n%s", diff)
	}
}

func TestConnectStartErrors(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	withRun := func(f func(*api.RunRequest)) *api.ConnectRequest {
		m := startMsg(sid, "hi")
		f(m.GetStart().Run)
		return m
	}
	tests := []struct {
		name  string
		first *api.ConnectRequest // nil: close without sending
		code  codes.Code
		want  string
	}{
		{"no start", nil, codes.InvalidArgument, "the stream ended before its start message"},
		{"result first", resultMsg("x", nil), codes.InvalidArgument, "the first message of a Connect stream must be start"},
		{"no run", &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{}}}, codes.InvalidArgument, "app_name"},
		{"unknown app", withRun(func(r *api.RunRequest) { r.AppName = "nope" }), codes.NotFound, "App not found: nope"},
		{"unknown session", withRun(func(r *api.RunRequest) { r.SessionId = "nope" }), codes.NotFound, "Session not found"},
		{"no message", withRun(func(r *api.RunRequest) { r.NewMessage = nil }), codes.InvalidArgument, "new_message"},
		{"tool without name", startMsg(sid, "hi", &api.ToolDeclaration{}), codes.InvalidArgument, "start.tools[0].name is required"},
		{"tool twice", startMsg(sid, "hi", weatherTool, weatherTool), codes.InvalidArgument, `start.tools[1]: tool "get_weather" is declared twice`},
		{"tool no agent names", startMsg(sid, "hi", &api.ToolDeclaration{Name: "get_time"}), codes.InvalidArgument,
			`start.tools[0]: no agent of app "desk" names the tool "get_time" in its tools`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t) // the parent's may run out while this waits for a slot
			stream, err := s.runner.Connect(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if tt.first != nil {
				if err := stream.Send(tt.first); err != nil {
					t.Fatal(err)
				}
			}
			if err := stream.CloseSend(); err != nil {
				t.Fatal(err)
			}
			msgs, err := recvAll(stream)
			st := status.Convert(err)
			if len(msgs) != 0 || st.Code() != tt.code || !strings.Contains(st.Message(), tt.want) {
				t.Fatalf("got %v and %v, want %v containing %q", lines(msgs), err, tt.code, tt.want)
			}
			if !hasErrorInfo(st) {
				t.Errorf("status %v has no ErrorInfo", st)
			}
		})
	}
}

func hasErrorInfo(st *status.Status) bool {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.Domain == "agentsvc" {
			return true
		}
	}
	return false
}

func TestConnectToolTimeout(t *testing.T) {
	t.Parallel()
	s := newStack(t, 50*time.Millisecond)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("The weather service is slow."))
	stream := s.connect(t, ctx, startMsg(sid, "Weather?", weatherTool))
	msgs, err := recvAll(stream) // never answers
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`event desk_agent: call get_weather{"city":"Paris"}`,
		`tool_call call get_weather{"city":"Paris"}`,
		`event desk_agent: response get_weather{"error":"Tool 'get_weather' did not return a result within 50ms."}`,
		"event desk_agent: The weather service is slow.",
		"done",
	}
	if diff := cmp.Diff(want, lines(msgs)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	// A late answer is ignored.
	_ = stream.Send(resultMsg(msgs[1].GetToolCall().CallId, structpb.NewStringValue("late")))
}

func TestConnectEndsMidCall(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		// end ends the invocation while the call waits; it reports the
		// status the client should see (OK: not checked).
		end  func(cancelCtx context.CancelFunc, stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]) error
		code codes.Code
		want string
		// closed is how the error response that closes the call ends.
		closed string
	}{
		{"cancel message", func(_ context.CancelFunc, stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]) error {
			return stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Cancel{Cancel: &api.CancelRun{}}})
		}, codes.Canceled, "invocation cancelled", "was cancelled."},
		{"client closes its side", func(_ context.CancelFunc, stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]) error {
			return stream.CloseSend()
		}, codes.InvalidArgument, "the client closed its side of the stream without answering tool call adk-", "failed."},
		{"second start", func(_ context.CancelFunc, stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]) error {
			return stream.Send(startMsg("s", "again"))
		}, codes.InvalidArgument, "start may only be the first message", "failed."},
		{"client goes away", func(cancel context.CancelFunc, _ grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]) error {
			cancel()
			return nil
		}, codes.Canceled, "", "was cancelled."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newStack(t, time.Minute)
			ctx := testContext(t)
			sid := s.newSession(t, ctx)
			s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
			streamCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			stream := s.connect(t, streamCtx, startMsg(sid, "Weather?", weatherTool))
			recvUntil(t, stream, isToolCall)
			if err := tt.end(cancel, stream); err != nil {
				t.Fatal(err)
			}
			msgs, err := recvAll(stream)
			if st := status.Convert(err); len(msgs) != 0 || st.Code() != tt.code || !strings.Contains(st.Message(), tt.want) {
				t.Errorf("got %v then %v, want %v containing %q", lines(msgs), err, tt.code, tt.want)
			}
			s.waitIdle(t)
			// Only whole events are stored, the call is closed with an
			// error response, and the session takes a new run whose model
			// request pairs the call.
			closed := `get_weather{"error":"The tool call was not completed: the invocation ` + tt.closed + `"}`
			want := []string{"user: Weather?", `desk_agent: call get_weather{"city":"Paris"}`, "desk_agent: response " + closed}
			if diff := cmp.Diff(want, s.storedEvents(t, ctx, sid)); diff != "" {
				t.Errorf("stored events (-want +got):\n%s", diff)
			}
			s.model.Enqueue(et.Text("Hello again."))
			again, err := recvAll(s.connect(t, ctx, startMsg(sid, "Hello?", weatherTool)))
			if err != nil || len(again) != 2 || again[1].GetDone() == nil {
				t.Errorf("new run: %v, %v", lines(again), err)
			}
			reqs := s.model.Requests()
			wantReq := []string{"user: Weather?", `model: call get_weather{"city":"Paris"}`, "user: response " + closed, "user: Hello?"}
			if diff := cmp.Diff(wantReq, et.Contents(reqs[len(reqs)-1].Contents)); diff != "" {
				t.Errorf("next model request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestConnectDeadline(t *testing.T) {
	t.Parallel()
	s := newStack(t, time.Minute)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	dctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	_, err := recvAll(s.connect(t, dctx, startMsg(sid, "Weather?", weatherTool)))
	if code := status.Code(err); code != codes.DeadlineExceeded {
		t.Errorf("status = %v, want DEADLINE_EXCEEDED", err)
	}
	s.waitIdle(t)
}

func TestConnectClosedInputWithoutCallsCompletes(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Text("Hi."))
	stream := s.connect(t, ctx, startMsg(sid, "Hello", weatherTool))
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	msgs, err := recvAll(stream)
	if diff := cmp.Diff([]string{"event desk_agent: Hi.", "done"}, lines(msgs)); diff != "" || err != nil {
		t.Errorf("messages (-want +got):\n%s; err = %v", diff, err)
	}
}

func TestConnectIgnoresResultsForNoCall(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("ok"))
	stream := s.connect(t, ctx, startMsg(sid, "Weather?", weatherTool))
	head := recvUntil(t, stream, isToolCall)
	id := head[len(head)-1].GetToolCall().CallId
	for _, m := range []*api.ConnectRequest{
		resultMsg("adk-unknown", structpb.NewStringValue("wrong")),
		{}, // a kind this server does not know
		resultMsg(id, structpb.NewStringValue("sunny")),
		resultMsg(id, structpb.NewStringValue("second answer")),
	} {
		// The run may end, and the stream with it, before the last sends:
		// Send then reports io.EOF and Recv the outcome.
		if err := stream.Send(m); err != nil && !errors.Is(err, io.EOF) {
			t.Fatal(err)
		}
	}
	rest, err := recvAll(stream)
	want := []string{`event desk_agent: response get_weather{"result":"sunny"}`, "event desk_agent: ok", "done"}
	if diff := cmp.Diff(want, lines(rest)); diff != "" || err != nil {
		t.Errorf("messages (-want +got):\n%s; err = %v", diff, err)
	}
}

func TestConnectLongRunningWithoutResult(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("approve", `{"amount":10}`))
	stream := s.connect(t, ctx, startMsg(sid, "Approve it", &api.ToolDeclaration{Name: "approve", LongRunning: true}))
	head := recvUntil(t, stream, isToolCall)
	if ids := head[0].GetEvent().GetLongRunningToolIds(); len(ids) != 1 || ids[0] != head[1].GetToolCall().CallId {
		t.Errorf("long_running_tool_ids = %v", ids)
	}
	if err := stream.Send(resultMsg(head[1].GetToolCall().CallId, nil)); err != nil {
		t.Fatal(err)
	}
	rest, err := recvAll(stream)
	if diff := cmp.Diff([]string{"done"}, lines(rest)); diff != "" || err != nil {
		t.Errorf("after the empty result (-want +got):\n%s; err = %v", diff, err)
	}
	if s.model.Calls() != 1 {
		t.Errorf("model calls = %d, want 1: the turn ends", s.model.Calls())
	}
}

func TestConnectUndeclaredRemoteTool(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	// The client declares nothing: get_weather is absent.
	msgs, err := recvAll(s.connect(t, ctx, startMsg(sid, "Weather?")))
	st := status.Convert(err)
	if st.Code() != codes.FailedPrecondition || !strings.HasPrefix(st.Message(), "Tool 'get_weather' not found.") {
		t.Errorf("status = %v, want FAILED_PRECONDITION Tool 'get_weather' not found.", err)
	}
	if diff := cmp.Diff([]string{`event desk_agent: call get_weather{"city":"Paris"}`}, lines(msgs)); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

func TestConnectSubAgentTool(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(
		et.Call("transfer_to_agent", `{"agent_name":"helper"}`),
		et.Call("send_mail", `{"to":"ada"}`),
		et.Text("Sent."))
	mail := &api.ToolDeclaration{Name: "send_mail"}
	stream := s.connect(t, ctx, startMsg(sid, "Mail Ada", mail))
	head := recvUntil(t, stream, isToolCall)
	call := head[len(head)-1].GetToolCall()
	if call.AgentName != "helper" {
		t.Errorf("agent_name = %q, want helper", call.AgentName)
	}
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: &api.ToolResult{
		CallId: call.CallId, Response: structpb.NewBoolValue(true),
		Actions: &v1.EventActions{StateDelta: et.Struct(`{"mailed":true}`)}}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(stream); err != nil {
		t.Fatal(err)
	}
	resp, err := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Session.State.Fields["mailed"].GetBoolValue() {
		t.Errorf("state = %v, want the tool's state delta applied", resp.Session.State)
	}
}

func TestRunHasNoRemoteTools(t *testing.T) {
	t.Parallel()
	s := newStack(t, 0)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	stream, err := s.runner.Run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "Weather?"}}}})
	if err != nil {
		t.Fatal(err)
	}
	var events []*v1.Event
	for {
		resp, err := stream.Recv()
		if err != nil {
			st := status.Convert(err)
			if st.Code() != codes.FailedPrecondition || !strings.HasPrefix(st.Message(), "Tool 'get_weather' not found.") {
				t.Errorf("status = %v, want FAILED_PRECONDITION Tool 'get_weather' not found.", err)
			}
			break
		}
		events = append(events, resp.Event)
	}
	if diff := cmp.Diff([]string{`desk_agent: call get_weather{"city":"Paris"}`}, et.Events(events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	for _, tl := range s.model.Requests()[0].GetConfig().GetTools() {
		for _, d := range tl.GetFunctionDeclarations() {
			if d.Name == "get_weather" {
				t.Errorf("Run declared the remote tool %s to the model", d.Name)
			}
		}
	}
}
