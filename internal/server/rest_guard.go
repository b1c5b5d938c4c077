package server

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"time"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// limitedBody is a request body read through [http.MaxBytesReader], so at
// most limit+1 bytes of it are read and the connection is closed after a
// body over the limit, that remembers why it failed: too large, or not
// received before the read deadline. The deadline ends with the body: once
// the body is read, net/http lifts it for its background read, so a long
// response is not cut; a handler that does not read the body to its end
// leaves it, which bounds the server's discarding of the rest.
type limitedBody struct {
	body     io.ReadCloser
	limit    int64
	exceeded bool
	timedOut bool
	timeout  time.Duration
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.body.Read(p)
	if err == nil {
		return n, nil
	}
	var tooLarge *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &tooLarge):
		b.exceeded = true
	case errors.As(err, &ne) && ne.Timeout():
		b.timedOut = true
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.body.Close() }

// bodyTooLarge reports whether r's body was cut by the size limit.
func bodyTooLarge(r *http.Request) (int64, bool) {
	b, ok := r.Body.(*limitedBody)
	if !ok || !b.exceeded {
		return 0, false
	}
	return b.limit, true
}

// bodyTimedOut reports whether r's body was not received in time.
func bodyTimedOut(r *http.Request) (time.Duration, bool) {
	b, ok := r.Body.(*limitedBody)
	if !ok || !b.timedOut {
		return 0, false
	}
	return b.timeout, true
}

// errBodyTimeout is the error of a request whose body did not arrive
// within timeout: 408, DEADLINE_EXCEEDED.
func errBodyTimeout(timeout time.Duration) error {
	return &gwruntime.HTTPStatusError{
		HTTPStatus: http.StatusRequestTimeout,
		Err: statusError(codes.DeadlineExceeded, v1.ErrorReason_REQUEST_TIMEOUT.String(),
			fmt.Sprintf("request body not received within %s", timeout)),
	}
}

// errBodyTooLarge is the error of a request whose body exceeds limit. It is
// RESOURCE_EXHAUSTED, the code gRPC gives a message over the same bound,
// answered with HTTP 413.
func errBodyTooLarge(limit int64) error {
	return &gwruntime.HTTPStatusError{
		HTTPStatus: http.StatusRequestEntityTooLarge,
		Err: statusError(codes.ResourceExhausted, v1.ErrorReason_REQUEST_TOO_LARGE.String(),
			fmt.Sprintf("request body is larger than %d bytes", limit)),
	}
}

// isStateChanging reports whether method may change a session.
func isStateChanging(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// hasBody reports whether r carries a body, or says it does.
func hasBody(r *http.Request) bool {
	return r.ContentLength != 0 && r.Body != nil && r.Body != http.NoBody
}

// checkContentType rejects a state-changing request with a body, or a
// content type, other than JSON: a browser sends text/plain and form bodies
// across origins without asking first.
func checkContentType(r *http.Request) error {
	if !isStateChanging(r.Method) {
		return nil
	}
	ct := r.Header.Get("Content-Type")
	if ct == "application/json" || ct == "" && !hasBody(r) {
		return nil
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil && mt == "application/json" {
		return nil
	}
	return &gwruntime.HTTPStatusError{
		HTTPStatus: http.StatusUnsupportedMediaType,
		Err:        statusError(codes.InvalidArgument, v1.ErrorReason_UNSUPPORTED_MEDIA_TYPE.String(), "request body must be sent as application/json"),
	}
}

// guard is the middleware in front of every REST route: origin and host
// checks, CORS preflight, authentication (see [Config.Authenticator]), the
// JSON content type of state-changing requests, the body's size and read
// time, and its charge to the request budget, held until the route has
// answered.
type guard struct {
	next    http.Handler
	cfg     httpConfig
	origins *originPolicy
	fail    func(http.ResponseWriter, *http.Request, error)
	// authn authenticates every route but the open ones; nil: off.
	authn *auth.Authenticator
	// budget bounds the request bodies in flight; nil: no bound.
	budget *requestBudget
	log    *slog.Logger
	// routes are the handler's routes, for tests that must cover each.
	routes *routeTable
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := g.origins.checkHost(r); err != nil {
		g.fail(w, r, err)
		return
	}
	origin := r.Header.Get("Origin")
	if origin != "" {
		if err := g.origins.checkOrigin(origin); err != nil {
			g.fail(w, r, err)
			return
		}
		if isPreflight(r) {
			g.origins.preflight(w, r, origin)
			return
		}
		g.origins.corsHeaders(w, origin)
	}
	r, ok := g.authenticateHTTP(w, r)
	if !ok {
		return
	}
	if err := checkContentType(r); err != nil {
		g.fail(w, r, err)
		return
	}
	if r.ContentLength > g.cfg.maxRequestBytes {
		// Closing the connection spares the server reading the body.
		w.Header().Set("Connection", "close")
		g.fail(w, r, errBodyTooLarge(g.cfg.maxRequestBytes))
		return
	}
	if r.Body != nil && r.Body != http.NoBody {
		body := &limitedBody{body: http.MaxBytesReader(w, r.Body, g.cfg.maxRequestBytes),
			limit: g.cfg.maxRequestBytes, timeout: g.cfg.bodyReadTimeout}
		if g.cfg.bodyReadTimeout > 0 && hasBody(r) {
			err := http.NewResponseController(w).SetReadDeadline(time.Now().Add(g.cfg.bodyReadTimeout))
			if err != nil && !errors.Is(err, http.ErrNotSupported) {
				g.fail(w, r, err)
				return
			}
		}
		r.Body = body
	}
	release, ok := g.admit(w, r)
	if !ok {
		return
	}
	defer release()
	g.next.ServeHTTP(w, r)
}
