package runtime

import (
	"context"
	"errors"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// InstrumentationName is the instrumentation scope of the engine's spans,
// ADK's tracer name.
const InstrumentationName = "gcp.vertex.agent"

// TelemetryConfig configures [NewTelemetry].
type TelemetryConfig struct {
	// TracerProvider makes the engine's tracer; nil means the global one
	// (otel.GetTracerProvider).
	TracerProvider trace.TracerProvider
	// MeterProvider makes the engine's instruments; nil means the global
	// one (otel.GetMeterProvider).
	MeterProvider metric.MeterProvider
	// CaptureContent records prompt text in spans as ADK does: the whole
	// model request and response, tool arguments and results, as JSON.
	// Off by default: they are the users' data.
	CaptureContent bool
}

// Telemetry holds the engine's tracer and metric instruments: the spans
// ADK 1.19 makes (invocation, invoke_agent, call_llm, execute_tool) and the
// counts and latencies of invocations, model calls and tool calls. With
// the no-op providers of the OpenTelemetry API (trace/noop, metric/noop),
// what they turn off costs nothing: no span is started, no context made,
// nothing counted. A nil *Telemetry is off altogether. It is safe for
// concurrent use.
type Telemetry struct {
	// tracer is nil when spans are off.
	tracer  trace.Tracer
	content bool
	// metrics is false when the instruments are no-ops.
	metrics bool

	invocations    metric.Int64Counter
	invocationTime metric.Float64Histogram
	modelCalls     metric.Int64Counter
	modelTime      metric.Float64Histogram
	tokens         metric.Int64Counter
	toolCalls      metric.Int64Counter
	toolTime       metric.Float64Histogram
	storeErrors    metric.Int64Counter
	apps           sync.Map // app name → *appAttrs
}

// NewTelemetry returns the engine's telemetry of cfg.
func NewTelemetry(cfg TelemetryConfig) (*Telemetry, error) {
	tp, mp := cfg.TracerProvider, cfg.MeterProvider
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	t := &Telemetry{content: cfg.CaptureContent}
	if _, off := tp.(tracenoop.TracerProvider); !off {
		t.tracer = tp.Tracer(InstrumentationName, trace.WithSchemaURL("https://opentelemetry.io/schemas/1.37.0"))
	}
	_, off := mp.(metricnoop.MeterProvider)
	t.metrics = !off
	m := mp.Meter("github.com/agentsvc/agentsvc/internal/runtime")
	var err error
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, e := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err == nil {
			err = e
		}
		return c
	}
	histogram := func(name, desc string) metric.Float64Histogram {
		h, e := m.Float64Histogram(name, metric.WithUnit("s"), metric.WithDescription(desc),
			metric.WithExplicitBucketBoundaries(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300))
		if err == nil {
			err = e
		}
		return h
	}
	t.invocations = counter("agentsvc.invocations", "{invocation}", "Invocations run.")
	t.invocationTime = histogram("agentsvc.invocation.duration", "How long invocations take.")
	t.modelCalls = counter("agentsvc.model.calls", "{call}", "Model calls made.")
	t.modelTime = histogram("agentsvc.model.call.duration", "How long model calls take, a streamed answer included.")
	t.tokens = counter("agentsvc.model.tokens", "{token}", "Tokens models read (gen_ai.token.type=input) and wrote (output).")
	t.toolCalls = counter("agentsvc.tool.calls", "{call}", "Tool calls run, client tools included.")
	t.toolTime = histogram("agentsvc.tool.call.duration", "How long tool calls take, their callbacks included.")
	t.storeErrors = counter("agentsvc.session_store.errors", "{error}", "Session store operations of invocations that failed.")
	if err != nil {
		return nil, err
	}
	return t, nil
}

// noSpan is the span of code that is not traced.
var noSpan = trace.SpanFromContext(context.Background())

// owner is the start option of the invocation's spans naming whose they
// are; call it only when spans are on.
func (ictx *InvocationContext) owner() trace.SpanStartEventOption { return ictx.inv.owner }

// ownerOf is the start option naming whose every span of an invocation of
// app's session sess is: its app, user and session; nil when spans are
// off. The dev UI's trace routes key every lookup by them
// (internal/tracebuffer), never by a session or event id alone, which a
// caller chooses. ADK sets none of them on spans (user.id, OpenTelemetry's
// name, only on its log records), so the trace routes do not show them.
func (t *Telemetry) ownerOf(app string, sess *v1.Session) trace.SpanStartEventOption {
	if t == nil || t.tracer == nil {
		return nil
	}
	return trace.WithAttributes(attrApp.String(app), attrUserID.String(sess.GetUserId()), attrOwnerSession.String(sess.GetId()))
}

// measuring reports whether t's instruments count.
func (t *Telemetry) measuring() bool { return t != nil && t.metrics }

// Attribute keys ADK 1.19 sets (google/adk/telemetry/tracing.py).
const (
	attrSystem          = attribute.Key("gen_ai.system")
	attrOperation       = attribute.Key("gen_ai.operation.name")
	attrAgentName       = attribute.Key("gen_ai.agent.name")
	attrAgentDesc       = attribute.Key("gen_ai.agent.description")
	attrConversationID  = attribute.Key("gen_ai.conversation.id")
	attrRequestModel    = attribute.Key("gen_ai.request.model")
	attrTopP            = attribute.Key("gen_ai.request.top_p")
	attrMaxTokens       = attribute.Key("gen_ai.request.max_tokens")
	attrInputTokens     = attribute.Key("gen_ai.usage.input_tokens")
	attrOutputTokens    = attribute.Key("gen_ai.usage.output_tokens")
	attrFinishReasons   = attribute.Key("gen_ai.response.finish_reasons")
	attrToolName        = attribute.Key("gen_ai.tool.name")
	attrToolDesc        = attribute.Key("gen_ai.tool.description")
	attrToolType        = attribute.Key("gen_ai.tool.type")
	attrToolCallID      = attribute.Key("gen_ai.tool.call.id")
	attrInvocationID    = attribute.Key("gcp.vertex.agent.invocation_id")
	attrSessionID       = attribute.Key("gcp.vertex.agent.session_id")
	attrEventID         = attribute.Key("gcp.vertex.agent.event_id")
	attrLLMRequest      = attribute.Key("gcp.vertex.agent.llm_request")
	attrLLMResponse     = attribute.Key("gcp.vertex.agent.llm_response")
	attrToolCallArgs    = attribute.Key("gcp.vertex.agent.tool_call_args")
	attrToolResponse    = attribute.Key("gcp.vertex.agent.tool_response")
	attrTokenType       = attribute.Key("gen_ai.token.type")
	attrApp             = attribute.Key("agentsvc.app")
	attrUserID          = attribute.Key("user.id")
	attrOwnerSession    = attribute.Key("agentsvc.session_id")
	systemName          = "gcp.vertex.agent"
	operationInvokeAgen = "invoke_agent"
	operationTool       = "execute_tool"
)

// invocationTrace is the span and clock of one invocation.
type invocationTrace struct {
	tel   *Telemetry
	span  trace.Span
	start time.Time
	attrs *appAttrs
}

// startInvocation starts ADK's "invocation" span of ictx on its context;
// the trace is nil when t is off.
func (t *Telemetry) startInvocation(ictx *InvocationContext) (context.Context, *invocationTrace) {
	ctx := ictx.ctx
	if t == nil || t.tracer == nil && !t.metrics {
		return ctx, nil
	}
	if t.tracer == nil {
		return ctx, &invocationTrace{tel: t, span: noSpan, start: time.Now(), attrs: t.attrsOf(ictx.inv.app.Name)}
	}
	name, opts := "invocation", []trace.SpanStartOption{ictx.owner()}
	if ictx.spans2x() {
		// ADK 2.13's invocation span is the root's invoke_workflow.
		var opt trace.SpanStartOption
		name, opt = workflowSpan(ictx, ictx.inv.app.Tree.Root().Name(), false)
		opts = append(opts, opt)
	}
	ctx, span := t.tracer.Start(ctx, name, opts...)
	return ctx, &invocationTrace{tel: t, span: span, start: time.Now(), attrs: t.attrsOf(ictx.inv.app.Name)}
}

// end ends the invocation's span, failed with err when it is not nil.
func (it *invocationTrace) end(ctx context.Context, err error) {
	if it == nil {
		return
	}
	failSpan(it.span, err)
	it.span.End()
	if it.tel.metrics {
		it.tel.invocations.Add(ctx, 1, it.attrs.all)
		it.tel.invocationTime.Record(ctx, time.Since(it.start).Seconds(), it.attrs.all)
	}
}

// storeError counts a failed session store operation of an invocation by
// its kind (error.type: unavailable, too_large, stale, busy or other).
func (t *Telemetry) storeError(ctx context.Context, err error) {
	if !t.measuring() {
		return
	}
	kind := "other"
	switch {
	case errors.Is(err, sessions.ErrUnavailable):
		kind = "unavailable"
	case errors.Is(err, sessions.ErrTooLarge):
		kind = "too_large"
	case errors.Is(err, sessions.ErrStale):
		kind = "stale"
	case errors.Is(err, sessions.ErrBusy):
		kind = "busy"
	}
	t.storeErrors.Add(ctx, 1, metric.WithAttributes(attribute.String("error.type", kind)))
}

// startAgent starts ADK's "invoke_agent <name>" span of ictx on its
// context.
func (t *Telemetry) startAgent(ictx *InvocationContext, agent Agent) (context.Context, trace.Span) {
	if t == nil || t.tracer == nil {
		return ictx.ctx, noSpan
	}
	if ictx.spans2x() {
		if ctx, span, ok := t.startAgent2x(ictx, agent); ok {
			return ctx, span
		}
	}
	ctx, span := t.tracer.Start(ictx.ctx, "invoke_agent "+agent.Name(), ictx.owner())
	if span.IsRecording() {
		span.SetAttributes(
			attrOperation.String(operationInvokeAgen),
			attrAgentDesc.String(agent.Description()),
			attrAgentName.String(agent.Name()),
			attrConversationID.String(ictx.SessionID()),
		)
	}
	return ctx, span
}

// failSpan marks span failed with err, when err is not nil.
func failSpan(span trace.Span, err error) {
	if err == nil || !span.IsRecording() {
		return
	}
	span.RecordError(err)
	span.SetStatus(codes.Error, err.Error())
}
