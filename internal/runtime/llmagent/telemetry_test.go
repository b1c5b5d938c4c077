package llmagent_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// traced runs a two-step tool turn (the model calls echo, then answers) with
// telemetry on an in-memory recorder and reader.
func traced(t *testing.T, content bool) ([]sdktrace.ReadOnlySpan, metricdata.ResourceMetrics, []*v1.Event) {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	events := toolTurn(t, runtime.Behavior1x, runtime.TelemetryConfig{TracerProvider: tp, MeterProvider: mp, CaptureContent: content})
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	return rec.Ended(), rm, events
}

// spanTree renders spans as "parent > name" lines, in start order.
func spanTree(spans []sdktrace.ReadOnlySpan) []string {
	names := map[string]string{}
	for _, s := range spans {
		names[s.SpanContext().SpanID().String()] = s.Name()
	}
	slices.SortFunc(spans, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	var out []string
	for _, s := range spans {
		parent := names[s.Parent().SpanID().String()]
		if !s.Parent().IsValid() {
			parent = "-"
		}
		out = append(out, parent+" > "+s.Name())
	}
	return out
}

func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.String()
	}
	return m
}

func TestTelemetrySpanTreeOfAToolTurn(t *testing.T) {
	t.Parallel()
	spans, _, events := traced(t, false)
	want := []string{
		"- > invocation",
		"invocation > invoke_agent root_agent",
		"invoke_agent root_agent > call_llm",
		"call_llm > execute_tool echo",
		"invoke_agent root_agent > call_llm",
	}
	if d := cmp.Diff(want, spanTree(spans)); d != "" {
		t.Fatalf("span tree (-want +got):\n%s", d)
	}
	byName := map[string][]map[string]string{}
	for _, s := range spans {
		byName[s.Name()] = append(byName[s.Name()], attrs(s))
	}
	agent := byName["invoke_agent root_agent"][0]
	if d := cmp.Diff(map[string]string{
		"gen_ai.operation.name":    "invoke_agent",
		"gen_ai.agent.name":        "root_agent",
		"gen_ai.agent.description": "",
		"gen_ai.conversation.id":   agent["gen_ai.conversation.id"],
		// Whose span it is, for the dev UI's trace routes.
		"agentsvc.app":        "test_app",
		"user.id":             "test_user",
		"agentsvc.session_id": agent["gen_ai.conversation.id"],
	}, agent); d != "" || agent["gen_ai.conversation.id"] == "" {
		t.Errorf("invoke_agent attributes (-want +got):\n%s", d)
	}
	calls := byName["call_llm"]
	last := calls[len(calls)-1]
	for k, v := range map[string]string{
		"gen_ai.system":                  "gcp.vertex.agent",
		"gen_ai.request.model":           modelName,
		"gcp.vertex.agent.invocation_id": events[0].InvocationId,
		"gcp.vertex.agent.event_id":      events[2].Id,
		"gen_ai.usage.input_tokens":      "12",
		"gen_ai.usage.output_tokens":     "3",
		"gen_ai.response.finish_reasons": `["stop"]`,
	} {
		if last[k] != v {
			t.Errorf("call_llm %s = %q, want %q", k, last[k], v)
		}
	}
	tool := byName["execute_tool echo"][0]
	for k, v := range map[string]string{
		"gen_ai.operation.name":     "execute_tool",
		"gen_ai.tool.name":          "echo",
		"gen_ai.tool.description":   "Echoes its arguments.",
		"gen_ai.tool.type":          "FunctionTool",
		"gen_ai.tool.call.id":       events[1].Content.Parts[0].FunctionResponse.Id,
		"gcp.vertex.agent.event_id": events[1].Id,
	} {
		if tool[k] != v {
			t.Errorf("execute_tool %s = %q, want %q", k, tool[k], v)
		}
	}
	// Prompt text stays out of spans unless asked for.
	for _, s := range spans {
		for k, v := range attrs(s) {
			if strings.Contains(v, "secret") || strings.Contains(v, "done") && k != "gen_ai.response.finish_reasons" {
				t.Errorf("span %s carries content in %s: %s", s.Name(), k, v)
			}
		}
	}
}

func TestTelemetryCapturesContentWhenAsked(t *testing.T) {
	t.Parallel()
	spans, _, _ := traced(t, true)
	var got []string
	for _, s := range spans {
		for k, v := range attrs(s) {
			if strings.Contains(v, "secret") {
				got = append(got, s.Name()+" "+k)
			}
		}
	}
	slices.Sort(got)
	want := []string{
		"call_llm gcp.vertex.agent.llm_request",  // the second request holds the call
		"call_llm gcp.vertex.agent.llm_response", // the first answer is the call
		"execute_tool echo gcp.vertex.agent.tool_call_args",
		"execute_tool echo gcp.vertex.agent.tool_response",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("attributes with content (-want +got):\n%s", d)
	}
}

func TestTelemetryMetricsOfAToolTurn(t *testing.T) {
	t.Parallel()
	_, rm, _ := traced(t, false)
	got := map[string]string{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					tt, _ := p.Attributes.Value(attribute.Key("gen_ai.token.type"))
					got[strings.TrimSuffix(m.Name+" "+tt.AsString(), " ")] = fmt.Sprint(p.Value)
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					got[m.Name] = fmt.Sprint(p.Count)
				}
			}
		}
	}
	want := map[string]string{
		"agentsvc.invocations":         "1",
		"agentsvc.invocation.duration": "1",
		"agentsvc.model.calls":         "2",
		"agentsvc.model.call.duration": "2",
		"agentsvc.model.tokens input":  "12",
		"agentsvc.model.tokens output": "3",
		"agentsvc.tool.calls":          "1",
		"agentsvc.tool.call.duration":  "1",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("metrics (-want +got):\n%s", d)
	}
}

// failingStore fails every append as a store that is down does.
type failingStore struct{ sessions.Service }

func (failingStore) AppendEvent(context.Context, *v1.Session, *v1.Event) error {
	return fmt.Errorf("sessions.append: %w", sessions.ErrUnavailable)
}

func TestTelemetryCountsSessionStoreErrors(t *testing.T) {
	t.Parallel()
	reader := sdkmetric.NewManualReader()
	tel, err := runtime.NewTelemetry(runtime.TelemetryConfig{
		MeterProvider: sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))})
	if err != nil {
		t.Fatal(err)
	}
	h, _, sid := setup(t, newAgent(t, llmagent.Config{}), []*v1.LlmResponse{et.Text("done")})
	h.Runner.Telemetry = tel
	h.Runner.Sessions = failingStore{h.Sessions}
	if _, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{}); !errors.Is(err, sessions.ErrUnavailable) {
		t.Fatalf("run error = %v, want the store's", err)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(t.Context(), &rm); err != nil {
		t.Fatal(err)
	}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "agentsvc.session_store.errors" {
				continue
			}
			p := m.Data.(metricdata.Sum[int64]).DataPoints[0]
			if kind, _ := p.Attributes.Value("error.type"); p.Value != 1 || kind.AsString() != "unavailable" {
				t.Errorf("session store errors = %d of %q, want 1 unavailable", p.Value, kind.AsString())
			}
			return
		}
	}
	t.Error("no agentsvc.session_store.errors")
}

func TestTelemetryMergesParallelCallsAsADKDoes(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tel, err := runtime.NewTelemetry(runtime.TelemetryConfig{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))})
	if err != nil {
		t.Fatal(err)
	}
	agent := newAgent(t, llmagent.Config{Tools: []runtime.Tool{echoTool(t, "echo")}})
	two := et.Calls(&v1.FunctionCall{Name: "echo", Args: et.Struct(`{"n":1}`)}, &v1.FunctionCall{Name: "echo", Args: et.Struct(`{"n":2}`)})
	h, _, sid := setup(t, agent, []*v1.LlmResponse{two, et.Text("done")})
	h.Runner.Telemetry = tel
	events := h.RunText(t, sid, "hi")
	want := []string{
		"- > invocation",
		"invocation > invoke_agent root_agent",
		"invoke_agent root_agent > call_llm",
		"call_llm > execute_tool echo",
		"call_llm > execute_tool echo",
		"call_llm > execute_tool (merged)",
		"invoke_agent root_agent > call_llm",
	}
	spans := rec.Ended()
	if d := cmp.Diff(want, spanTree(spans)); d != "" {
		t.Fatalf("span tree (-want +got):\n%s", d)
	}
	for _, s := range spans {
		if s.Name() == "execute_tool (merged)" {
			if got := attrs(s); got["gen_ai.tool.name"] != "(merged tools)" || got["gen_ai.tool.call.id"] != events[1].Id {
				t.Errorf("merged span attributes = %v, want ADK's with the merged event's id %s", got, events[1].Id)
			}
		}
	}
}

func TestTelemetryMarksFailedCalls(t *testing.T) {
	t.Parallel()
	rec := tracetest.NewSpanRecorder()
	tel, err := runtime.NewTelemetry(runtime.TelemetryConfig{
		TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))})
	if err != nil {
		t.Fatal(err)
	}
	h, m, sid := setup(t, newAgent(t, llmagent.Config{}), nil)
	m.Push(scripted.Fail(errors.New("model down")))
	h.Runner.Telemetry = tel
	if _, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{}); err == nil {
		t.Fatal("run succeeded, want the model's error")
	}
	got := map[string]string{}
	for _, s := range rec.Ended() {
		got[s.Name()] = s.Status().Code.String()
	}
	want := map[string]string{"invocation": "Error", "invoke_agent root_agent": "Error", "call_llm": "Error"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("span status (-want +got):\n%s", d)
	}
}
