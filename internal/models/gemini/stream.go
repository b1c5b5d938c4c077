package gemini

import (
	"strings"

	"github.com/google/uuid"
	"google.golang.org/genai"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// clientCallIDPrefix starts the ids ADK gives function calls that came
// without one.
const clientCallIDPrefix = "adk-"

// streamAggregator builds the final response of a stream the way ADK's
// StreamingResponseAggregator does in progressive mode:
//
//   - consecutive text parts are merged, thought text apart from answer text,
//     keeping the first thought signature seen; every other part is kept in
//     order; function calls without a name (end markers) are left out and
//     repeated call ids are kept once;
//   - a function call without an id gets "adk-<uuid4>", in the partial
//     response as well, so both carry the same id;
//   - the finish reason is the last one any chunk gave; usage, grounding and
//     citation metadata are the last ones any chunk carried; the model
//     version is the last chunk's;
//   - a finish reason other than STOP is the error code, with the last
//     chunk's finish message; a last chunk without candidates but with
//     prompt feedback gives the block reason and message instead.
//
// Parts are cloned into the aggregate, so a caller may change the partial
// responses it was given without changing the aggregate.
type streamAggregator struct {
	parts   []*v1.Part
	callIDs map[string]bool

	text          strings.Builder
	textThought   bool
	textSignature []byte
	hasText       bool

	last         *genai.GenerateContentResponse
	finishReason string
	usage        *v1.UsageMetadata
	grounding    *structpb.Struct
	citation     *structpb.Struct
}

// add records one chunk and its mapped response, and gives the response's
// function calls without an id their client id.
func (a *streamAggregator) add(chunk *genai.GenerateContentResponse, resp *v1.LlmResponse) {
	a.last = chunk
	if resp.FinishReason != "" {
		a.finishReason = resp.FinishReason
	}
	if resp.UsageMetadata != nil {
		a.usage = resp.UsageMetadata
	}
	if resp.GroundingMetadata != nil {
		a.grounding = resp.GroundingMetadata
	}
	if resp.CitationMetadata != nil {
		a.citation = resp.CitationMetadata
	}
	for _, p := range resp.GetContent().GetParts() {
		switch {
		case p.GetText() != "":
			a.addText(p)
		case p.GetFunctionCall() != nil:
			a.addCall(p)
		default:
			a.flush()
			a.parts = append(a.parts, proto.CloneOf(p))
		}
	}
}

func (a *streamAggregator) addText(p *v1.Part) {
	if a.hasText && p.GetThought() != a.textThought {
		a.flush()
	}
	if !a.hasText {
		a.hasText, a.textThought = true, p.GetThought()
	}
	a.text.WriteString(p.GetText())
	if sig := p.GetThoughtSignature(); len(sig) > 0 && a.textSignature == nil {
		a.textSignature = sig
	}
}

func (a *streamAggregator) addCall(p *v1.Part) {
	fc := p.GetFunctionCall()
	if fc.GetName() == "" {
		return
	}
	if fc.GetId() == "" {
		fc.Id = clientCallIDPrefix + uuid.NewString()
	}
	a.flush()
	if a.callIDs[fc.GetId()] {
		return
	}
	if a.callIDs == nil {
		a.callIDs = map[string]bool{}
	}
	a.callIDs[fc.GetId()] = true
	a.parts = append(a.parts, proto.CloneOf(p))
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

// result returns the aggregated, non-partial response, or nil when no chunk
// came (ADK then yields nothing more).
func (a *streamAggregator) result() *v1.LlmResponse {
	if a.last == nil {
		return nil
	}
	a.flush()
	out := &v1.LlmResponse{
		FinishReason:      a.finishReason,
		UsageMetadata:     proto.CloneOf(a.usage),
		GroundingMetadata: proto.CloneOf(a.grounding),
		CitationMetadata:  proto.CloneOf(a.citation),
		// ADK's aggregate carries no model version: the chunks do.
	}
	if len(a.parts) > 0 {
		out.Content = &v1.Content{Role: roleModel, Parts: a.parts}
	}
	var cand *genai.Candidate
	if len(a.last.Candidates) > 0 {
		cand = a.last.Candidates[0]
	}
	switch {
	case out.FinishReason != "" && out.FinishReason != finishReasonStop:
		out.ErrorCode = out.FinishReason
		if cand != nil {
			out.ErrorMessage = cand.FinishMessage
		}
	case cand == nil && a.last.PromptFeedback != nil:
		out.ErrorCode = string(a.last.PromptFeedback.BlockReason)
		out.ErrorMessage = a.last.PromptFeedback.BlockReasonMessage
	}
	return out
}
