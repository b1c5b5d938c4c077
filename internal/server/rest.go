package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/gen/openapi"
	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/server/devui"
)

var (
	jsonOut = protojson.MarshalOptions{}
	jsonIn  = protojson.UnmarshalOptions{DiscardUnknown: true}
)

// HTTPHandler returns the REST API: the gateway routes of the session and
// app services, ADK's /run and /run_sse, /health (reporting healthy()) and
// /openapi.json, behind one guard for every route: origin and host checks
// (see [WithAllowOrigins], [WithListenAddr]), JSON bodies for requests that
// change state (else 415) and a bound on the body's size (else 413, see
// [WithMaxRequestBytes]) and read time, and a charge of the body to the
// request budget (503 with Retry-After past it, see
// [Config.MaxInflightRequestBytes]). Every error answers grpc-gateway's
// body {"code", "message", "details"} with an ErrorInfo detail. With
// [Config.Authenticator], every route but /health and /openapi.json needs
// a bearer token (or a client certificate that maps to an identity): 401
// with WWW-Authenticate: Bearer otherwise. A known
// path with another method answers 405 with Allow.
func (s *Server) HTTPHandler(ctx context.Context, healthy func() bool, opts ...HTTPOption) (http.Handler, error) {
	cfg := newHTTPConfig(opts)
	origins, err := newOriginPolicy(cfg.allowOrigins, cfg.listenAddr)
	if err != nil {
		return nil, fmt.Errorf("server: %w", err)
	}
	table := &routeTable{}
	if err := table.addOpenAPI(openapi.JSON); err != nil {
		return nil, fmt.Errorf("server: read the OpenAPI document: %w", err)
	}
	errs := &gatewayErrors{log: s.log, routes: table}
	marshaler := &adkJSON{JSONPb: gwruntime.JSONPb{MarshalOptions: jsonOut, UnmarshalOptions: jsonIn}}
	mux := gwruntime.NewServeMux(
		gwruntime.WithMarshalerOption(gwruntime.MIMEWildcard, marshaler),
		gwruntime.WithErrorHandler(errs.handle),
		gwruntime.WithRoutingErrorHandler(errs.routing),
	)
	if err := api.RegisterSessionServiceHandlerServer(ctx, mux, s); err != nil {
		return nil, fmt.Errorf("server: register session routes: %w", err)
	}
	if err := api.RegisterAppServiceHandlerServer(ctx, mux, s); err != nil {
		return nil, fmt.Errorf("server: register app routes: %w", err)
	}
	if err := api.RegisterArtifactServiceHandlerServer(ctx, mux, s); err != nil {
		return nil, fmt.Errorf("server: register artifact routes: %w", err)
	}
	h := &restRunner{s: s, mux: mux, marshaler: marshaler}
	routes := []handlerRoute{
		{"POST", "/run", h.run},
		{"POST", "/run_sse", h.runSSE},
		{"GET", "/version", serveVersion},
		{"GET", "/list-apps", h.listApps},
		{"GET", "/apps/{app_name}/app-info", h.appInfo},
		{"GET", "/config/telemetry", telemetryConsent},
		{"POST", "/config/telemetry", telemetryConsent},
		{"GET", "/openapi.json", func(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(openapi.JSON)
		}},
		{"GET", "/health", func(w http.ResponseWriter, _ *http.Request, _ map[string]string) {
			w.Header().Set("Content-Type", "application/json")
			if !healthy() {
				w.WriteHeader(http.StatusServiceUnavailable)
				_, _ = io.WriteString(w, `{"status":"NOT_SERVING"}`)
				return
			}
			_, _ = io.WriteString(w, `{"status":"SERVING"}`)
		}},
	}
	if cfg.metrics != nil {
		serve := func(w http.ResponseWriter, r *http.Request, _ map[string]string) { cfg.metrics.ServeHTTP(w, r) }
		routes = append(routes, handlerRoute{"GET", "/metrics", serve}, handlerRoute{"HEAD", "/metrics", serve})
	}
	if cfg.devUI != nil {
		routes = append(routes, devRoutes(devui.FileRoutes(cfg.devUI))...)
	}
	routes = append(routes, devRoutes(devui.EvalRoutes())...)
	for _, r := range notServedRoutes {
		routes = append(routes, handlerRoute{r.method, r.path, h.notServed(r.what)})
	}
	routes = append(routes, devRoutes(devui.GraphRoutes(devHost{h}))...)
	if cfg.a2a {
		a2aRoutes, err := s.a2aRoutes(cfg.a2aBaseURL)
		if err != nil {
			return nil, fmt.Errorf("server: a2a: %w", err)
		}
		routes = append(routes, a2aRoutes...)
	}
	if cfg.traces != nil {
		// Registered after the 501 routes, so that they win.
		routes = append(routes, devRoutes(devui.TraceRoutes(devHost{h}, cfg.traces))...)
	}
	for _, r := range routes {
		if err := mux.HandlePath(r.method, r.path, r.handle); err != nil {
			return nil, fmt.Errorf("server: route %s %s: %w", r.method, r.path, err)
		}
		table.add(r.method, r.path)
	}
	fail := func(w http.ResponseWriter, r *http.Request, err error) {
		gwruntime.HTTPError(r.Context(), mux, marshaler, w, r, err)
	}
	return &requestIDs{s: s, next: &guard{next: mux, cfg: cfg, origins: origins, fail: fail, authn: s.authn, budget: s.budget, log: s.log, routes: table}}, nil
}

// handlerRoute is one REST route of the handler and what serves it.
type handlerRoute struct {
	method, path string
	handle       gwruntime.HandlerFunc
}

// restRunner serves ADK's run routes.
type restRunner struct {
	s         *Server
	mux       *gwruntime.ServeMux
	marshaler gwruntime.Marshaler
}

func (h *restRunner) fail(w http.ResponseWriter, r *http.Request, err error) {
	gwruntime.HTTPError(r.Context(), h.mux, h.marshaler, w, r, toStatus(r.Context(), h.s.log, err))
}

// start decodes the ADK request body and starts the invocation.
func (h *restRunner) start(w http.ResponseWriter, r *http.Request) (*invocation, bool) {
	// The guard in front bounds the body.
	body, err := io.ReadAll(r.Body)
	if err != nil {
		h.fail(w, r, invalid("reading request body: "+err.Error()))
		return nil, false
	}
	req := &api.RunRequest{}
	if err := jsonIn.Unmarshal(body, req); err != nil {
		h.fail(w, r, invalid("malformed request body: "+err.Error()))
		return nil, false
	}
	if err := checkStreamingModeJSON(req, body); err != nil {
		h.fail(w, r, err)
		return nil, false
	}
	inv, err := h.s.start(r.Context(), "", req, nil)
	if err != nil {
		h.fail(w, r, err)
		return nil, false
	}
	return inv, true
}

// run answers a JSON array of the invocation's events.
func (h *restRunner) run(w http.ResponseWriter, r *http.Request, _ map[string]string) {
	inv, ok := h.start(w, r)
	if !ok {
		return
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	n := 0
	err := inv.run(r.Context(), func(ev *v1.Event) error {
		b, err := eventJSON(ev)
		if err != nil {
			return err
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		buf.Write(b)
		return nil
	})
	if err != nil {
		h.fail(w, r, err)
		return
	}
	buf.WriteByte(']')
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(buf.Bytes())
}

// runSSE streams the invocation as text/event-stream frames, one
// "data: <event json>" per event. A failure before the first frame answers
// the HTTP status of its code with the gateway's error body, except a
// model's failure: as with ADK, whose stream has begun when the model is
// called, it answers 200 and its frames (in 2.x the error event the
// engine stored). A failure after the first frame, or a model's, ends the
// stream with ADK's error frame (see [sseErrorFrame]).
func (h *restRunner) runSSE(w http.ResponseWriter, r *http.Request, _ map[string]string) {
	inv, ok := h.start(w, r)
	if !ok {
		return
	}
	flusher, _ := w.(http.Flusher)
	started := false
	begin := func() {
		started = true
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
	}
	err := inv.run(r.Context(), func(ev *v1.Event) error {
		b, err := eventJSON(ev)
		if err != nil {
			return err
		}
		if !started {
			begin()
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return err
		}
		if flusher != nil {
			flusher.Flush()
		}
		return nil
	})
	switch {
	case err == nil && !started:
		// No event at all: still a well-formed, empty event stream.
		begin()
	case err != nil && !started && !isModelError(err):
		h.fail(w, r, err)
	case err != nil:
		if !started {
			begin()
		}
		st := toStatus(r.Context(), h.s.log, err)
		noteRESTError(r.Context(), st)
		_, _ = fmt.Fprintf(w, "data: %s\n\n", sseErrorFrame(err, st, inv.behavior, time.Now()))
	}
}

// sseErrorFrame is the frame that ends a failed /run_sse stream, as the
// app's ADK release writes it: 1.x {"error": "<message>"}; 2.x
// {"error": "<type>: <message>", "error_details": {"error_type",
// "error_message", "timestamp"}}. For a model's failure, message and type
// are those of the exception ADK's Gemini model raises (google-genai's
// text and class); otherwise the message is the status's (st) and the
// type its ErrorInfo reason, where ADK names a Python exception's class.
func sseErrorFrame(err, st error, b runtime.Behavior, now time.Time) []byte {
	s := status.Convert(st)
	msg, kind := s.Message(), s.Code().String()
	for _, d := range s.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.Reason != "" {
			kind = info.Reason
		}
	}
	if text := runtime.ModelErrorText(err); text != "" {
		msg = limits.Clip(text, maxModelErrorFrame)
	}
	if t := runtime.ModelErrorType(err); t != "" {
		kind = t
	}
	if b != runtime.Behavior2x {
		return append(append([]byte(`{"error": `), jsonString(msg)...), '}')
	}
	details, _ := json.Marshal(struct {
		Type      string  `json:"error_type"`
		Message   string  `json:"error_message"`
		Timestamp float64 `json:"timestamp"`
	}{kind, msg, float64(now.UnixMicro()) / 1e6})
	var b2 bytes.Buffer
	b2.WriteString(`{"error": `)
	b2.Write(jsonString(kind + ": " + msg))
	b2.WriteString(`, "error_details": `)
	b2.Write(details)
	b2.WriteByte('}')
	return b2.Bytes()
}

// jsonString quotes s as a JSON string, leaving <, > and & as they are (ADK
// writes the message as is).
func jsonString(s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
