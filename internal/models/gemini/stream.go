package gemini

import (
	"strings"

	"google.golang.org/genai"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// streamAggregator builds the final response of a stream the way ADK's
// StreamingResponseAggregator does in progressive mode: consecutive text
// parts are merged (thought text apart from answer text), every other part
// is kept in order, and the finish reason, finish message and model version
// come from the last chunk. Usage and grounding come from the last chunk
// that carried them.
//
// Non-text parts are cloned, so a caller may change the partial responses it
// was given without changing the aggregate.
type streamAggregator struct {
	parts []*v1.Part

	text          strings.Builder
	textThought   bool
	textSignature []byte
	hasText       bool

	last       *genai.GenerateContentResponse
	lastResp   *v1.LlmResponse
	usage      *v1.UsageMetadata
	grounding  *structpb.Struct
	citation   *structpb.Struct
	avgLogprob float64
}

// add records one chunk and its mapped response.
func (a *streamAggregator) add(chunk *genai.GenerateContentResponse, resp *v1.LlmResponse) {
	a.last, a.lastResp = chunk, resp
	if resp.UsageMetadata != nil {
		a.usage = resp.UsageMetadata
	}
	if resp.GroundingMetadata != nil {
		a.grounding = resp.GroundingMetadata
	}
	if resp.CitationMetadata != nil {
		a.citation = resp.CitationMetadata
	}
	if resp.AvgLogprobs != 0 {
		a.avgLogprob = resp.AvgLogprobs
	}
	for _, p := range resp.GetContent().GetParts() {
		if p.GetText() == "" {
			a.flush()
			a.parts = append(a.parts, proto.CloneOf(p))
			continue
		}
		if a.hasText && p.GetThought() != a.textThought {
			a.flush()
		}
		if !a.hasText {
			a.hasText, a.textThought = true, p.GetThought()
		}
		a.text.WriteString(p.GetText())
		if sig := p.GetThoughtSignature(); len(sig) > 0 {
			a.textSignature = sig
		}
	}
}

// flush turns the buffered text into a part.
func (a *streamAggregator) flush() {
	if !a.hasText {
		return
	}
	a.parts = append(a.parts, &v1.Part{Text: a.text.String(), Thought: a.textThought, ThoughtSignature: a.textSignature})
	a.text.Reset()
	a.hasText, a.textThought, a.textSignature = false, false, nil
}

// result returns the aggregated, non-partial response. A finish reason other
// than STOP becomes the error code, with the finish message, as in ADK. When
// the last chunk had no candidate (a blocked prompt), ADK ends the stream
// without an aggregate; the last chunk's error is returned instead so that
// the stream still ends with a non-partial response. A stream without chunks
// gives ADK's UNKNOWN_ERROR.
func (a *streamAggregator) result() *v1.LlmResponse {
	a.flush()
	if a.last == nil {
		return &v1.LlmResponse{ErrorCode: unknownErrorCode, ErrorMessage: unknownErrorMessage}
	}
	if len(a.last.Candidates) == 0 || a.last.Candidates[0] == nil {
		out := proto.CloneOf(a.lastResp)
		out.Partial = false
		return out
	}
	c := a.last.Candidates[0]
	out := &v1.LlmResponse{
		Content:           &v1.Content{Role: roleModel, Parts: a.parts},
		FinishReason:      string(c.FinishReason),
		UsageMetadata:     proto.CloneOf(a.usage),
		GroundingMetadata: proto.CloneOf(a.grounding),
		CitationMetadata:  proto.CloneOf(a.citation),
		ModelVersion:      a.last.ModelVersion,
		AvgLogprobs:       a.avgLogprob,
	}
	if out.FinishReason != "" && out.FinishReason != finishReasonStop {
		out.ErrorCode = out.FinishReason
		out.ErrorMessage = c.FinishMessage
	}
	return out
}
