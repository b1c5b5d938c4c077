package a2a

import (
	"context"
	"fmt"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Request is one A2A message to run as an invocation of an app.
type Request struct {
	AppName   string
	UserID    string
	SessionID string
	// NewMessage is the message's parts as a user content.
	NewMessage *v1.Content
	// CustomMetadata is the run's custom metadata: the request's A2A
	// metadata (MessageSendParams.metadata) under "a2a_metadata", as ADK
	// sets it; nil without.
	CustomMetadata *structpb.Struct
}

// Run sends every event of a started invocation to send, then ends it;
// its error is a gRPC status error whose message the caller may read.
type Run func(ctx context.Context, send func(*v1.Event) error) error

// Invoker starts invocations of the served apps. Implementations are safe
// for concurrent use.
type Invoker interface {
	// Start validates req, creates its session when missing and starts
	// the invocation; a failure here stores nothing and is a gRPC status
	// error. The returned Run must be called exactly once.
	Start(ctx context.Context, req Request) (Run, error)
	// User is the authenticated caller's user id, "" without
	// authentication.
	User(ctx context.Context) string
}

// a2aMetadataKey is ADK's A2A_METADATA_KEY.
const a2aMetadataKey = "a2a_metadata"

// executor runs the A2A messages of one app as ADK's A2aAgentExecutor
// (the legacy path ADK takes by default) does.
type executor struct {
	app     string
	invoker Invoker
	now     func() time.Time
	// adk2 is set for an app that behaves as ADK 2.x.
	adk2 bool
}

var _ a2asrv.AgentExecutor = (*executor)(nil)

// userID is ADK's _get_user_id: the authenticated user, else
// "A2A_USER_<context id>".
func (e *executor) userID(ctx context.Context, contextID string) string {
	if u := e.invoker.User(ctx); u != "" {
		return u
	}
	return "A2A_USER_" + contextID
}

// request is ADK's convert_a2a_request_to_agent_run_request.
func (e *executor) request(ctx context.Context, rc *a2asrv.RequestContext) (Request, error) {
	if rc.Message == nil {
		return Request{}, fmt.Errorf("A2A request must have a message: %w", a2a.ErrInvalidParams)
	}
	content := &v1.Content{Role: "user", Parts: make([]*v1.Part, 0, len(rc.Message.Parts))}
	for _, p := range rc.Message.Parts {
		part, err := fromA2APart(p)
		if err == nil && e.adk2 {
			part.PartMetadata, err = partMetadata(p)
		}
		if err != nil {
			return Request{}, fmt.Errorf("%w: %v", a2a.ErrInvalidParams, err)
		}
		content.Parts = append(content.Parts, part)
	}
	req := Request{AppName: e.app, UserID: e.userID(ctx, rc.ContextID), SessionID: rc.ContextID, NewMessage: content}
	if m := requestMetadata(ctx); len(m) > 0 {
		meta, err := structpb.NewStruct(map[string]any{a2aMetadataKey: m})
		if err != nil {
			return Request{}, fmt.Errorf("%w: metadata: %v", a2a.ErrInvalidParams, err)
		}
		req.CustomMetadata = meta
	}
	return req, nil
}

// Execute implements [a2asrv.AgentExecutor]: submitted (for a new task),
// working with the session's names, the converted events rewritten to
// working, and the final update: completed with the last message as an
// artifact when the task stayed working, else the aggregated state.
func (e *executor) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	req, err := e.request(ctx, rc)
	if err != nil {
		return err
	}
	run, err := e.invoker.Start(ctx, req)
	if err != nil {
		return startError(err)
	}
	s := session{appName: req.AppName, userID: req.UserID, sessionID: req.SessionID, adk2: e.adk2}
	write := func(ev a2a.Event) error { return q.Write(ctx, ev) }
	var first []a2a.Event
	if rc.StoredTask == nil {
		first = append(first, e.status(rc, a2a.TaskStateSubmitted, rc.Message))
	}
	working := e.status(rc, a2a.TaskStateWorking, nil)
	working.Metadata = map[string]any{
		metaPrefix + "app_name": s.appName, metaPrefix + "user_id": s.userID, metaPrefix + "session_id": s.sessionID,
	}
	first = append(first, working)
	for _, ev := range first {
		if err := write(ev); err != nil {
			_ = run(ctx, func(*v1.Event) error { return err })
			return err
		}
	}
	agg := newAggregator()
	var writeErr error
	runErr := run(ctx, func(ev *v1.Event) error {
		for _, u := range toA2AEvents(s, rc, ev, e.now()) {
			agg.process(u)
			if err := write(u); err != nil {
				writeErr = err
				return err
			}
		}
		return nil
	})
	if writeErr != nil {
		return writeErr
	}
	if runErr != nil {
		// ADK answers an invocation that raised with failed and the
		// exception's text.
		final := e.status(rc, a2a.TaskStateFailed, a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: status.Convert(runErr).Message()}))
		final.Final = true
		return write(final)
	}
	return e.finish(rc, agg, write)
}

// finish writes the final update of an invocation that ran to its end.
func (e *executor) finish(rc *a2asrv.RequestContext, agg *aggregator, write func(a2a.Event) error) error {
	if agg.state == a2a.TaskStateWorking && agg.message != nil && len(agg.message.Parts) > 0 {
		art := a2a.NewArtifactEvent(rc, agg.message.Parts...)
		art.LastChunk = true
		if err := write(art); err != nil {
			return err
		}
		final := e.status(rc, a2a.TaskStateCompleted, nil)
		final.Final = true
		return write(final)
	}
	final := e.status(rc, agg.state, agg.message)
	final.Final = true
	return write(final)
}

func (e *executor) status(rc *a2asrv.RequestContext, state a2a.TaskState, msg *a2a.Message) *a2a.TaskStatusUpdateEvent {
	u := a2a.NewStatusUpdateEvent(rc, state, msg)
	now := e.now()
	u.Status.Timestamp = &now
	return u
}

// Cancel implements [a2asrv.AgentExecutor]. ADK 2.x's executor writes the
// task's final canceled update, on which the running execution, if any,
// ends: its context is cancelled, which stops the invocation. ADK 1.x's
// raises NotImplementedError, which a2a-sdk answers as an internal error
// with its text.
func (e *executor) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	if !e.adk2 {
		return &rpcError{Code: -32603, Message: "Cancellation is not supported"}
	}
	final := e.status(rc, a2a.TaskStateCanceled, nil)
	final.Final = true
	return q.Write(ctx, final)
}

// startError maps a refused start to the A2A error a client reads,
// keeping the status message.
//
// A refusal that a retry may get past (ABORTED: the session is busy or was
// written concurrently; UNAVAILABLE; any status with a RetryInfo, such as a
// user's rate limit) is the JSON-RPC server error -32000, with data naming
// the reason ("SESSION_BUSY: session is busy: ..."). A2A defines no code
// for it and JSON-RPC reserves -32000 to -32099 for errors the server
// defines; -32000 is the one a2a-go's server can send and its client
// reads as a2a.ErrServerError, apart from the fault of the server that
// -32603 (a2a.ErrInternalError) means, and a2a-sdk (Python) raises it as
// A2AClientJSONRPCError with the code and data. An HTTP 503 could not
// reach message/stream, whose 200 is sent before the invocation starts,
// and would tell load balancers that the replica is unwell. Invalid input
// is -32602, the rest -32603.
func startError(err error) error {
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	e := &startErr{msg: st.Message(), code: st.Code()}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			e.reason = d.GetReason()
		case *errdetails.RetryInfo:
			e.retryInfo = true
		}
	}
	return e
}

// startErr is a refused start with its status.
type startErr struct {
	msg, reason string
	code        codes.Code
	retryInfo   bool
}

// retryable reports a refusal a retry may get past.
func (e *startErr) retryable() bool {
	return e.code == codes.Aborted || e.code == codes.Unavailable || e.retryInfo
}

func (e *startErr) Error() string {
	if e.retryable() && e.reason != "" {
		return e.reason + ": " + e.msg
	}
	return e.msg
}

func (e *startErr) Unwrap() error {
	switch {
	case e.code == codes.InvalidArgument, e.code == codes.FailedPrecondition, e.code == codes.NotFound:
		return a2a.ErrInvalidParams
	case e.retryable():
		return a2a.ErrServerError
	}
	return a2a.ErrInternalError
}
