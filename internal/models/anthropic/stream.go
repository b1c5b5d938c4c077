package anthropic

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// streamBlock is one content block of a streamed answer as it builds up.
type streamBlock struct {
	kind      string // "text", "thinking", "redacted_thinking" or "tool_use"
	text      strings.Builder
	signature string
	id, name  string
	input     strings.Builder
}

// streamAggregator turns the events of a streamed answer into partial
// responses and the final one, as the flavour's Python model does: text
// (and, for the Claude class, thinking) deltas are partial responses;
// tool inputs are assembled from their JSON deltas and come out in the
// final response only. LiteLLM's final response holds all text in one part
// before the calls, the Claude class's the blocks in order.
type streamAggregator struct {
	flavour flavour
	// model is the model version LiteLLM reports on every chunk: the
	// model it was asked for.
	model string
	// schemaTool is set when the response schema went as json_tool_call,
	// whose input LiteLLM streams as text.
	schemaTool bool

	blocks  map[int64]*streamBlock
	started bool
	stop    string
	in, out int64
	cacheR  int64
	cacheW  int64
}

// add records one event and returns the partial response it makes, if any.
func (a *streamAggregator) add(ev *anthropic.MessageStreamEventUnion) *v1.LlmResponse {
	if a.blocks == nil {
		a.blocks = map[int64]*streamBlock{}
	}
	a.started = true
	switch ev.Type {
	case "message_start":
		u := ev.Message.Usage
		a.in, a.out, a.cacheR, a.cacheW = u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens
	case "content_block_start":
		cb := ev.ContentBlock
		b := &streamBlock{kind: cb.Type, id: cb.ID, name: cb.Name, signature: cb.Signature}
		switch cb.Type {
		case "text":
			b.text.WriteString(cb.Text)
		case "thinking":
			b.text.WriteString(cb.Thinking)
		case "redacted_thinking":
			b.signature = cb.Data
		}
		a.blocks[ev.Index] = b
	case "content_block_delta":
		return a.delta(ev.Index, &ev.Delta)
	case "message_delta":
		a.out = ev.Usage.OutputTokens
		if ev.Delta.StopReason != "" {
			a.stop = string(ev.Delta.StopReason)
		}
	}
	return nil
}

func (a *streamAggregator) delta(index int64, d *anthropic.MessageStreamEventUnionDelta) *v1.LlmResponse {
	b := a.blocks[index]
	if b == nil {
		b = &streamBlock{kind: map[string]string{"text_delta": "text", "thinking_delta": "thinking", "signature_delta": "thinking"}[d.Type]}
		a.blocks[index] = b
	}
	switch d.Type {
	case "text_delta":
		b.text.WriteString(d.Text)
		return a.partial(&v1.Part{Text: d.Text})
	case "thinking_delta":
		b.text.WriteString(d.Thinking)
		if a.flavour == claude {
			return a.partial(&v1.Part{Text: d.Thinking, Thought: true})
		}
	case "signature_delta":
		b.signature += d.Signature
	case "input_json_delta":
		b.input.WriteString(d.PartialJSON)
		if a.schemaTool && b.name == jsonToolName && d.PartialJSON != "" {
			return a.partial(&v1.Part{Text: d.PartialJSON})
		}
	}
	return nil
}

func (a *streamAggregator) partial(p *v1.Part) *v1.LlmResponse {
	out := &v1.LlmResponse{Content: &v1.Content{Role: roleModel, Parts: []*v1.Part{p}}, Partial: proto.Bool(true)}
	if a.flavour == liteLLM {
		out.ModelVersion = a.model
	}
	return out
}

// result returns the final response, nil when no event came.
func (a *streamAggregator) result() (*v1.LlmResponse, error) {
	if !a.started {
		return nil, nil
	}
	out := &v1.LlmResponse{
		Content:       &v1.Content{Role: roleModel},
		FinishReason:  a.flavour.finishReason(a.stop),
		UsageMetadata: a.flavour.usage(a.in, a.out, a.cacheR, a.cacheW),
		Partial:       proto.Bool(false),
	}
	var text strings.Builder
	// parts are the calls for LiteLLM, every block in order for Claude.
	var parts []*v1.Part
	for _, i := range slices.Sorted(maps.Keys(a.blocks)) {
		b := a.blocks[i]
		switch {
		case b.kind == "tool_use" && a.schemaTool && b.name == jsonToolName:
			text.WriteString(b.input.String())
		case b.kind == "tool_use":
			input := json.RawMessage(b.input.String())
			p, err := callPart(b.id, b.name, input)
			if err != nil {
				return nil, err
			}
			parts = append(parts, p)
		case b.kind == "text" && a.flavour == liteLLM:
			text.WriteString(b.text.String())
		case b.kind == "text":
			parts = append(parts, &v1.Part{Text: b.text.String()})
		case b.kind == "thinking" && a.flavour == claude:
			parts = append(parts, &v1.Part{Text: b.text.String(), Thought: true, ThoughtSignature: []byte(b.signature)})
		case b.kind == "redacted_thinking" && a.flavour == claude:
			parts = append(parts, &v1.Part{Thought: true, ThoughtSignature: []byte(b.signature)})
		}
	}
	if a.flavour == liteLLM {
		out.ModelVersion = a.model
		if text.Len() > 0 {
			out.Content.Parts = append(out.Content.Parts, &v1.Part{Text: text.String()})
		}
	}
	out.Content.Parts = append(out.Content.Parts, parts...)
	return out, nil
}
