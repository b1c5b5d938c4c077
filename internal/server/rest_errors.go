package server

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/limits"
)

// maxErrorMessage bounds the message of a REST error: the gateway's own
// messages (a JSON decode error, say) may quote the request.
const maxErrorMessage = 512

// gatewayErrors writes every REST error as grpc-gateway's body {"code",
// "message", "details"}, with an ErrorInfo detail in details whatever
// produced the error, a message of bounded length, and HTTP 413 for a body
// over the size limit.
type gatewayErrors struct {
	log    *slog.Logger
	routes *routeTable
}

// handle is a [gwruntime.ErrorHandlerFunc].
func (g *gatewayErrors) handle(ctx context.Context, mux *gwruntime.ServeMux, m gwruntime.Marshaler, w http.ResponseWriter, r *http.Request, err error) {
	if limit, ok := bodyTooLarge(r); ok {
		err = errBodyTooLarge(limit)
	} else if timeout, ok := bodyTimedOut(r); ok {
		err = errBodyTimeout(timeout)
	}
	httpStatus := 0
	var custom *gwruntime.HTTPStatusError
	if errors.As(err, &custom) {
		httpStatus, err = custom.HTTPStatus, custom.Err
	}
	st, ok := status.FromError(err)
	if !ok {
		// Not ours and not the gateway's: keep its text out of the answer.
		g.log.ErrorContext(ctx, "rest request failed", "err", err)
		st = status.New(codes.Internal, "internal error")
		httpStatus = 0
	}
	st = withErrorInfo(st)
	if after, ok := retryAfter(st); ok {
		w.Header().Set("Retry-After", after)
	}
	err = st.Err()
	noteRESTError(ctx, err)
	if httpStatus != 0 {
		err = &gwruntime.HTTPStatusError{HTTPStatus: httpStatus, Err: err}
	}
	gwruntime.DefaultHTTPErrorHandler(ctx, mux, m, w, r, err)
}

// routing is a [gwruntime.RoutingErrorHandlerFunc]: an unknown path is 404,
// a known path with another method 405 with Allow.
func (g *gatewayErrors) routing(ctx context.Context, mux *gwruntime.ServeMux, m gwruntime.Marshaler, w http.ResponseWriter, r *http.Request, httpStatus int) {
	var err error
	switch httpStatus {
	case http.StatusMethodNotAllowed:
		if allow := g.routes.allowed(r.URL.Path); len(allow) > 0 {
			w.Header().Set("Allow", strings.Join(allow, ", "))
		}
		err = statusError(codes.Unimplemented, v1.ErrorReason_METHOD_NOT_ALLOWED.String(), "Method Not Allowed")
	case http.StatusNotFound:
		err = statusError(codes.NotFound, v1.ErrorReason_ROUTE_NOT_FOUND.String(), "Not Found")
	case http.StatusBadRequest:
		err = statusError(codes.InvalidArgument, v1.ErrorReason_INVALID_ARGUMENT.String(), "Bad Request")
	default:
		err = statusError(codes.Internal, v1.ErrorReason_INTERNAL.String(), "internal error")
	}
	g.handle(ctx, mux, m, w, r, &gwruntime.HTTPStatusError{HTTPStatus: httpStatus, Err: err})
}

// withErrorInfo returns st with a bounded, valid UTF-8 message and an
// ErrorInfo detail (domain agentsvc); a status without one gets the reason
// named after its code, such as INVALID_ARGUMENT.
func withErrorInfo(st *status.Status) *status.Status {
	if msg := limits.Clip(st.Message(), maxErrorMessage); msg != st.Message() {
		p := st.Proto()
		p.Message = msg
		st = status.FromProto(p)
	}
	for _, d := range st.Details() {
		if _, ok := d.(*errdetails.ErrorInfo); ok {
			return st
		}
	}
	if withInfo, err := st.WithDetails(&errdetails.ErrorInfo{Reason: codeReason(st.Code()), Domain: errorDomain}); err == nil {
		return withInfo
	}
	return st
}

// codeReason is the ErrorInfo reason for a status that has none: the code's
// name in upper snake case, as gRPC spells it in its documentation.
func codeReason(c codes.Code) string {
	if c == codes.OK {
		return "OK"
	}
	name := c.String() // e.g. InvalidArgument
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// routeTable knows the REST routes' paths and methods, to answer Allow.
type routeTable struct {
	routes []route
}

type route struct {
	segments []string // "*" for a path parameter
	methods  []string
}

// add records method on the path template (parameters in braces).
func (t *routeTable) add(method, template string) {
	segs := strings.Split(strings.TrimPrefix(template, "/"), "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			segs[i] = "*"
		}
	}
	method = strings.ToUpper(method)
	for i := range t.routes {
		if slices.Equal(t.routes[i].segments, segs) {
			if !slices.Contains(t.routes[i].methods, method) {
				t.routes[i].methods = append(t.routes[i].methods, method)
				slices.Sort(t.routes[i].methods)
			}
			return
		}
	}
	t.routes = append(t.routes, route{segments: segs, methods: []string{method}})
}

// addOpenAPI records the operations of an OpenAPI (Swagger 2) document.
func (t *routeTable) addOpenAPI(doc []byte) error {
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return err
	}
	for path, ops := range d.Paths {
		for method := range ops {
			switch strings.ToUpper(method) {
			case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
				t.add(method, path)
			}
		}
	}
	return nil
}

// allowed returns the methods of the route that matches path, sorted.
func (t *routeTable) allowed(path string) []string {
	segs := strings.Split(strings.TrimPrefix(path, "/"), "/")
	for _, r := range t.routes {
		if len(r.segments) != len(segs) {
			continue
		}
		match := true
		for i, s := range r.segments {
			if s != "*" && s != segs[i] {
				match = false
				break
			}
		}
		if match {
			return r.methods
		}
	}
	return nil
}
