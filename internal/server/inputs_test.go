package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/limits"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// limitStack is the desk app served as the binary serves it: gRPC over
// bufconn with the decode options, and REST over loopback.
type limitStack struct {
	*fixture
	rest string // base URL
}

func newLimitStack(t *testing.T) *limitStack {
	t.Helper()
	fx := newFixture(t, withStore(limitStore(t)),
		withConfig(func(cfg *server.Config) {
			cfg.Apps[0].Runner.MaxDepth = limits.DefaultMaxDepth
			cfg.MaxDepth = limits.DefaultMaxDepth
		}),
		withServerOptions(server.DecodeOptions()...),
		withDialOptions(grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20))))
	return &limitStack{fixture: fx, rest: fx.serveHTTP(t).URL}
}

func limitStore(t *testing.T) sessions.Service {
	t.Helper()
	url := os.Getenv("AGENTSVC_TEST_REDIS")
	if url == "" {
		return memory.New()
	}
	store, err := redis.New(url, redis.Options{KeyPrefix: "test-" + uuid.NewString(), TTL: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	return store
}

// deepStruct is an object nested n levels deep: "k" holds the next one.
// Past a thousand levels the inner levels are lists: protobuf sizes a map
// entry's value anew at every level, so marshaling deep objects costs n².
func deepStruct(n int) *structpb.Struct {
	if n > 1000 {
		v := structpb.NewNumberValue(1)
		for range n - 1 {
			v = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{v}})
		}
		return &structpb.Struct{Fields: map[string]*structpb.Value{"k": v}}
	}
	s := &structpb.Struct{Fields: map[string]*structpb.Value{"k": structpb.NewNumberValue(1)}}
	for range n - 1 {
		s = &structpb.Struct{Fields: map[string]*structpb.Value{"k": structpb.NewStructValue(s)}}
	}
	return s
}

// deepJSON is deepStruct(n) as JSON text.
func deepJSON(n int) string {
	return strings.Repeat(`{"k":`, n) + "1" + strings.Repeat("}", n)
}

func (s *limitStack) create(t *testing.T, ctx context.Context, user string) string {
	t.Helper()
	resp, err := s.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: user})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Session.Id
}

// snapshot is what a session holds, for "nothing stored" checks.
func (s *limitStack) snapshot(t *testing.T, ctx context.Context, user, sid string) *v1.Session {
	t.Helper()
	resp, err := s.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: user, SessionId: sid})
	if err != nil {
		t.Fatalf("GetSession: %v", err)
	}
	sess := resp.Session
	sess.LastUpdateTime = 0
	return sess
}

// restCall sends a JSON body and returns the HTTP status and the body.
func (s *limitStack) restCall(t *testing.T, ctx context.Context, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, s.rest+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func runReq(sid string) *api.RunRequest {
	return &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "hi"}}}}
}

// drainRun reads a Run stream to its end and returns its status.
func drainRun(stream grpc.ServerStreamingClient[api.RunResponse], err error) error {
	if err != nil {
		return err
	}
	for {
		if _, err := stream.Recv(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// TestDepthCapAtEveryEntryPoint sends a value nested past the cap through
// each entry point, over gRPC and REST: it is INVALID_ARGUMENT (HTTP 400)
// naming the field, nothing is stored, nothing stored is over the cap, and
// the app keeps serving another user.
func TestDepthCapAtEveryEntryPoint(t *testing.T) {
	t.Parallel()
	type entry struct {
		name string
		// send writes a value nested depth levels deep into session sid
		// (which it may ignore) and returns the gRPC error, or the HTTP
		// status and body of a REST call.
		send  func(t *testing.T, ctx context.Context, s *limitStack, sid string, depth int) (error, int, string)
		field string
	}
	grpcOnly := func(err error) (error, int, string) { return err, 0, "" }
	entries := []entry{
		{"grpc CreateSession state", func(t *testing.T, ctx context.Context, s *limitStack, _ string, n int) (error, int, string) {
			_, err := s.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID,
				State: &structpb.Struct{Fields: map[string]*structpb.Value{"app:shared": structpb.NewStructValue(deepStruct(n))}}})
			return grpcOnly(err)
		}, "state.app:shared.k"},
		{"rest create session state", func(t *testing.T, ctx context.Context, s *limitStack, _ string, n int) (error, int, string) {
			code, body := s.restCall(t, ctx, "POST", "/apps/"+appName+"/users/"+userID+"/sessions", `{"state":{"app:shared":`+deepJSON(n)+`}}`)
			return nil, code, body
		}, "state.app:shared.k"},
		{"grpc UpdateSessionState state_delta", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			_, err := s.sessions.UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: appName, UserId: userID,
				SessionId: sid, StateDelta: deepStruct(n)})
			return grpcOnly(err)
		}, "state_delta.k"},
		{"rest PATCH state_delta", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			code, body := s.restCall(t, ctx, "PATCH", "/apps/"+appName+"/users/"+userID+"/sessions/"+sid, `{"stateDelta":`+deepJSON(n)+`}`)
			return nil, code, body
		}, "state_delta.k"},
		{"grpc Run state_delta", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			req := runReq(sid)
			req.StateDelta = deepStruct(n)
			return grpcOnly(drainRun(s.runner.Run(ctx, req)))
		}, "state_delta.k"},
		{"grpc Run new_message function_response", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			req := runReq(sid)
			req.NewMessage.Parts = append(req.NewMessage.Parts, &v1.Part{FunctionResponse: &v1.FunctionResponse{Name: "f", Response: deepStruct(n)}})
			return grpcOnly(drainRun(s.runner.Run(ctx, req)))
		}, "new_message.parts[1].function_response.response.k"},
		{"grpc Run custom_metadata", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			req := runReq(sid)
			req.RunConfig = &api.RunConfig{CustomMetadata: deepStruct(n)}
			return grpcOnly(drainRun(s.runner.Run(ctx, req)))
		}, "run_config.custom_metadata.k"},
		{"rest /run state_delta", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			code, body := s.restCall(t, ctx, "POST", "/run", fmt.Sprintf(`{"appName":%q,"userId":%q,"sessionId":%q,"newMessage":{"parts":[{"text":"hi"}]},"stateDelta":%s}`,
				appName, userID, sid, deepJSON(n)))
			return nil, code, body
		}, "state_delta.k"},
		{"rest /run_sse function call args", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			code, body := s.restCall(t, ctx, "POST", "/run_sse", fmt.Sprintf(`{"appName":%q,"userId":%q,"sessionId":%q,"newMessage":{"role":"model","parts":[{"functionCall":{"name":"f","args":%s}}]}}`,
				appName, userID, sid, deepJSON(n)))
			return nil, code, body
		}, "new_message.parts[0].function_call.args.k"},
		{"connect start state_delta", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			start := startMsg(sid, "hi")
			start.GetStart().Run.StateDelta = deepStruct(n)
			return grpcOnly(connectStatus(ctx, s, start))
		}, "start.run.state_delta.k"},
		{"connect tool declaration schema", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			decl := proto.CloneOf(weatherTool)
			decl.Parameters.Fields["properties"] = structpb.NewStructValue(deepStruct(n))
			return grpcOnly(connectStatus(ctx, s, startMsg(sid, "hi", decl)))
		}, "start.tools[0].parameters.properties.k"},
		{"connect tool_result response", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			return grpcOnly(s.answerToolCall(t, ctx, sid, structpb.NewStructValue(deepStruct(n))))
		}, "tool_result.response.k"},
		// A list is stored wrapped as {"result": list}, one level deeper.
		{"connect tool_result list response", func(t *testing.T, ctx context.Context, s *limitStack, sid string, n int) (error, int, string) {
			v := structpb.NewNumberValue(1)
			for range n - 1 {
				v = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{v}})
			}
			return grpcOnly(s.answerToolCall(t, ctx, sid, v))
		}, "tool_result.response[0]"},
	}
	// Past protobuf's recursion limit a request fails to decode whatever
	// the field: 20,000 levels go through one entry per decoder (gRPC
	// unary, server streaming, a Connect stream's first and later
	// messages, the gateway, ADK's run body), which keeps the test quick
	// under the race detector.
	decoders := map[string]bool{"grpc CreateSession state": true, "rest create session state": true,
		"grpc Run state_delta": true, "rest /run state_delta": true, "connect start state_delta": true,
		"connect tool_result response": true}
	for _, e := range entries {
		for _, depth := range []int{limits.DefaultMaxDepth + 1, 20000} {
			if depth > limits.DefaultMaxDepth+1 && !decoders[e.name] {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", e.name, depth), func(t *testing.T) {
				t.Parallel()
				s := newLimitStack(t)
				ctx := testContext(t)
				sid := s.create(t, ctx, userID)
				before := s.snapshot(t, ctx, userID, sid)

				err, httpStatus, body := e.send(t, ctx, s, sid, depth)
				if httpStatus != 0 {
					if httpStatus != http.StatusBadRequest {
						t.Fatalf("HTTP %d %s, want 400", httpStatus, truncate(body))
					}
					err = restStatus(t, body)
				}
				st := status.Convert(err)
				if st.Code() != codes.InvalidArgument {
					t.Fatalf("status = %v %q, want INVALID_ARGUMENT", st.Code(), truncate(st.Message()))
				}
				if depth == limits.DefaultMaxDepth+1 {
					// Past protobuf's decode limit a request cannot name
					// its field; below it, the message and details do.
					if !strings.Contains(st.Message(), e.field) {
						t.Errorf("message %q does not name %q", truncate(st.Message()), e.field)
					}
					if info := errorInfo(st); info.GetDomain() != "agentsvc" || !strings.HasPrefix(info.GetMetadata()["field"], e.field) {
						t.Errorf("ErrorInfo = %v, want domain agentsvc naming %q", info, e.field)
					}
				}
				if len(st.Message()) > 1024 {
					t.Errorf("the message is %d bytes long", len(st.Message()))
				}
				s.checkNothingStored(t, ctx, sid, before, e.name)
			})
		}
	}
}

// answerToolCall runs a Connect invocation whose model calls the client's
// tool, answers the call with v and returns the stream's final status.
func (s *limitStack) answerToolCall(t *testing.T, ctx context.Context, sid string, v *structpb.Value) error {
	t.Helper()
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("never"))
	stream, err := s.runner.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(startMsg(sid, "weather?", weatherTool)); err != nil {
		t.Fatal(err)
	}
	head := recvUntil(t, stream, isToolCall)
	call := head[len(head)-1].GetToolCall()
	if err := stream.Send(resultMsg(call.CallId, v)); err != nil && err != io.EOF {
		t.Fatal(err)
	}
	_, err = recvAll(stream)
	return err
}

// checkNothingStored checks that session sid is as before (or, after a
// client tool call, holds nothing over the cap), that the user has no other
// session, and that another user is served.
func (s *limitStack) checkNothingStored(t *testing.T, ctx context.Context, sid string, before *v1.Session, entry string) {
	t.Helper()
	after := s.snapshot(t, ctx, userID, sid)
	if err := limits.CheckDepth("session", after, limits.DefaultMaxDepth); err != nil {
		t.Errorf("the session holds a value over the cap: %v", err)
	}
	if !strings.HasPrefix(entry, "connect tool_result") && !proto.Equal(before, after) {
		t.Errorf("the session changed:\nbefore %v\nafter  %v", et.Events(before.Events), et.Events(after.Events))
	}
	list, err := s.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: userID})
	if err != nil || len(list.Sessions) != 1 {
		t.Errorf("ListSessions = %d sessions, %v; want the one session", len(list.GetSessions()), err)
	}
	s.checkOtherUserServed(t, ctx)
}

// checkOtherUserServed runs an invocation for another user.
func (s *limitStack) checkOtherUserServed(t *testing.T, ctx context.Context) {
	t.Helper()
	other := s.create(t, ctx, "u2")
	s.model.Enqueue(et.Text("hello"))
	if err := drainRun(s.runner.Run(ctx, &api.RunRequest{AppName: appName, UserId: "u2", SessionId: other,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "hi"}}}})); err != nil {
		t.Errorf("another user's run: %v", err)
	}
	if _, err := s.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: "u2"}); err != nil {
		t.Errorf("another user's ListSessions: %v", err)
	}
}

// connectStatus starts a Connect stream and returns its final status.
func connectStatus(ctx context.Context, s *limitStack, start *api.ConnectRequest) error {
	stream, err := s.runner.Connect(ctx)
	if err != nil {
		return err
	}
	if err := stream.Send(start); err != nil && err != io.EOF {
		return err
	}
	_, err = recvAll(stream)
	return err
}

// restStatus reads grpc-gateway's error body as a status with its
// ErrorInfo.
func restStatus(t *testing.T, body string) error {
	t.Helper()
	var raw struct {
		Code    int32  `json:"code"`
		Message string `json:"message"`
		Details []struct {
			Type     string            `json:"@type"`
			Reason   string            `json:"reason"`
			Domain   string            `json:"domain"`
			Metadata map[string]string `json:"metadata"`
		} `json:"details"`
	}
	if err := json.Unmarshal([]byte(body), &raw); err != nil {
		t.Fatalf("error body %q: %v", truncate(body), err)
	}
	st := status.New(codes.Code(raw.Code), raw.Message)
	for _, d := range raw.Details {
		if strings.HasSuffix(d.Type, "google.rpc.ErrorInfo") {
			info := &errdetails.ErrorInfo{Reason: d.Reason, Domain: d.Domain, Metadata: d.Metadata}
			if withInfo, err := st.WithDetails(info); err == nil {
				st = withInfo
			}
		}
	}
	return st.Err()
}

func errorInfo(st *status.Status) *errdetails.ErrorInfo {
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return info
		}
	}
	return nil
}

func truncate(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}
