package server_test

import (
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// grpcFuzzFixture is a [fuzzFixture] served over bufconn, shared by the
// inputs of one fuzz target (a worker runs them one after another).
type grpcFuzzFixture struct {
	*fuzzFixture
	runner   api.RunnerServiceClient
	sessions api.SessionServiceClient
}

func newGRPCFuzzFixture(f *testing.F) *grpcFuzzFixture {
	fx := newFuzzFixture(f)
	conn := serveGRPC(f, fx.srv, nil)
	return &grpcFuzzFixture{fuzzFixture: fx, runner: api.NewRunnerServiceClient(conn), sessions: api.NewSessionServiceClient(conn)}
}

// checkNeverInternal fails t when err is a status the service must never answer to
// a request, whatever it holds.
func checkNeverInternal(t *testing.T, what string, err error) {
	t.Helper()
	switch st := status.Convert(err); st.Code() {
	case codes.Internal, codes.Unknown, codes.DataLoss, codes.Unimplemented:
		t.Fatalf("%s: %v", what, err)
	}
}

// checkSessionUsable fails t unless the fixture's session and its user's
// list can be read and the session takes a new run.
func (g *grpcFuzzFixture) checkSessionUsable(t *testing.T, ctx context.Context) {
	t.Helper()
	if _, err := g.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: fuzzSession}); err != nil {
		t.Fatalf("GetSession after the request: %v", err)
	}
	if _, err := g.sessions.ListSessions(ctx, &api.ListSessionsRequest{AppName: appName, UserId: userID}); err != nil {
		t.Fatalf("ListSessions after the request: %v", err)
	}
	stream, err := g.runner.Run(ctx, fuzzRun("Hello"))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := stream.Recv(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("Run after the request: %v", err)
		}
	}
}

func fuzzContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// fuzzRun is a valid Run request on the fixture's session.
func fuzzRun(text string) *api.RunRequest {
	return &api.RunRequest{AppName: appName, UserId: userID, SessionId: fuzzSession,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}}
}

func mustMarshal(m proto.Message) []byte {
	b, err := proto.Marshal(m)
	if err != nil {
		panic(err)
	}
	return b
}

// FuzzRunRequest decodes fuzzed bytes as a RunRequest and runs it over
// gRPC. Invariants: no panic; never INTERNAL or UNKNOWN; a request that
// fails before the model was called stores nothing; the invocation ends;
// the session stays readable and takes the next run.
func FuzzRunRequest(f *testing.F) {
	withDelta := fuzzRun("x")
	withDelta.StateDelta = structOf(map[string]any{"a": map[string]any{"b": []any{1, "c", nil, true}}, "app:k": 1})
	withConfig := fuzzRun("x")
	limit := int32(1)
	withConfig.RunConfig = &api.RunConfig{StreamingMode: api.StreamingMode_STREAMING_MODE_SSE, MaxLlmCalls: &limit,
		CustomMetadata: structOf(map[string]any{"k": "v"})}
	resume := fuzzRun("x")
	resume.InvocationId = "e-1"
	withID := fuzzRun("x")
	withID.RequestId = "r-1"
	noSession := fuzzRun("x")
	noSession.SessionId = "missing"
	for _, m := range []*api.RunRequest{
		fuzzRun("Hello"), fuzzRun("call Paris"), withDelta, withConfig, resume, withID, noSession,
		{AppName: appName, UserId: userID, SessionId: fuzzSession, NewMessage: &v1.Content{}},
		{},
	} {
		f.Add(mustMarshal(m))
	}
	g := newGRPCFuzzFixture(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		req := &api.RunRequest{}
		if proto.Unmarshal(data, req) != nil {
			return // the gRPC codec's to reject
		}
		g.resetSession(t)
		ctx := fuzzContext(t)
		before, calls := g.store.writes.Load(), g.model.calls.Load()
		stream, err := g.runner.Run(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		events := 0
		for {
			_, err = stream.Recv()
			if err != nil {
				break
			}
			events++
		}
		if !errors.Is(err, io.EOF) {
			checkNeverInternal(t, "Run", err)
			if events == 0 && !g.started(calls) && g.store.writes.Load() != before {
				t.Fatalf("Run failed with %v but stored %d writes", err, g.store.writes.Load()-before)
			}
		}
		g.waitIdle(t)
		g.checkSessionUsable(t, ctx)
	})
}

// FuzzConnectRequest decodes fuzzed bytes as the first and the second
// message of a Connect stream (the second may answer the fuzz model's call
// c1) and sends them. Invariants: no panic; never INTERNAL or UNKNOWN; a
// stream that fails before the model was called stores nothing; the
// invocation ends; the session stays readable and takes the next run.
func FuzzConnectRequest(f *testing.F) {
	start := func(run *api.RunRequest, tools ...*api.ToolDeclaration) *api.ConnectRequest {
		return &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{Run: run, Tools: tools}}}
	}
	result := func(r *api.ToolResult) []byte {
		return mustMarshal(&api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: r}})
	}
	weather := &api.ToolDeclaration{Name: "get_weather", Description: "Weather of a city.",
		Parameters: structOf(map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}})}
	seeds := []struct {
		first  *api.ConnectRequest
		second []byte
	}{
		{start(fuzzRun("Hello"), weather), nil},
		{start(fuzzRun("call Paris"), weather), result(&api.ToolResult{CallId: fuzzCallID, Response: structpb.NewStringValue("sunny")})},
		{start(fuzzRun("call Paris"), weather), result(&api.ToolResult{CallId: fuzzCallID, Error: "down",
			Actions: &v1.EventActions{StateDelta: structOf(map[string]any{"mailed": true}), Escalate: true, TransferToAgent: "helper"}})},
		{start(fuzzRun("call Paris"), weather), result(&api.ToolResult{CallId: fuzzCallID,
			Response: structpb.NewStructValue(structOf(map[string]any{"t": 21.5, "sky": []any{"clear", nil}}))})},
		{start(fuzzRun("call Paris"), &api.ToolDeclaration{Name: "get_weather", LongRunning: true}), result(&api.ToolResult{CallId: fuzzCallID})},
		{start(fuzzRun("call Paris"), &api.ToolDeclaration{Name: "get_weather", RequireConfirmation: true}), nil},
		{start(fuzzRun("call Paris"), weather), mustMarshal(&api.ConnectRequest{Kind: &api.ConnectRequest_Cancel{Cancel: &api.CancelRun{}}})},
		{start(fuzzRun("Hello"), weather, weather), nil},
		{start(fuzzRun("Hello"), &api.ToolDeclaration{Name: "get_time"}), nil},
		{start(nil), nil},
		{&api.ConnectRequest{}, nil},
	}
	for _, s := range seeds {
		f.Add(mustMarshal(s.first), s.second)
	}
	g := newGRPCFuzzFixture(f)
	f.Fuzz(func(t *testing.T, first, second []byte) {
		msgs := make([]*api.ConnectRequest, 0, 2)
		for _, data := range [][]byte{first, second} {
			if data == nil {
				break
			}
			m := &api.ConnectRequest{}
			if proto.Unmarshal(data, m) != nil {
				return // the gRPC codec's to reject
			}
			msgs = append(msgs, m)
		}
		g.resetSession(t)
		ctx := fuzzContext(t)
		before, calls := g.store.writes.Load(), g.model.calls.Load()
		stream, err := g.runner.Connect(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range msgs {
			if err := stream.Send(m); err != nil {
				break // the server ended the stream; Recv tells how
			}
		}
		_ = stream.CloseSend()
		received := 0
		for {
			_, err = stream.Recv()
			if err != nil {
				break
			}
			received++
		}
		if !errors.Is(err, io.EOF) {
			checkNeverInternal(t, "Connect", err)
			if received == 0 && !g.started(calls) && g.store.writes.Load() != before {
				t.Fatalf("Connect failed with %v but stored %d writes", err, g.store.writes.Load()-before)
			}
		}
		g.waitIdle(t)
		g.checkSessionUsable(t, ctx)
	})
}
