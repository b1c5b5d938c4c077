package devui

import (
	"encoding/json"
	"math/big"
	"net/http"

	"go.opentelemetry.io/otel/attribute"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/tracebuffer"
)

// TraceRoutes are ADK's trace routes of the web UI
// (/dev/apps/{app}/debug/trace/...), served from the spans buf keeps.
// Every lookup is keyed by the app of the path and the caller's user (see
// [Host.TraceUser]): a span answers only under its own app and to its own
// user, whatever session or event id the caller names.
func TraceRoutes(h Host, buf *tracebuffer.Buffer) []Route {
	return []Route{
		{"GET", "/dev/apps/{app_name}/debug/trace/{event_id}", func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			user, ok := h.TraceUser(r.Context())
			var sp tracebuffer.Span
			if ok {
				sp, ok = buf.Event(p["app_name"], user, p["event_id"])
			}
			if !ok {
				h.Fail(w, r, &runtime.Error{Code: runtime.CodeNotFound, Reason: v1.ErrorReason_TRACE_NOT_FOUND.String(), Message: "Trace not found"})
				return
			}
			out := attributes(sp.Attributes)
			out["trace_id"] = json.Number(new(big.Int).SetBytes(sp.TraceID[:]).String())
			out["span_id"] = json.Number(new(big.Int).SetBytes(sp.SpanID[:]).String())
			writeTraceJSON(w, out)
		}},
		{"GET", "/dev/apps/{app_name}/debug/trace/session/{session_id}", func(w http.ResponseWriter, r *http.Request, p map[string]string) {
			out := []webUISpan{}
			if user, ok := h.TraceUser(r.Context()); ok {
				for _, sp := range buf.Session(p["app_name"], user, p["session_id"]) {
					out = append(out, uiSpan(sp))
				}
			}
			writeTraceJSON(w, out)
		}},
	}
}

// webUISpan is ADK's WebUiSpan: ids as the integers OpenTelemetry's Python
// SDK has.
type webUISpan struct {
	Name         string         `json:"name"`
	StartTime    int64          `json:"start_time"`
	EndTime      int64          `json:"end_time"`
	TraceID      json.Number    `json:"trace_id"`
	SpanID       json.Number    `json:"span_id"`
	ParentSpanID *json.Number   `json:"parent_span_id"`
	Attributes   map[string]any `json:"attributes"`
	Logs         []any          `json:"logs"`
}

func uiSpan(sp tracebuffer.Span) webUISpan {
	out := webUISpan{Name: sp.Name, StartTime: sp.Start, EndTime: sp.End,
		TraceID:    json.Number(new(big.Int).SetBytes(sp.TraceID[:]).String()),
		SpanID:     json.Number(new(big.Int).SetBytes(sp.SpanID[:]).String()),
		Attributes: attributes(sp.Attributes), Logs: []any{}}
	if sp.Parent.IsValid() {
		n := json.Number(new(big.Int).SetBytes(sp.Parent[:]).String())
		out.ParentSpanID = &n
	}
	return out
}

// attributes renders span attributes as JSON values.
func attributes(kvs []attribute.KeyValue) map[string]any {
	out := make(map[string]any, len(kvs)+2)
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.AsInterface()
	}
	return out
}

func writeTraceJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}
