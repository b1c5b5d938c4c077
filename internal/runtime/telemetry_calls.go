package runtime

import (
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// ModelCall is the trace of one model call: ADK's "call_llm" span and the
// call's metrics. Its methods are called by the goroutine running the call.
type ModelCall struct {
	ictx  *InvocationContext
	span  trace.Span
	start time.Time
	// took is the time until the last answer: the span also covers the
	// calls the answer makes, the latency metric does not.
	took  time.Duration
	usage *v1.UsageMetadata
	err   error
	// v2 is ADK 2.13's generate_content span, which ends with the model's
	// answer: the calls it makes run beside it.
	v2    bool
	ended bool
}

// AnswerContext returns the context the flow handles the call's answers in
// (its function calls, a transfer), given the context the call runs in:
// that one in ADK 1.x, whose call_llm span holds them; the agent's in ADK
// 2.x, where they run beside the generate_content span.
func (m *ModelCall) AnswerContext(inCall *InvocationContext) *InvocationContext {
	if m == nil || !m.v2 {
		return inCall
	}
	return m.ictx
}

// StartModelCall starts the trace of a call of req's model and returns the
// context the call, and what the flow does with its answers (the function
// calls, a transfer), runs in: ADK runs them inside the call's span.
//
// The call is nil when the invocation's telemetry is off; its methods then
// do nothing.
func (ictx *InvocationContext) StartModelCall(req *v1.LlmRequest) (*InvocationContext, *ModelCall) {
	tel := ictx.inv.tel
	if tel == nil || tel.tracer == nil && !tel.metrics {
		return ictx, nil
	}
	if tel.tracer == nil {
		return ictx, &ModelCall{ictx: ictx, span: noSpan, start: time.Now()}
	}
	if ictx.spans2x() {
		ctx, span := tel.tracer.Start(ictx.ctx, strings.TrimSpace(operationGenerate+" "+req.GetModel()), ictx.owner(),
			trace.WithAttributes(generateContentAttrs(ictx, req)...))
		if tel.content && span.IsRecording() {
			span.SetAttributes(attrLLMRequest.String(requestJSON(req)))
		}
		return ictx.WithContext(ctx), &ModelCall{ictx: ictx, span: span, start: time.Now(), v2: true}
	}
	ctx, span := tel.tracer.Start(ictx.ctx, "call_llm", ictx.owner())
	if span.IsRecording() {
		attrs := append(make([]attribute.KeyValue, 0, 7),
			attrSystem.String(systemName),
			attrRequestModel.String(req.GetModel()),
			attrInvocationID.String(ictx.InvocationID),
			attrSessionID.String(ictx.SessionID()),
		)
		if cfg := req.GetConfig(); cfg != nil {
			if cfg.TopP != nil && *cfg.TopP != 0 {
				attrs = append(attrs, attrTopP.Float64(float64(*cfg.TopP)))
			}
			if cfg.MaxOutputTokens != nil && *cfg.MaxOutputTokens != 0 {
				attrs = append(attrs, attrMaxTokens.Int(int(*cfg.MaxOutputTokens)))
			}
		}
		if tel.content {
			attrs = append(attrs, attrLLMRequest.String(requestJSON(req)))
		}
		span.SetAttributes(attrs...)
	}
	return ictx.WithContext(ctx), &ModelCall{ictx: ictx, span: span, start: time.Now()}
}

// Response records an answer of the model (ADK's trace_call_llm) that
// becomes the event eventID; of a stream, the last answer's values stay.
func (m *ModelCall) Response(eventID string, resp *v1.LlmResponse) {
	if m == nil {
		return
	}
	m.took = time.Since(m.start)
	if u := resp.GetUsageMetadata(); u != nil {
		m.usage = u
	}
	if !m.span.IsRecording() {
		return
	}
	// One SetAttributes call: each call may grow the span's attribute
	// slice.
	attrs := make([]attribute.KeyValue, 1, 5)
	attrs[0] = attrEventID.String(eventID)
	if m.ictx.inv.tel.content {
		b, err := protojson.Marshal(resp)
		if err != nil {
			b = []byte("<not serializable>")
		}
		attrs = append(attrs, attrLLMResponse.String(string(b)))
	}
	if u := resp.GetUsageMetadata(); u != nil {
		attrs = append(attrs, attrInputTokens.Int(int(u.PromptTokenCount)))
		if u.CandidatesTokenCount != 0 {
			attrs = append(attrs, attrOutputTokens.Int(int(u.CandidatesTokenCount)))
		}
	}
	if resp.GetFinishReason() != "" {
		attrs = append(attrs, attrFinishReasons.StringSlice([]string{strings.ToLower(resp.FinishReason)}))
	}
	m.span.SetAttributes(attrs...)
	if m.v2 && !resp.GetPartial() {
		// The whole answer is in: ADK 2.13 ends the span here, before the
		// flow acts on it.
		failSpan(m.span, m.err)
		m.span.End()
		m.ended = true
	}
}

// Fail records that the call failed with err.
func (m *ModelCall) Fail(err error) {
	if m != nil {
		m.err = err
	}
}

// End ends the call's trace, failed if [ModelCall.Fail] said so.
func (m *ModelCall) End() {
	if m == nil {
		return
	}
	if !m.ended {
		failSpan(m.span, m.err)
		m.span.End()
	}
	tel, ctx := m.ictx.inv.tel, m.ictx.ctx
	if !tel.metrics {
		return
	}
	attrs := m.ictx.inv.attrs.all
	tel.modelCalls.Add(ctx, 1, attrs)
	if m.took == 0 {
		m.took = time.Since(m.start)
	}
	tel.modelTime.Record(ctx, m.took.Seconds(), attrs)
	if m.usage != nil {
		tel.tokens.Add(ctx, int64(m.usage.PromptTokenCount), m.ictx.inv.attrs.input)
		tel.tokens.Add(ctx, int64(m.usage.CandidatesTokenCount), m.ictx.inv.attrs.output)
	}
}

// requestJSON is the request as ADK records it: model, config and contents,
// without inline data.
func requestJSON(req *v1.LlmRequest) string {
	out := &v1.LlmRequest{Model: req.Model, Config: req.Config}
	for _, c := range req.Contents {
		kept := &v1.Content{Role: c.Role}
		for _, p := range c.Parts {
			if p.InlineData == nil {
				kept.Parts = append(kept.Parts, p)
			}
		}
		out.Contents = append(out.Contents, kept)
	}
	b, err := protojson.Marshal(out)
	if err != nil {
		return "<not serializable>"
	}
	return string(b)
}

// ToolCall is the trace of one tool call: ADK's "execute_tool <name>" span
// and the call's metrics.
type ToolCall struct {
	ictx  *InvocationContext
	span  trace.Span
	start time.Time
	tool  Tool
	args  *structpb.Struct
}

// ToolTyper is implemented by tools that name their kind for traces
// (gen_ai.tool.type, ADK's tool class name, e.g. "FunctionTool"); other
// tools are "BaseTool".
type ToolTyper interface {
	ToolType() string
}

// StartToolCall starts the trace of a call of tool with args and returns the
// context the call runs in. The call is nil when the invocation's telemetry
// is off; End then does nothing.
func (ictx *InvocationContext) StartToolCall(tool Tool, args *structpb.Struct) (*InvocationContext, *ToolCall) {
	tel := ictx.inv.tel
	if tel == nil || tel.tracer == nil && !tel.metrics {
		return ictx, nil
	}
	if tel.tracer == nil {
		return ictx, &ToolCall{ictx: ictx, span: noSpan, start: time.Now(), tool: tool, args: args}
	}
	ctx, span := tel.tracer.Start(ictx.ctx, "execute_tool "+tool.Name(), ictx.owner())
	return ictx.WithContext(ctx), &ToolCall{ictx: ictx, span: span, start: time.Now(), tool: tool, args: args}
}

// End ends the call's trace (ADK's trace_tool_call) with the response event
// the call made, or the error it failed with.
func (c *ToolCall) End(resp *v1.Event, err error) {
	if c == nil {
		return
	}
	if c.span.IsRecording() {
		kind := "BaseTool"
		if t, ok := c.tool.(ToolTyper); ok {
			kind = t.ToolType()
		}
		attrs := append(make([]attribute.KeyValue, 0, 10),
			attrOperation.String(operationTool),
			attrToolDesc.String(c.tool.Description()),
			attrToolName.String(c.tool.Name()),
			attrToolType.String(kind),
		)
		content, v2 := c.ictx.inv.tel.content, c.ictx.spans2x()
		switch {
		case v2 && c.ictx.Agent != nil:
			attrs = append(attrs, attrAgentName.String(c.ictx.Agent.Name()))
		case !v2:
			// ADK 1.x sets them empty on tool spans for its web UI.
			attrs = append(attrs, attrLLMRequest.String("{}"), attrLLMResponse.String("{}"))
		}
		if content {
			key := attrToolCallArgs
			if v2 {
				key = attrToolCallArguments
			}
			attrs = append(attrs, key.String(structJSON(c.args)))
		}
		callID, result := "<not specified>", (*structpb.Struct)(nil)
		if resp != nil {
			if parts := resp.GetContent().GetParts(); len(parts) > 0 && parts[0].FunctionResponse != nil {
				fr := parts[0].FunctionResponse
				if fr.Id != "" {
					callID = fr.Id
				}
				result = fr.Response
			}
			attrs = append(attrs, attrEventID.String(resp.Id))
		}
		attrs = append(attrs, attrToolCallID.String(callID))
		switch {
		case content && v2 && result != nil:
			attrs = append(attrs, attrToolCallResult.String(structJSON(result)))
		case content && !v2:
			attrs = append(attrs, attrToolResponse.String(structJSON(result)))
		}
		c.span.SetAttributes(attrs...)
		failSpan(c.span, err)
	}
	c.span.End()
	tel, ctx := c.ictx.inv.tel, c.ictx.ctx
	if !tel.metrics {
		return
	}
	tel.toolCalls.Add(ctx, 1, c.ictx.inv.attrs.all)
	tel.toolTime.Record(ctx, time.Since(c.start).Seconds(), c.ictx.inv.attrs.all)
}

// TraceMergedCalls records ADK's "execute_tool (merged)" span for the
// response event that merges the responses of parallel calls (ADK's
// trace_merged_tool_calls), as a child of the calls' context.
func (ictx *InvocationContext) TraceMergedCalls(merged *v1.Event) {
	tel := ictx.inv.tel
	if tel == nil || tel.tracer == nil {
		return
	}
	_, span := tel.tracer.Start(ictx.ctx, "execute_tool (merged)", ictx.owner())
	if span.IsRecording() && ictx.spans2x() {
		// ADK 2.13: each merged call's own span carries its content.
		span.SetAttributes(
			attrOperation.String(operationTool),
			attrToolName.String("(merged tools)"),
			attrToolDesc.String("(merged tools)"),
			attrToolCallID.String(merged.Id),
			attrEventID.String(merged.Id),
		)
	} else if span.IsRecording() {
		span.SetAttributes(
			attrOperation.String(operationTool),
			attrToolName.String("(merged tools)"),
			attrToolDesc.String("(merged tools)"),
			attrToolCallID.String(merged.Id),
			attrToolCallArgs.String("N/A"),
			attrEventID.String(merged.Id),
			attrLLMRequest.String("{}"),
			attrLLMResponse.String("{}"),
		)
		if tel.content {
			b, err := protojson.Marshal(merged)
			if err != nil {
				b = []byte("<not serializable>")
			}
			span.SetAttributes(attrToolResponse.String(string(b)))
		}
	}
	span.End()
}

func structJSON(s *structpb.Struct) string {
	if s == nil {
		return `{"result":"<not specified>"}`
	}
	b, err := protojson.Marshal(s)
	if err != nil {
		return "<not serializable>"
	}
	return string(b)
}

// appAttrs are the metric attributes of an app's calls: the app, and with
// the token type for token counts.
type appAttrs struct {
	all, input, output metric.MeasurementOption
}

// attrsOf returns the metric attributes of app, made once per app; nil
// when t does not measure.
func (t *Telemetry) attrsOf(app string) *appAttrs {
	if !t.measuring() {
		return nil
	}
	if a, ok := t.apps.Load(app); ok {
		return a.(*appAttrs)
	}
	a := attrApp.String(app)
	made := &appAttrs{
		all:    metric.WithAttributeSet(attribute.NewSet(a)),
		input:  metric.WithAttributeSet(attribute.NewSet(a, attrTokenType.String("input"))),
		output: metric.WithAttributeSet(attribute.NewSet(a, attrTokenType.String("output"))),
	}
	got, _ := t.apps.LoadOrStore(app, made)
	return got.(*appAttrs)
}
