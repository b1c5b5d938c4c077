package gemini

import (
	"encoding/json"
	"fmt"

	"google.golang.org/genai"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// The error ADK's LlmResponse.create reports for a response with neither
// candidates nor prompt feedback.
const (
	finishReasonStop    = string(genai.FinishReasonStop)
	unknownErrorCode    = "UNKNOWN_ERROR"
	unknownErrorMessage = "Unknown error."
)

// createResponse maps a genai response as ADK's LlmResponse.create does: the
// first candidate's content when it has parts or finished with STOP, else an
// error carrying its finish reason and message; without candidates, the
// prompt feedback's block reason and message; else UNKNOWN_ERROR.
func createResponse(r *genai.GenerateContentResponse) (*v1.LlmResponse, error) {
	out := &v1.LlmResponse{ModelVersion: r.ModelVersion, UsageMetadata: usageMetadata(r.UsageMetadata)}
	if len(r.Candidates) > 0 && r.Candidates[0] != nil {
		c := r.Candidates[0]
		out.FinishReason = string(c.FinishReason)
		out.AvgLogprobs = c.AvgLogprobs
		if c.CitationMetadata != nil {
			cm, err := jsonStruct(c.CitationMetadata)
			if err != nil {
				return nil, fmt.Errorf("citation metadata: %w", err)
			}
			out.CitationMetadata = cm
		}
		if (c.Content != nil && len(c.Content.Parts) > 0) || c.FinishReason == genai.FinishReasonStop {
			content, err := contentFromGenai(c.Content)
			if err != nil {
				return nil, err
			}
			out.Content = content
			if c.GroundingMetadata != nil {
				gm, err := jsonStruct(c.GroundingMetadata)
				if err != nil {
					return nil, fmt.Errorf("grounding metadata: %w", err)
				}
				out.GroundingMetadata = gm
			}
			return out, nil
		}
		out.ErrorCode = string(c.FinishReason)
		out.ErrorMessage = c.FinishMessage
		return out, nil
	}
	if pf := r.PromptFeedback; pf != nil {
		out.ErrorCode = string(pf.BlockReason)
		out.ErrorMessage = pf.BlockReasonMessage
		return out, nil
	}
	out.ErrorCode = unknownErrorCode
	out.ErrorMessage = unknownErrorMessage
	return out, nil
}

// contentFromGenai converts a candidate's content, allocating its parts in
// one block. A nil content gives nil.
func contentFromGenai(c *genai.Content) (*v1.Content, error) {
	if c == nil {
		return nil, nil
	}
	out := &v1.Content{Role: c.Role}
	if len(c.Parts) == 0 {
		return out, nil
	}
	block := make([]v1.Part, len(c.Parts))
	out.Parts = make([]*v1.Part, 0, len(c.Parts))
	for i, p := range c.Parts {
		if p == nil {
			continue
		}
		if err := partFromGenai(&block[i], p); err != nil {
			return nil, err
		}
		out.Parts = append(out.Parts, &block[i])
	}
	return out, nil
}

// partFromGenai fills dst from p.
func partFromGenai(dst *v1.Part, p *genai.Part) error {
	dst.Text = p.Text
	dst.Thought = p.Thought
	dst.ThoughtSignature = p.ThoughtSignature
	if b := p.InlineData; b != nil {
		dst.InlineData = &v1.Blob{MimeType: b.MIMEType, Data: b.Data, DisplayName: b.DisplayName}
	}
	if f := p.FileData; f != nil {
		dst.FileData = &v1.FileData{MimeType: f.MIMEType, FileUri: f.FileURI, DisplayName: f.DisplayName}
	}
	if fc := p.FunctionCall; fc != nil {
		args, err := mapStruct(fc.Args)
		if err != nil {
			return fmt.Errorf("function call %q args: %w", fc.Name, err)
		}
		dst.FunctionCall = &v1.FunctionCall{Id: fc.ID, Name: fc.Name, Args: args}
	}
	if fr := p.FunctionResponse; fr != nil {
		resp, err := mapStruct(fr.Response)
		if err != nil {
			return fmt.Errorf("function response %q: %w", fr.Name, err)
		}
		dst.FunctionResponse = &v1.FunctionResponse{Id: fr.ID, Name: fr.Name, Response: resp}
	}
	if ec := p.ExecutableCode; ec != nil {
		dst.ExecutableCode = &v1.ExecutableCode{Language: string(ec.Language), Code: ec.Code}
	}
	if cr := p.CodeExecutionResult; cr != nil {
		dst.CodeExecutionResult = &v1.CodeExecutionResult{Outcome: string(cr.Outcome), Output: cr.Output}
	}
	return nil
}

// mapStruct converts a JSON object, nil for nil.
func mapStruct(m map[string]any) (*structpb.Struct, error) {
	if m == nil {
		return nil, nil
	}
	return structpb.NewStruct(m)
}

// jsonStruct converts any JSON-encodable value into a Struct.
func jsonStruct(v any) (*structpb.Struct, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := &structpb.Struct{}
	if err := protojson.Unmarshal(b, s); err != nil {
		return nil, err
	}
	return s, nil
}

func usageMetadata(u *genai.GenerateContentResponseUsageMetadata) *v1.UsageMetadata {
	if u == nil {
		return nil
	}
	return &v1.UsageMetadata{
		PromptTokenCount:        u.PromptTokenCount,
		CandidatesTokenCount:    u.CandidatesTokenCount,
		TotalTokenCount:         u.TotalTokenCount,
		ThoughtsTokenCount:      u.ThoughtsTokenCount,
		CachedContentTokenCount: u.CachedContentTokenCount,
		ToolUsePromptTokenCount: u.ToolUsePromptTokenCount,
	}
}
