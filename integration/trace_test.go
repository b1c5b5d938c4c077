package integration

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

const (
	callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	callerSpan  = "00f067aa0ba902b7"
)

// tracedStack starts agentsvc exporting its spans and metrics to a
// receiver of the test over OTLP/gRPC, as the standard variables say.
func tracedStack(t *testing.T) (*stack, *otlpReceiver) {
	t.Helper()
	rcv := startOTLPReceiver(t)
	s := startStackEnv(t, map[string]string{"assistant": assistantAgent}, []string{
		"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + rcv.addr,
		"OTEL_EXPORTER_OTLP_PROTOCOL=grpc",
		"OTEL_METRIC_EXPORT_INTERVAL=200",
		"OTEL_BSP_SCHEDULE_DELAY=100",
	})
	return s, rcv
}

// spanLines renders a trace as "parent > span" lines in start order; the
// caller's span is "caller".
func spanLines(spans []receivedSpan) []string {
	names := map[string]string{callerSpan: "caller"}
	for _, s := range spans {
		names[hex.EncodeToString(s.SpanId)] = s.Name
	}
	slices.SortFunc(spans, func(a, b receivedSpan) int {
		return int(int64(a.StartTimeUnixNano) - int64(b.StartTimeUnixNano))
	})
	var out []string
	for _, s := range spans {
		parent, ok := names[hex.EncodeToString(s.ParentSpanId)]
		if !ok {
			parent = "?" + hex.EncodeToString(s.ParentSpanId)
		}
		out = append(out, parent+" > "+s.Name)
	}
	return out
}

// spanAttrs returns a span's attributes as strings.
func spanAttrs(s *tracepb.Span) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes {
		v := kv.Value
		switch {
		case v.GetArrayValue() != nil:
			var items []string
			for _, e := range v.GetArrayValue().Values {
				items = append(items, e.GetStringValue())
			}
			m[kv.Key] = "[" + strings.Join(items, ",") + "]"
		case v.GetStringValue() != "":
			m[kv.Key] = v.GetStringValue()
		default:
			m[kv.Key] = fmt.Sprint(v.GetIntValue())
		}
	}
	return m
}

// checkAttrs checks that the span named name carries want.
func checkAttrs(t *testing.T, spans []receivedSpan, name string, want map[string]string) {
	t.Helper()
	for _, s := range spans {
		if s.Name != name {
			continue
		}
		got := spanAttrs(s.Span)
		for k, v := range want {
			if got[k] != v {
				t.Errorf("span %s: %s = %q, want %q", name, k, got[k], v)
			}
		}
		return
	}
	t.Errorf("no span %s", name)
}

// noContent checks that no span records the prompt's or the tool's text.
func noContent(t *testing.T, spans []receivedSpan, texts ...string) {
	t.Helper()
	for _, s := range spans {
		for k, v := range spanAttrs(s.Span) {
			for _, text := range texts {
				if strings.Contains(v, text) {
					t.Errorf("span %s records %q in %s", s.Name, text, k)
				}
			}
		}
	}
}

// scrape reads /metrics with the Prometheus text parser.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("GET /metrics: %d %s", resp.StatusCode, b)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("parse /metrics: %v", err)
	}
	out := map[string]float64{}
	for name, f := range families {
		for _, m := range f.Metric {
			key := name
			for _, l := range m.Label {
				if l.GetName() == "gen_ai_token_type" {
					key += "{" + l.GetValue() + "}"
				}
			}
			switch {
			case m.Counter != nil:
				out[key] += m.Counter.GetValue()
			case m.Gauge != nil:
				out[key] += m.Gauge.GetValue()
			case m.Histogram != nil:
				out[key+"_count"] += float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return out
}

func TestTraceOfAToolTurnOverGRPC(t *testing.T) {
	t.Parallel()
	s, rcv := tracedStack(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.connectSession(t, ctx)
	s.script(t, fakegemini.FunctionCalls(weatherCall("Paris")), fakegemini.Text("It is sunny in Paris."))
	before := scrape(t, s.httpURL)

	ctx = metadata.AppendToOutgoingContext(ctx, "traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
	stream := s.open(t, ctx, sid, "Weather in Paris?", getWeather)
	_, calls := until(t, stream, 1)
	answer(t, stream, calls[0].CallId, structpb.NewStructValue(mustStruct(map[string]any{"sky": "sunny"})))
	if _, err := drain(stream); err != nil {
		t.Fatal(err)
	}

	rpc := strings.TrimPrefix(api.RunnerService_Connect_FullMethodName, "/")
	spans := rcv.trace(t, callerTrace, rpc)
	equalLines(t, "span tree", spanLines(spans), []string{
		"caller > " + rpc,
		rpc + " > invocation",
		"invocation > invoke_agent assistant",
		"invoke_agent assistant > call_llm",
		"call_llm > execute_tool get_weather",
		"invoke_agent assistant > call_llm",
	})
	checkAttrs(t, spans, "invoke_agent assistant", map[string]string{
		"gen_ai.operation.name":    "invoke_agent",
		"gen_ai.agent.name":        "assistant",
		"gen_ai.agent.description": "Answers with the help of the user's own tools.",
		"gen_ai.conversation.id":   sid,
	})
	checkAttrs(t, spans, "call_llm", map[string]string{
		"gen_ai.system":                  "gcp.vertex.agent",
		"gen_ai.request.model":           "gemini-2.5-flash",
		"gcp.vertex.agent.invocation_id": calls[0].InvocationId,
		"gcp.vertex.agent.session_id":    sid,
		"gen_ai.usage.output_tokens":     "1",
		"gen_ai.response.finish_reasons": "[stop]",
	})
	checkAttrs(t, spans, "execute_tool get_weather", map[string]string{
		"gen_ai.operation.name":   "execute_tool",
		"gen_ai.tool.name":        "get_weather",
		"gen_ai.tool.description": "Returns the weather of a city.",
		"gen_ai.tool.type":        "ClientTool",
		"gen_ai.tool.call.id":     calls[0].CallId,
	})
	for _, sp := range spans {
		if sp.Name == "invocation" && sp.scope != "gcp.vertex.agent" {
			t.Errorf("invocation span of scope %q, want ADK's gcp.vertex.agent", sp.scope)
		}
	}
	noContent(t, spans, "Paris", "sunny")

	after := scrape(t, s.httpURL)
	for name, delta := range map[string]float64{
		"agentsvc_invocations_total":                 1,
		"agentsvc_invocation_duration_seconds_count": 1,
		"agentsvc_model_calls_total":                 2,
		"agentsvc_model_call_duration_seconds_count": 2,
		"agentsvc_tool_calls_total":                  1,
		"agentsvc_tool_call_duration_seconds_count":  1,
		"agentsvc_model_tokens_total{output}":        1 + 4, // the call, then "It is sunny in Paris."
		"rpc_server_call_duration_seconds_count":     0,     // present; moved by other RPCs too
	} {
		if got, ok := after[name]; !ok || got-before[name] < delta {
			t.Errorf("%s moved from %v to %v (present %v), want +%v", name, before[name], got, ok, delta)
		}
	}
	rcv.metric(t, "agentsvc.invocations")
	if _, ok := after["agentsvc_connect_streams"]; !ok {
		t.Errorf("no agentsvc_connect_streams gauge in %v", keys(after))
	}
	if t.Failed() {
		t.Logf("metrics: %v", keys(after))
	}
}

func TestTraceOfARunOverREST(t *testing.T) {
	t.Parallel()
	s, rcv := tracedStack(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	sid := s.connectSession(t, ctx)
	s.script(t, fakegemini.Text("Hello there."))

	body := fmt.Sprintf(`{"appName":"assistant","userId":"u1","sessionId":%q,"newMessage":{"role":"user","parts":[{"text":"Say hello"}]}}`, sid)
	req, err := http.NewRequestWithContext(ctx, "POST", s.httpURL+"/run", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("traceparent", "00-"+callerTrace+"-"+callerSpan+"-01")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST /run: %d %s", resp.StatusCode, b)
	}

	spans := rcv.trace(t, callerTrace, "POST /run")
	equalLines(t, "span tree", spanLines(spans), []string{
		"caller > POST /run",
		"POST /run > invocation",
		"invocation > invoke_agent assistant",
		"invoke_agent assistant > call_llm",
	})
	checkAttrs(t, spans, "call_llm", map[string]string{
		"gen_ai.system":                  "gcp.vertex.agent",
		"gen_ai.request.model":           "gemini-2.5-flash",
		"gcp.vertex.agent.session_id":    sid,
		"gen_ai.usage.output_tokens":     "2",
		"gen_ai.response.finish_reasons": "[stop]",
	})
	noContent(t, spans, "hello", "Hello")
}

func keys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
