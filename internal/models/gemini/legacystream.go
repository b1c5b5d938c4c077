package gemini

import (
	"strings"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// legacyStream reshapes a stream as ADK's StreamingResponseAggregator does
// with its PROGRESSIVE_SSE_STREAMING feature off:
//
//   - a chunk whose first part is text adds that text (thought text apart)
//     to a buffer and is yielded as partial; the rest of its parts count
//     for nothing more;
//   - any other chunk is yielded whole, not partial, after a non-partial
//     response holding the buffered text (thought part first) when there
//     is some and the chunk's first part is not inline data;
//   - the final response holds only the text still buffered, with the last
//     chunk's usage metadata (none when it had none).
type legacyStream struct {
	thought, text strings.Builder
	usage         *v1.UsageMetadata
}

// process returns the responses yielded for one mapped chunk, in order.
func (l *legacyStream) process(resp *v1.LlmResponse) []*v1.LlmResponse {
	l.usage = resp.UsageMetadata
	parts := resp.GetContent().GetParts()
	if len(parts) > 0 && parts[0].GetText() != "" {
		if parts[0].GetThought() {
			l.thought.WriteString(parts[0].GetText())
		} else {
			l.text.WriteString(parts[0].GetText())
		}
		resp.Partial = proto.Bool(true)
		return []*v1.LlmResponse{resp}
	}
	var out []*v1.LlmResponse
	if (l.thought.Len() > 0 || l.text.Len() > 0) && (len(parts) == 0 || parts[0].GetInlineData() == nil) {
		out = append(out, &v1.LlmResponse{Content: l.take(), UsageMetadata: resp.UsageMetadata})
	}
	return append(out, resp)
}

// final rewrites the aggregate of the progressive aggregator (which gives
// the finish reason, error and metadata) to hold the buffered text only.
func (l *legacyStream) final(agg *v1.LlmResponse) *v1.LlmResponse {
	agg.Content = l.take()
	agg.UsageMetadata = proto.CloneOf(l.usage)
	return agg
}

// take returns the buffered text as model content, nil when there is none,
// and empties the buffer.
func (l *legacyStream) take() *v1.Content {
	var parts []*v1.Part
	if l.thought.Len() > 0 {
		parts = append(parts, &v1.Part{Text: l.thought.String(), Thought: true})
	}
	if l.text.Len() > 0 {
		parts = append(parts, &v1.Part{Text: l.text.String()})
	}
	l.thought.Reset()
	l.text.Reset()
	if parts == nil {
		return nil
	}
	return &v1.Content{Role: roleModel, Parts: parts}
}
