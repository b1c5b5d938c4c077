package main

import (
	"context"
	"errors"
	"io"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/loadclient"
)

// toolDecl is the tool a Connect client declares: not long-running, so
// every call of it must get a function response.
var toolDecl = &api.ToolDeclaration{
	Name:        toolName,
	Description: "Records a visit.",
	Parameters: &structpb.Struct{Fields: map[string]*structpb.Value{
		"type": structpb.NewStringValue("object"),
	}},
}

// connectOnce is one attempt of a Connect invocation. How the client
// treats a tool call depends on r.kind; vanished reports a client that
// walked away (closed its connection or cancelled) in the middle of one.
func (w *worker) connectOnce(ctx context.Context, s *sessionLog, r *runLog) (vanished bool, err error) {
	conn := w.conn(s)
	if r.kind == opClose {
		c, err := w.s.dial(w.s.o.addrs[s.replica%len(w.conns)])
		if err != nil {
			return false, err
		}
		defer c.Close()
		conn = c
	}
	ctx, cancel := context.WithTimeout(ctx, w.s.o.runTimeout)
	defer cancel()
	stream, err := api.NewRunnerServiceClient(conn).Connect(ctx)
	if err != nil {
		return false, err
	}
	start := &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: &api.StartRun{
		Run: w.request(s, r), Tools: []*api.ToolDeclaration{toolDecl}}}}
	if err := stream.Send(start); err != nil {
		return false, loadclient.RecvStatus(stream, err)
	}
	calls, done := 0, false
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			if !done {
				return false, loadclient.ErrNoDone
			}
			return false, nil
		}
		if err != nil {
			return false, err
		}
		switch {
		case m.GetEvent() != nil:
			s.record(m.GetEvent(), r)
		case m.GetToolCall() != nil:
			calls++
			if gone := w.onToolCall(ctx, conn, cancel, stream, m.GetToolCall(), r, calls); gone {
				return true, nil
			}
		case m.GetDone() != nil:
			done = true
			_ = stream.CloseSend()
		}
	}
}

// onToolCall treats one tool call as r.kind says; it reports whether the
// client walked away. A failed send is left to the next Recv to report.
func (w *worker) onToolCall(ctx context.Context, conn *grpc.ClientConn, cancel context.CancelFunc,
	stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse], call *api.ToolCall, r *runLog, n int) bool {
	switch r.kind {
	case opClose, opCancel:
		w.pause(ctx, time.Duration(w.rng.Int64N(int64(300*time.Millisecond))))
		if r.kind == opClose {
			conn.Close()
		} else {
			cancel()
		}
		return true
	case opSilent:
		return false
	case opCancelMsg:
		_ = stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Cancel{Cancel: &api.CancelRun{}}})
		return false
	case opSlow:
		if n == 1 {
			lo, hi := 500*time.Millisecond, w.s.o.toolTimeout*6/5
			w.pause(ctx, lo+time.Duration(w.rng.Int64N(int64(hi-lo))))
		}
	}
	_ = stream.Send(toolResult(call, r))
	return false
}

// toolResult answers a call: a result naming the run, and actions that
// end the turn (skip_summarization, so the scripted model is not asked
// again) and write the run's counter, with a temp: key that must not be
// stored.
func toolResult(call *api.ToolCall, r *runLog) *api.ConnectRequest {
	n := structpb.NewNumberValue(float64(r.n))
	return &api.ConnectRequest{Kind: &api.ConnectRequest_ToolResult{ToolResult: &api.ToolResult{
		CallId: call.GetCallId(),
		Response: structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			"recorded": structpb.NewStringValue(r.token),
		}}),
		Actions: &v1.EventActions{SkipSummarization: true, StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{
			keyTool: n, "temp:t": n,
		}}},
	}}}
}
