package server

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// RequestIDHeader is the gRPC metadata key and HTTP header that carry a
// request id, both ways: a caller may send one, and every response
// carries the one the server used.
const RequestIDHeader = "x-request-id"

// maxRequestIDLength bounds an incoming request id.
const maxRequestIDLength = 128

// call is what the server knows of the request it serves: its id, set
// once, and what the audit log records of it. It is carried in the
// request's context and safe for concurrent use.
type call struct {
	id    string
	start time.Time
	// transport is "grpc" or "rest".
	transport string
	// op is the audited operation (the RPC's full method, or the REST
	// route); empty when the call is not audited.
	op string

	mu           sync.Mutex
	runRequestID string
	app, user    string
	session      string
	stateKeys    []string
	who          *auth.Identity
	// err is the REST call's error, set where REST errors are written.
	err error
}

type callKey struct{}

// callFrom returns the call ctx serves, or nil.
func callFrom(ctx context.Context) *call {
	c, _ := ctx.Value(callKey{}).(*call)
	return c
}

// RequestID returns the id of the request ctx serves, or "" outside of
// one.
func RequestID(ctx context.Context) string {
	if c := callFrom(ctx); c != nil {
		return c.id
	}
	return ""
}

// validRequestID reports whether a caller's request id may be kept: 1 to
// 128 bytes of printable ASCII, so that it is safe in every log format and
// header.
func validRequestID(id string) bool {
	if id == "" || len(id) > maxRequestIDLength {
		return false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < 0x20 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// requestIDOf returns the caller's request id when it is valid, else a new
// one.
func requestIDOf(incoming string) string {
	if validRequestID(incoming) {
		return incoming
	}
	return uuid.NewString()
}

// newCall starts the record of a request whose caller sent id (perhaps
// none) and returns ctx carrying it.
func newCall(ctx context.Context, id, transport string) (context.Context, *call) {
	c := &call{id: requestIDOf(id), start: time.Now(), transport: transport}
	return context.WithValue(ctx, callKey{}, c), c
}

// noteRunRequestID records a run's own request id (its idempotency key)
// for the logs and the audit line of the call that carries it.
func noteRunRequestID(ctx context.Context, id string) {
	if c := callFrom(ctx); c != nil && id != "" {
		c.mu.Lock()
		c.runRequestID = id
		c.mu.Unlock()
	}
}

// logAttrs are the attributes every log line of the call carries.
func (c *call) logAttrs() (id, runRequestID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.id, c.runRequestID
}

// LogHandler wraps h so that every record logged with the context of a
// request the server serves (InfoContext and the like) carries the
// request's id as request_id, and a run's own request_id (its idempotency
// key) as run_request_id. Records logged without such a context pass
// through unchanged.
func LogHandler(h slog.Handler) slog.Handler {
	return requestIDHandler{next: h}
}

type requestIDHandler struct{ next slog.Handler }

func (h requestIDHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.next.Enabled(ctx, l)
}

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if c := callFrom(ctx); c != nil {
		id, runID := c.logAttrs()
		r = r.Clone()
		r.AddAttrs(slog.String("request_id", id))
		if runID != "" {
			r.AddAttrs(slog.String("run_request_id", runID))
		}
	}
	return h.next.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return requestIDHandler{next: h.next.WithAttrs(attrs)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{next: h.next.WithGroup(name)}
}

// RequestOptions returns the interceptors that give every gRPC call its
// request id (the caller's x-request-id when it is 1 to 128 printable
// ASCII characters, else a new UUID), send it back in the response header
// x-request-id, carry it in the call's context for [LogHandler], and write
// the audit line of every call that changes state (see
// [Config.AuditLogger]). Put them before the other interceptors, so that
// calls those refuse are audited and their logs carry the id too.
func (s *Server) RequestOptions() []grpc.ServerOption {
	return []grpc.ServerOption{grpc.ChainUnaryInterceptor(s.unaryCall), grpc.ChainStreamInterceptor(s.streamCall)}
}

// incomingRequestID is the first x-request-id of the call's metadata.
func incomingRequestID(ctx context.Context) string {
	if v := metadata.ValueFromIncomingContext(ctx, RequestIDHeader); len(v) > 0 {
		return v[0]
	}
	return ""
}

func (s *Server) unaryCall(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (_ any, err error) {
	ctx, c := newCall(ctx, incomingRequestID(ctx), "grpc")
	_ = grpc.SetHeader(ctx, metadata.Pairs(RequestIDHeader, c.id))
	if s.audit != nil && auditedRPCs[info.FullMethod] {
		c.op = info.FullMethod
		c.noteKey(req)
		defer func() { s.auditCall(ctx, c, err) }()
	}
	return handler(ctx, req)
}

func (s *Server) streamCall(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) (err error) {
	ctx, c := newCall(ss.Context(), incomingRequestID(ss.Context()), "grpc")
	_ = ss.SetHeader(metadata.Pairs(RequestIDHeader, c.id))
	if s.audit != nil && auditedRPCs[info.FullMethod] {
		c.op = info.FullMethod
		defer func() { s.auditCall(ctx, c, err) }()
	}
	return handler(srv, &callStream{ServerStream: ss, ctx: ctx, c: c})
}

// callStream is a server stream whose context carries its call, and whose
// first message names the call's session for the audit log.
type callStream struct {
	grpc.ServerStream
	ctx  context.Context //nolint:containedctx // a stream interceptor replaces a stream's context by wrapping it.
	c    *call
	seen bool
}

func (s *callStream) Context() context.Context { return s.ctx }

func (s *callStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if err == nil && !s.seen && s.c.op != "" {
		s.seen = true
		s.c.noteKey(m)
	}
	return err
}

// requestIDs is the REST counterpart of [Server.RequestOptions], in front
// of every route: the X-Request-Id header in and out, the call in the
// request's context, and the audit line of every state-changing route.
type requestIDs struct {
	s    *Server
	next http.Handler
}

func (h *requestIDs) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx, c := newCall(r.Context(), r.Header.Get(RequestIDHeader), "rest")
	w.Header().Set(RequestIDHeader, c.id)
	r = r.WithContext(ctx)
	if h.s.audit == nil {
		h.next.ServeHTTP(w, r)
		return
	}
	var app, user, session string
	c.op, app, user, session = restRoute(r.Method, r.URL.Path)
	if c.op == "" {
		h.next.ServeHTTP(w, r)
		return
	}
	c.note(app, user, session)
	defer func() {
		if p := recover(); p != nil {
			h.s.auditCall(ctx, c, statusError(codes.Internal, v1.ErrorReason_INTERNAL.String(), "internal error"))
			panic(p)
		}
		c.mu.Lock()
		err := c.err
		c.mu.Unlock()
		h.s.auditCall(ctx, c, err)
	}()
	h.next.ServeHTTP(w, r)
}

// noteRESTError records the error a REST call answers, for its audit line.
func noteRESTError(ctx context.Context, err error) {
	if c := callFrom(ctx); c != nil && c.op != "" {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
	}
}
