package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// errClientCancelled is the cause of an invocation the client cancelled
// with a cancel message; it reaches the client as CANCELLED.
var errClientCancelled = fmt.Errorf("server: the client cancelled the invocation: %w", context.Canceled)

// connectStream is the server side of a Connect stream.
type connectStream = grpc.BidiStreamingServer[api.ConnectRequest, api.ConnectResponse]

// Connect implements [api.RunnerServiceServer]: one invocation whose remote
// tools live in the client.
//
// The first message must be start: its run is validated as Run's request is,
// and its tool declarations against the app (each named once, each a remote
// tool of some agent of the app). The server then streams the events; each
// call of a declared tool is sent as a tool_call, the parallel calls of one
// model turn at once, and waits for the tool_result with its call id, in any
// order, or for the per-call timeout. A tool_result for no waiting call is
// ignored. After the last event of a successful run the server sends done
// and ends the stream OK; a failed run ends it with the status of the
// failure. A cancel message ends the invocation with CANCELLED; so do a
// client that goes away and the stream's deadline (DEADLINE_EXCEEDED). A
// client that closes its side of the stream may still receive the run, but
// a tool call that can no longer be answered fails the run with
// INVALID_ARGUMENT. A second start is INVALID_ARGUMENT. Events stored
// before the end stay stored, calls left without a result are answered
// with an error response, and the session is free for the next run.
//
// A stream beyond [Config.MaxConnectStreams] open ones ends at once with
// RESOURCE_EXHAUSTED; a stream whose start does not come within
// [Config.ConnectStartTimeout] ends with DEADLINE_EXCEEDED (the client was
// too slow, not wrong: it may open a new stream).
func (s *Server) Connect(stream connectStream) error {
	if n := s.connectStreams.Add(1); s.maxConnectStreams > 0 && n > s.maxConnectStreams {
		s.connectStreams.Add(-1)
		return statusError(codes.ResourceExhausted, v1.ErrorReason_TOO_MANY_CONNECT_STREAMS.String(),
			fmt.Sprintf("the server holds its limit of %d open Connect streams; retry later", s.maxConnectStreams))
	}
	defer s.connectStreams.Add(-1)
	ctx := stream.Context()
	first, err := s.recvStart(stream)
	if errors.Is(err, io.EOF) {
		return invalid("the stream ended before its start message")
	}
	if err != nil {
		return err
	}
	start := first.GetStart()
	if start == nil {
		return invalid("the first message of a Connect stream must be start")
	}
	req := start.GetRun()
	if err := validateSessionKey(req.GetAppName(), req.GetUserId(), req.GetSessionId()); err != nil {
		return err
	}
	app, err := s.app(req.GetAppName())
	if err != nil {
		return toStatus(ctx, s.log, err)
	}

	if err := s.checkToolDeclarations(start.GetTools()); err != nil {
		return err
	}
	out := &connectSender{stream: stream}
	client, err := newClientTools(app.Info, start.GetTools(), out.send, s.toolTimeout, s.log)
	if err != nil {
		return err
	}
	if err := client.declareCallbacks(app.Info, start.GetCallbacks()); err != nil {
		return err
	}
	client.runsCode = start.GetCodeExecutor()
	if err := client.declareNodes(app, start.GetNodes()); err != nil {
		return err
	}
	ictx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	inv, err := s.start(ictx, "start.run.", req, client)
	if err != nil {
		return toStatus(ctx, s.log, err)
	}
	// The receiver ends when the stream does, at the latest when this
	// handler has returned.
	go s.receive(ictx, stream, client, cancel)

	err = inv.run(ictx, func(ev *v1.Event) error {
		return out.send(&api.ConnectResponse{Kind: &api.ConnectResponse_Event{Event: ev}})
	})
	if err != nil {
		// The invocation stopped because of the client (cancel, a second
		// start): report that rather than how the engine noticed it.
		if ctx.Err() == nil && ictx.Err() != nil {
			err = context.Cause(ictx)
		}
		return toStatus(ctx, s.log, err)
	}
	done := &api.ConnectResponse{Kind: &api.ConnectResponse_Done{Done: &api.RunDone{InvocationId: inv.inv.ID()}}}
	if err := out.send(done); err != nil {
		return toStatus(ctx, s.log, err)
	}
	return nil
}

// recvStart receives the first message of a stream, waiting at most the
// start timeout. When it times out, the receiving goroutine ends with the
// stream, once the handler has returned.
func (s *Server) recvStart(stream connectStream) (*api.ConnectRequest, error) {
	type received struct {
		msg *api.ConnectRequest
		err error
	}
	ch := make(chan received, 1)
	go func() {
		msg, err := stream.Recv()
		ch <- received{msg, err}
	}()
	timer := time.NewTimer(s.connectStart)
	defer timer.Stop()
	select {
	case r := <-ch:
		return r.msg, r.err
	case <-timer.C:
		return nil, statusError(codes.DeadlineExceeded, v1.ErrorReason_CONNECT_START_TIMEOUT.String(),
			fmt.Sprintf("no start message within %v of opening the Connect stream", s.connectStart))
	}
}

// receive reads the client's messages after start until the stream ends:
// results go to their waiting calls, cancel and a second start end the
// invocation through cancel.
func (s *Server) receive(ctx context.Context, stream connectStream, client *clientTools, cancel context.CancelCauseFunc) {
	defer client.closeInput()
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			// The stream is broken; when the client went away, the
			// stream's context already ends the invocation.
			cancel(err)
			return
		}
		switch k := msg.GetKind().(type) {
		case *api.ConnectRequest_ToolResult:
			// A result too deep must reach neither the model nor the
			// store: it fails the invocation.
			if err := s.checkToolResult(k.ToolResult); err != nil {
				cancel(err)
				return
			}
			// The result acts for the stream's caller: app state in
			// its actions needs an admin, as in a request.
			if err := s.authorizeState(ctx, "tool_result.actions.state_delta", k.ToolResult.GetActions().GetStateDelta()); err != nil {
				cancel(err)
				return
			}
			client.deliver(ctx, k.ToolResult.GetCallId(), msg)
		case *api.ConnectRequest_CallbackResult:
			if err := s.checkCallbackResult(ctx, k.CallbackResult); err != nil {
				cancel(err)
				return
			}
			client.deliver(ctx, k.CallbackResult.GetCallId(), msg)
		case *api.ConnectRequest_CodeResult:
			if err := checkCodeResult(k.CodeResult); err != nil {
				cancel(err)
				return
			}
			client.deliver(ctx, k.CodeResult.GetCallId(), msg)
		case *api.ConnectRequest_NodeResult:
			if err := s.checkNodeResult(ctx, k.NodeResult); err != nil {
				cancel(err)
				return
			}
			client.deliver(ctx, k.NodeResult.GetCallId(), msg)
		case *api.ConnectRequest_RunNode:
			if err := s.checkRunNode(k.RunNode); err != nil {
				cancel(err)
				return
			}
			client.runNode(ctx, k.RunNode)
		case *api.ConnectRequest_Cancel:
			cancel(errClientCancelled)
		case *api.ConnectRequest_Start:
			cancel(invalid("start may only be the first message of a Connect stream"))
		default:
			// A kind this server does not know, from a newer client.
			s.log.DebugContext(ctx, "connect message of an unknown kind ignored")
		}
	}
}

// connectSender serialises the sends of a Connect stream: events come from
// the invocation, tool calls from the goroutines of parallel calls, and a
// gRPC stream is not safe for concurrent sends.
type connectSender struct {
	mu     sync.Mutex
	stream connectStream
}

func (c *connectSender) send(msg *api.ConnectResponse) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stream.Send(msg)
}
