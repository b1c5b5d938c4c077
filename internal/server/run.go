package server

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// invocation is a started run holding its session's lease.
type invocation struct {
	s     *Server
	inv   *runtime.Invocation
	lease sessions.Lease
	// ctx is the invocation's own, bounded by Config.MaxInvocationTime;
	// Stop cancels it.
	ctx context.Context //nolint:containedctx // kept for its cause: endedBy tells from it whether the time limit, Stop or the lease ended the invocation.
	// user holds one of the user's slots until the invocation ends.
	user userKey
	// behavior is the app's ADK release line.
	behavior runtime.Behavior
}

// errInvocationTimeout is the cause of an invocation's context ending at
// Config.MaxInvocationTime.
var errInvocationTimeout = errors.New("server: invocation timed out")

// continuesWithoutMessage reports a run without a message that the app
// continues (ADK 2.x behaviour); the runner checks the rest.
func (s *Server) continuesWithoutMessage(req *api.RunRequest) bool {
	a := s.apps[req.GetAppName()]
	return req.GetNewMessage() == nil && a != nil && a.Runner.App.ContinuesWithoutMessage()
}

// start validates a run request, takes the session's lease and starts the
// invocation, so that every failure up to here precedes the first event.
// The invocation, and the lease's keep-alive with it, runs under ctx
// bounded by the server's MaxInvocationTime: a hung model or client never
// keeps a session leased past it. prefix names the request in errors
// ("start.run." on Connect).
func (s *Server) start(ctx context.Context, prefix string, req *api.RunRequest, client *clientTools) (_ *invocation, err error) {
	noteRequest(ctx, req)
	if err := validateRunRequest(req); err != nil {
		return nil, err
	}
	noteRunRequestID(ctx, req.GetRequestId())
	if len(req.GetNewMessage().GetParts()) == 0 && !s.continuesWithoutMessage(req) {
		return nil, invalid("new_message must have at least one part")
	}
	if err := runtime.ValidateRequestID(req.GetRequestId()); err != nil {
		return nil, err
	}
	if err := s.checkRunRequest(prefix, req); err != nil {
		return nil, err
	}
	app, err := s.app(req.AppName)
	if err != nil {
		return nil, err
	}
	if err := s.invocations.refuse(); err != nil {
		return nil, err
	}
	if err := s.authorize(ctx, req.UserId); err != nil {
		return nil, err
	}
	if err := requireCallbacks(app.Info, client); err != nil {
		return nil, err
	}
	if err := requireCodeExecutor(app, client); err != nil {
		return nil, err
	}
	if err := requireNodes(app, client); err != nil {
		return nil, err
	}
	if err := s.authorizeState(ctx, prefix+"state_delta", req.GetStateDelta()); err != nil {
		return nil, err
	}
	if err := s.limitUser(req.AppName, req.UserId); err != nil {
		return nil, err
	}
	user := userKey{req.AppName, req.UserId}
	if err := s.invocations.reserve(user); err != nil {
		return nil, err
	}
	ctx, stopTimer := context.WithTimeoutCause(ctx, s.maxInvocationTime, errInvocationTimeout)
	ctx, cancelCause := context.WithCancelCause(ctx)
	cancel := func(cause error) {
		cancelCause(cause)
		stopTimer()
	}
	started := false
	defer func() {
		if !started {
			cancel(nil)
			s.invocations.unreserve(user)
		}
	}()
	lease, err := s.leaseSession(ctx, req.AppName, req.UserId, req.SessionId)
	if err != nil {
		return nil, err
	}
	inv, err := app.Runner.Start(ctx, runtime.RunRequest{
		UserID:       req.UserId,
		SessionID:    req.SessionId,
		NewMessage:   req.NewMessage,
		StateDelta:   req.StateDelta,
		RunConfig:    runConfig(req),
		Client:       client.toolsChannel(),
		Callbacks:    client.callbacksChannel(),
		InvocationID: req.InvocationId,
		RequestID:    req.RequestId,
	})
	if err != nil {
		s.releaseLease(ctx, lease)
		return nil, err
	}
	i := &invocation{s: s, inv: inv, lease: lease, ctx: ctx, user: user, behavior: app.Runner.App.Behavior}
	if err := s.invocations.add(i, cancel); err != nil {
		s.releaseLease(ctx, lease)
		return nil, err
	}
	watchLease(ctx, lease, cancel)
	started = true
	return i, nil
}

// run sends every event of the invocation, then releases the lease. An
// invocation that outlived MaxInvocationTime fails with DEADLINE_EXCEEDED.
func (i *invocation) run(ctx context.Context, send func(*v1.Event) error) error {
	defer i.s.invocations.unreserve(i.user)
	defer i.s.invocations.remove(i)
	defer i.s.releaseLease(ctx, i.lease)
	for ev, err := range i.inv.Events() {
		if err != nil {
			return i.endedBy(ctx, err)
		}
		if err := send(ev); err != nil {
			return i.endedBy(ctx, err)
		}
	}
	return nil
}

// endedBy returns the status of an invocation the server ended, cut off
// at its maximum time, cancelled by Stop or stopped by the loss of its
// lease, in place of err, which is how the engine noticed; err otherwise.
func (i *invocation) endedBy(ctx context.Context, err error) error {
	switch cause := context.Cause(i.ctx); {
	case ctx.Err() != nil:
		return err
	case errors.Is(cause, errShuttingDown):
		return errShuttingDown
	case errors.Is(cause, errInvocationTimeout):
		return statusError(codes.DeadlineExceeded, v1.ErrorReason_INVOCATION_TIMEOUT.String(),
			fmt.Sprintf("invocation exceeded its maximum time of %s", i.s.maxInvocationTime))
	case errors.Is(cause, sessions.ErrLeaseLost):
		return cause
	}
	return err
}

func runConfig(req *api.RunRequest) runtime.RunConfig {
	rc := req.GetRunConfig()
	mode := rc.GetStreamingMode()
	cfg := runtime.RunConfig{
		Streaming: mode == api.StreamingMode_STREAMING_MODE_SSE ||
			mode == api.StreamingMode_STREAMING_MODE_UNSPECIFIED && req.GetStreaming(),
		MaxLLMCalls:    runtime.DefaultMaxLLMCalls,
		CustomMetadata: rc.GetCustomMetadata(),
	}
	if rc != nil && rc.MaxLlmCalls != nil {
		cfg.MaxLLMCalls = int(rc.GetMaxLlmCalls())
	}
	if g := rc.GetGetSessionConfig(); g != nil {
		cfg.GetSessionConfig = &runtime.GetSessionConfig{AfterTimestamp: g.AfterTimestamp}
		if g.NumRecentEvents != nil {
			n := int(g.GetNumRecentEvents())
			cfg.GetSessionConfig.NumRecentEvents = &n
		}
	}
	return cfg
}

// Run implements [api.RunnerServiceServer].
func (s *Server) Run(req *api.RunRequest, stream grpc.ServerStreamingServer[api.RunResponse]) error {
	ctx := stream.Context()
	inv, err := s.start(ctx, "", req, nil)
	if err != nil {
		return toStatus(ctx, s.log, err)
	}
	err = inv.run(ctx, func(ev *v1.Event) error {
		return stream.Send(&api.RunResponse{Event: ev})
	})
	return toStatus(ctx, s.log, err)
}
