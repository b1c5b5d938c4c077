package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/openai/openai-go/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// The finish reasons of ADK's LiteLlm, by the provider's.
var finishReasons = map[string]string{
	"length":         "MAX_TOKENS",
	"stop":           "STOP",
	"tool_calls":     "STOP",
	"function_call":  "STOP",
	"content_filter": "SAFETY",
}

// finishReason maps a provider's finish reason; "" stays "".
func finishReason(r string) string {
	if r == "" {
		return ""
	}
	if f, ok := finishReasons[strings.ToLower(r)]; ok {
		return f
	}
	return "OTHER"
}

// errNoMessage is ADK's error for an answer without a message.
var errNoMessage = errors.New("No message in response") //nolint:staticcheck // ST1005: ADK's message, word for word.

// createResponse converts a whole answer as ADK's LiteLlm does: the first
// choice's reasoning, text and tool calls as the model's content, its
// finish reason mapped, the usage and the answer's model.
func createResponse(c *openai.ChatCompletion) (*v1.LlmResponse, error) {
	if len(c.Choices) == 0 {
		return nil, errNoMessage
	}
	ch := c.Choices[0]
	msg := ch.Message
	if msg.Content == "" && len(msg.ToolCalls) == 0 && reasoningText(msg.RawJSON()) == "" && msg.Role == "" {
		return nil, errNoMessage
	}
	calls := make([]toolCall, 0, len(msg.ToolCalls))
	for _, tc := range msg.ToolCalls {
		if tc.Type != "function" {
			continue
		}
		calls = append(calls, toolCall{id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments})
	}
	content, err := modelContent(reasoningText(msg.RawJSON()), msg.Content, calls)
	if err != nil {
		return nil, err
	}
	// LiteLlm says partial=False where the Gemini model says nothing; the
	// stored event keeps it.
	return &v1.LlmResponse{Content: content, ModelVersion: c.Model, FinishReason: finishReason(ch.FinishReason),
		UsageMetadata: usage(c.Usage, c.JSON.Usage.Valid()), Partial: proto.Bool(false)}, nil
}

// toolCall is one assembled tool call.
type toolCall struct {
	id, name, args string
}

// modelContent builds the model's content: thought text, text, then the
// calls with their arguments decoded.
func modelContent(reasoning, text string, calls []toolCall) (*v1.Content, error) {
	out := &v1.Content{Role: "model", Parts: []*v1.Part{}}
	if reasoning != "" {
		out.Parts = append(out.Parts, &v1.Part{Text: reasoning, Thought: true})
	}
	if text != "" {
		out.Parts = append(out.Parts, &v1.Part{Text: text})
	}
	for _, c := range calls {
		args, err := callArgs(c.args)
		if err != nil {
			return nil, fmt.Errorf("tool call %q arguments: %w", c.name, err)
		}
		out.Parts = append(out.Parts, &v1.Part{FunctionCall: &v1.FunctionCall{Id: c.id, Name: c.name, Args: args}})
	}
	return out, nil
}

// callArgs decodes a call's JSON arguments; empty means none.
func callArgs(s string) (*structpb.Struct, error) {
	if strings.TrimSpace(s) == "" {
		s = "{}"
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, err
	}
	if m == nil {
		m = map[string]any{}
	}
	return structpb.NewStruct(m)
}

// reasoningText is the reasoning_content (or reasoning) of a message's
// JSON, which the SDK's types do not name.
func reasoningText(raw string) string {
	if raw == "" || !strings.Contains(raw, "reasoning") {
		return ""
	}
	var m struct {
		ReasoningContent string `json:"reasoning_content"`
		Reasoning        string `json:"reasoning"`
	}
	if json.Unmarshal([]byte(raw), &m) != nil {
		return ""
	}
	if m.ReasoningContent != "" {
		return m.ReasoningContent
	}
	return m.Reasoning
}

// usage converts the token counts; nil when the answer had none.
func usage(u openai.CompletionUsage, present bool) *v1.UsageMetadata {
	if !present {
		return nil
	}
	return &v1.UsageMetadata{
		PromptTokenCount:        clamp(u.PromptTokens),
		CandidatesTokenCount:    clamp(u.CompletionTokens),
		TotalTokenCount:         clamp(u.TotalTokens),
		CachedContentTokenCount: clamp(u.PromptTokensDetails.CachedTokens),
		ThoughtsTokenCount:      clamp(u.CompletionTokensDetails.ReasoningTokens),
	}
}

func clamp(n int64) int32 {
	if n > 1<<31-1 {
		return 1<<31 - 1
	}
	if n < 0 {
		return 0
	}
	return int32(n)
}

// streamAggregator assembles a streamed answer as ADK's LiteLlm does:
// text deltas are yielded as partial responses and joined, tool-call
// deltas are joined by index (a call whose arguments form complete JSON
// moves a call without index on to the next one), and the final responses
// (the text, then the calls) come once the stream ends, with the last
// usage.
type streamAggregator struct {
	text      strings.Builder
	reasoning strings.Builder
	calls     map[int64]*toolCall
	order     []int64
	fallback  int64
	finish    string
	model     string
	usage     *v1.UsageMetadata
}

// add records one chunk and returns the partial response to yield, if any.
func (a *streamAggregator) add(c *openai.ChatCompletionChunk, model string) *v1.LlmResponse {
	a.model = model
	if c.JSON.Usage.Valid() && (c.Usage.TotalTokens != 0 || c.Usage.PromptTokens != 0 || c.Usage.CompletionTokens != 0) {
		a.usage = usage(c.Usage, true)
	}
	if len(c.Choices) == 0 {
		return nil
	}
	ch := c.Choices[0]
	if ch.FinishReason != "" {
		a.finish = ch.FinishReason
	}
	var partial *v1.LlmResponse
	if r := reasoningText(ch.Delta.RawJSON()); r != "" {
		a.reasoning.WriteString(r)
		partial = &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: r, Thought: true}}}, ModelVersion: model}
	}
	if t := ch.Delta.Content; t != "" {
		a.text.WriteString(t)
		if partial == nil {
			partial = &v1.LlmResponse{Content: &v1.Content{Role: "model"}, ModelVersion: model}
		}
		partial.Content.Parts = append(partial.Content.Parts, &v1.Part{Text: t})
	}
	for i, tc := range ch.Delta.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		if tc.Function.Name == "" && tc.Function.Arguments == "" {
			continue
		}
		index := int64(i)
		if tc.JSON.Index.Valid() {
			index = tc.Index
		}
		if index == 0 {
			index = a.fallback
		}
		call, ok := a.calls[index]
		if !ok {
			if a.calls == nil {
				a.calls = map[int64]*toolCall{}
			}
			call = &toolCall{}
			a.calls[index] = call
			a.order = append(a.order, index)
		}
		call.name += tc.Function.Name
		if tc.Function.Arguments != "" {
			call.args += tc.Function.Arguments
			if json.Valid([]byte(call.args)) {
				a.fallback++
			}
		}
		switch {
		case tc.ID != "":
			call.id = tc.ID
		case call.id == "":
			call.id = strconv.FormatInt(index, 10)
		}
	}
	return partial
}

// results returns the final responses: the text (and reasoning), then
// the tool calls, the usage on the text one when there is text.
func (a *streamAggregator) results() ([]*v1.LlmResponse, error) {
	var out []*v1.LlmResponse
	if a.text.Len() > 0 || a.reasoning.Len() > 0 {
		reason := a.finish
		if len(a.calls) > 0 || reason == "" {
			reason = "stop"
		}
		content, err := modelContent(a.reasoning.String(), a.text.String(), nil)
		if err != nil {
			return nil, err
		}
		out = append(out, a.final(content, reason))
	}
	if len(a.calls) > 0 {
		reason := a.finish
		if reason != "length" {
			reason = "tool_calls"
		}
		calls := make([]toolCall, 0, len(a.order))
		for _, i := range a.order {
			c := a.calls[i]
			if reason == "length" && !json.Valid([]byte(orEmptyJSON(c.args))) {
				return append(out, &v1.LlmResponse{ErrorCode: "MAX_TOKENS", FinishReason: "MAX_TOKENS", ModelVersion: a.model,
					ErrorMessage: "Tool call arguments were truncated while streaming and could not be parsed as valid JSON. " +
						"Increase `max_output_tokens` and retry."}), nil
			}
			calls = append(calls, *c)
		}
		content, err := modelContent("", "", calls)
		if err != nil {
			return nil, err
		}
		r := a.final(content, reason)
		if len(out) > 0 {
			// The usage went to the text response.
			r.UsageMetadata = nil
		}
		out = append(out, r)
	}
	return out, nil
}

func orEmptyJSON(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// final is one aggregated response with its finish reason mapped and,
// when that is not STOP, the error ADK reports for it.
func (a *streamAggregator) final(content *v1.Content, reason string) *v1.LlmResponse {
	r := &v1.LlmResponse{Content: content, ModelVersion: a.model, FinishReason: finishReason(reason), UsageMetadata: a.usage}
	if r.FinishReason != "STOP" {
		r.ErrorCode = r.FinishReason
		if r.FinishReason == "MAX_TOKENS" {
			r.ErrorMessage = "Maximum tokens reached"
		} else {
			r.ErrorMessage = "Finished with " + r.FinishReason
		}
	}
	return r
}
