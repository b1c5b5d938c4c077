package server_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/encoding"
	protocodec "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// rawBytes is a request sent as is, whatever it decodes to.
type rawBytes []byte

// rawCodec sends rawBytes unchanged and everything else as protobuf, so
// that a test can put bytes on the wire that no protobuf encoder writes.
type rawCodec struct{ base encoding.CodecV2 }

func (c rawCodec) Marshal(v any) (mem.BufferSlice, error) {
	if b, ok := v.(rawBytes); ok {
		return mem.BufferSlice{mem.SliceBuffer(b)}, nil
	}
	return c.base.Marshal(v)
}

func (c rawCodec) Unmarshal(data mem.BufferSlice, v any) error { return c.base.Unmarshal(data, v) }
func (c rawCodec) Name() string                                { return c.base.Name() }

var raw = grpc.ForceCodecV2(rawCodec{base: encoding.GetCodecV2(protocodec.Name)})

// field appends a length-delimited field.
func field(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

// badUTF8RunRequest is a RunRequest of the desk app whose session id is
// not UTF-8.
func badUTF8RunRequest() []byte {
	var b []byte
	b = field(b, 1, []byte(appName))
	b = field(b, 2, []byte(userID))
	b = field(b, 3, []byte("s\xff\xfe"))
	return b
}

func marshal(t *testing.T, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func wantMalformed(t *testing.T, err error) {
	t.Helper()
	st := status.Convert(err)
	if st.Code() != codes.InvalidArgument {
		t.Fatalf("status = %v %q, want INVALID_ARGUMENT", st.Code(), st.Message())
	}
	if !strings.Contains(st.Message(), "agentsvc.v1.") {
		t.Errorf("message %q does not name the request's type", st.Message())
	}
	if info := errorInfo(st); info.GetDomain() != "agentsvc" || info.GetReason() != "MALFORMED_REQUEST" {
		t.Errorf("ErrorInfo = %v, want domain agentsvc, reason MALFORMED_REQUEST", info)
	}
}

// TestUndecodableRequestIsInvalidArgument sends bytes that do not decode
// (a string that is not UTF-8, a truncated field) to unary, server
// streaming and bidirectional methods: each answers INVALID_ARGUMENT with
// ErrorInfo where gRPC answers INTERNAL.
func TestUndecodableRequestIsInvalidArgument(t *testing.T) {
	t.Parallel()
	createBadUser := field(field(nil, 1, []byte(appName)), 2, []byte("u\xff"))
	truncated := []byte{0x0a, 0x10, 'd', 'e'}                     // app_name of 16 bytes, 2 sent
	startBad := field(nil, 1, field(nil, 1, badUTF8RunRequest())) // ConnectRequest.start.run
	tests := []struct {
		name string
		call func(ctx context.Context, s *limitStack) error
	}{
		{"unary, not UTF-8", func(ctx context.Context, s *limitStack) error {
			return s.conn.Invoke(ctx, api.SessionService_CreateSession_FullMethodName, rawBytes(createBadUser), &api.CreateSessionResponse{}, raw)
		}},
		{"unary, truncated", func(ctx context.Context, s *limitStack) error {
			return s.conn.Invoke(ctx, api.SessionService_ListSessions_FullMethodName, rawBytes(truncated), &api.ListSessionsResponse{}, raw)
		}},
		{"server streaming", func(ctx context.Context, s *limitStack) error {
			return rawStream(ctx, s, api.RunnerService_Run_FullMethodName, false, rawBytes(badUTF8RunRequest()))
		}},
		{"bidirectional, first message", func(ctx context.Context, s *limitStack) error {
			return rawStream(ctx, s, api.RunnerService_Connect_FullMethodName, true, rawBytes(startBad))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newLimitStack(t)
			wantMalformed(t, tt.call(testContext(t), s))
		})
	}
}

// rawStream opens a stream, sends msgs, closes its side and returns the
// final status.
func rawStream(ctx context.Context, s *limitStack, method string, bidi bool, msgs ...any) error {
	desc := &grpc.StreamDesc{ServerStreams: true, ClientStreams: bidi}
	cs, err := s.conn.NewStream(ctx, desc, method, raw)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if err := cs.SendMsg(m); err != nil && err != io.EOF {
			return err
		}
	}
	if err := cs.CloseSend(); err != nil {
		return err
	}
	for {
		var resp api.ConnectResponse // a RunResponse decodes into it too: both carry an event in field 1
		if err := cs.RecvMsg(&resp); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// TestConnectLaterMessageUndecodable answers a tool call with bytes that
// do not decode: the invocation ends with INVALID_ARGUMENT, what it stored
// before stays, and the session is free for the next run.
func TestConnectLaterMessageUndecodable(t *testing.T) {
	t.Parallel()
	s := newLimitStack(t)
	ctx := testContext(t)
	sid := s.create(t, ctx, userID)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`), et.Text("never"))

	desc := &grpc.StreamDesc{ServerStreams: true, ClientStreams: true}
	cs, err := s.conn.NewStream(ctx, desc, api.RunnerService_Connect_FullMethodName, raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := cs.SendMsg(rawBytes(marshal(t, startMsg(sid, "weather?", weatherTool)))); err != nil {
		t.Fatal(err)
	}
	for {
		var resp api.ConnectResponse
		if err := cs.RecvMsg(&resp); err != nil {
			t.Fatalf("before the tool call: %v", err)
		}
		if resp.GetToolCall() != nil {
			break
		}
	}
	// ConnectRequest.tool_result{call_id: not UTF-8}
	if err := cs.SendMsg(rawBytes(field(nil, 2, field(nil, 1, []byte("\xc3\x28"))))); err != nil {
		t.Fatal(err)
	}
	for {
		var resp api.ConnectResponse
		if err = cs.RecvMsg(&resp); err != nil {
			break
		}
	}
	wantMalformed(t, err)

	s.model.Enqueue(et.Text("hello"))
	if err := drainRun(s.runner.Run(ctx, runReq(sid))); err != nil {
		t.Fatalf("the next run on the session: %v", err)
	}
}
