package scripted

import (
	"strings"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// aggregate builds the final response of scripted chunks as the Gemini
// adapter does: consecutive text parts of the same kind (thought or answer)
// merged, keeping the first thought signature; other parts copied in order,
// function calls without a name left out and repeated call ids kept once;
// content only when there are parts. The finish reason is the last one any
// chunk gave and, unless STOP, the error code (with the last chunk's error
// message); otherwise the last chunk's own error is kept. Usage is the last
// one any chunk carried; the model version is the last chunk's.
func aggregate(chunks []*v1.LlmResponse) *v1.LlmResponse {
	out := &v1.LlmResponse{}
	if len(chunks) == 0 {
		return out
	}
	var (
		parts   []*v1.Part
		callIDs = map[string]bool{}
		text    strings.Builder
		thought bool
		sig     []byte
		hasText bool
	)
	flush := func() {
		if hasText {
			parts = append(parts, &v1.Part{Text: text.String(), Thought: thought, ThoughtSignature: sig})
			text.Reset()
			hasText, thought, sig = false, false, nil
		}
	}
	for _, c := range chunks {
		for _, p := range c.GetContent().GetParts() {
			switch fc := p.GetFunctionCall(); {
			case p.GetText() != "":
				if hasText && p.GetThought() != thought {
					flush()
				}
				if !hasText {
					hasText, thought = true, p.GetThought()
				}
				text.WriteString(p.GetText())
				if s := p.GetThoughtSignature(); len(s) > 0 && sig == nil {
					sig = s
				}
			case fc != nil:
				if fc.GetName() == "" {
					continue
				}
				flush()
				if id := fc.GetId(); id != "" {
					if callIDs[id] {
						continue
					}
					callIDs[id] = true
				}
				parts = append(parts, proto.CloneOf(p))
			default:
				flush()
				parts = append(parts, proto.CloneOf(p))
			}
		}
		if c.GetUsageMetadata() != nil {
			out.UsageMetadata = proto.CloneOf(c.GetUsageMetadata())
		}
		if c.GetFinishReason() != "" {
			out.FinishReason = c.GetFinishReason()
		}
		if c.GetGroundingMetadata() != nil {
			out.GroundingMetadata = proto.CloneOf(c.GetGroundingMetadata())
		}
	}
	flush()
	if len(parts) > 0 {
		out.Content = &v1.Content{Role: "model", Parts: parts}
	}
	last := chunks[len(chunks)-1]
	out.ModelVersion = last.GetModelVersion()
	switch {
	case out.FinishReason != "" && out.FinishReason != "STOP":
		out.ErrorCode, out.ErrorMessage = out.FinishReason, last.GetErrorMessage()
	case last.GetErrorCode() != "":
		out.ErrorCode, out.ErrorMessage = last.GetErrorCode(), last.GetErrorMessage()
	}
	return out
}
