package scripted

import (
	"strings"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// aggregate builds the final response of scripted chunks as the Gemini
// adapter does: consecutive text parts of the same kind (thought or answer)
// merged, other parts copied in order; finish reason, error, model version
// from the last chunk; usage from the last chunk that has it. A finish reason
// other than STOP becomes the error code when the last chunk has none.
func aggregate(chunks []*v1.LlmResponse) *v1.LlmResponse {
	out := &v1.LlmResponse{}
	if len(chunks) == 0 {
		return out
	}
	var (
		parts   []*v1.Part
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
	hasContent := false
	for _, c := range chunks {
		if c.GetContent() != nil {
			hasContent = true
		}
		for _, p := range c.GetContent().GetParts() {
			if p.GetText() == "" {
				flush()
				parts = append(parts, proto.CloneOf(p))
				continue
			}
			if hasText && p.GetThought() != thought {
				flush()
			}
			if !hasText {
				hasText, thought = true, p.GetThought()
			}
			text.WriteString(p.GetText())
			if s := p.GetThoughtSignature(); len(s) > 0 {
				sig = s
			}
		}
		if c.GetUsageMetadata() != nil {
			out.UsageMetadata = proto.CloneOf(c.GetUsageMetadata())
		}
	}
	flush()
	last := chunks[len(chunks)-1]
	if hasContent {
		out.Content = &v1.Content{Role: "model", Parts: parts}
	}
	out.FinishReason = last.GetFinishReason()
	out.ModelVersion = last.GetModelVersion()
	out.GroundingMetadata = proto.CloneOf(last.GetGroundingMetadata())
	out.ErrorCode, out.ErrorMessage = last.GetErrorCode(), last.GetErrorMessage()
	if out.ErrorCode == "" && out.FinishReason != "" && out.FinishReason != "STOP" {
		out.ErrorCode = out.FinishReason
	}
	return out
}
