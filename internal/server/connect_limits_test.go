package server_test

import (
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// TestConnectStartTimeout opens a stream and sends nothing: it ends
// DEADLINE_EXCEEDED after the start timeout, and the server takes new
// streams.
func TestConnectStartTimeout(t *testing.T) {
	t.Parallel()
	s := newStackWith(t, func(cfg *server.Config) { cfg.ConnectStartTimeout = 100 * time.Millisecond })
	ctx := testContext(t)
	stream, err := s.runner.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	_, err = stream.Recv()
	st := status.Convert(err)
	if st.Code() != codes.DeadlineExceeded || !strings.Contains(st.Message(), "no start message within 100ms") || !hasErrorInfo(st) {
		t.Errorf("silent stream: %v, want DEADLINE_EXCEEDED with ErrorInfo", err)
	}
	if d := time.Since(begin); d > 5*time.Second {
		t.Errorf("the stream ended after %v", d)
	}
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Text("Hello."))
	if msgs, err := recvAll(s.connect(t, ctx, startMsg(sid, "Hi"))); err != nil || len(msgs) != 2 {
		t.Errorf("a stream that starts: %v, %v", lines(msgs), err)
	}
}

// TestConnectStreamCap holds the capped number of streams open: one more
// is RESOURCE_EXHAUSTED, and once one ends a new stream is taken.
func TestConnectStreamCap(t *testing.T) {
	t.Parallel()
	s := newStackWith(t, func(cfg *server.Config) { cfg.MaxConnectStreams = 2 })
	ctx := testContext(t)
	sid1, sid2, sid3 := s.newSession(t, ctx), s.newSession(t, ctx), s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Call("get_weather", `{"city":"Oslo"}`))
	first := s.connect(t, ctx, startMsg(sid1, "Weather?", weatherTool))
	head1 := recvUntil(t, first, isToolCall)
	second := s.connect(t, ctx, startMsg(sid2, "Weather?", weatherTool))
	head2 := recvUntil(t, second, isToolCall)

	_, err := recvAll(s.connect(t, ctx, startMsg(sid3, "Hi")))
	st := status.Convert(err)
	if st.Code() != codes.ResourceExhausted || !strings.Contains(st.Message(), "limit of 2 open Connect streams") || !hasErrorInfo(st) {
		t.Errorf("third stream: %v, want RESOURCE_EXHAUSTED naming the limit", err)
	}

	s.model.Enqueue(et.Text("Sunny."), et.Text("Cold."), et.Text("Hello."))
	if err := first.Send(resultMsg(head1[len(head1)-1].GetToolCall().CallId, structpb.NewStringValue("sunny"))); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(first); err != nil {
		t.Fatal(err)
	}
	if err := second.Send(resultMsg(head2[len(head2)-1].GetToolCall().CallId, structpb.NewStringValue("cold"))); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(second); err != nil {
		t.Fatal(err)
	}
	if msgs, err := recvAll(s.connect(t, ctx, startMsg(sid3, "Hi"))); err != nil || len(msgs) != 2 {
		t.Errorf("a stream after others ended: %v, %v", lines(msgs), err)
	}
}
