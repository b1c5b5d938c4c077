package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// flavour is the Python model class an adapter behaves as.
type flavour int

const (
	// liteLLM is ADK's LiteLlm over LiteLLM's Anthropic provider.
	liteLLM flavour = iota
	// claude is ADK's Claude class over the anthropic SDK on Vertex AI.
	claude
)

// finishReason maps a stop reason as the flavour reports it: through
// LiteLLM's OpenAI finish reasons and ADK's mapping of those, or by the
// Claude class, which reports none.
func (f flavour) finishReason(stop string) string {
	if f == claude {
		return ""
	}
	switch stop {
	case "end_turn", "stop_sequence", "tool_use", "pause_turn", "":
		return "STOP"
	case "max_tokens", "model_context_window_exceeded":
		return "MAX_TOKENS"
	case "refusal":
		return "SAFETY"
	}
	return "OTHER"
}

// usage maps the token counts as the flavour reports them. LiteLLM counts
// cache reads and writes as prompt tokens and reports the reads as cached.
func (f flavour) usage(in, out, cacheRead, cacheCreate int64) *v1.UsageMetadata {
	if f == claude {
		return &v1.UsageMetadata{PromptTokenCount: int32(in), CandidatesTokenCount: int32(out), TotalTokenCount: int32(in + out)}
	}
	prompt := in + cacheRead + cacheCreate
	return &v1.UsageMetadata{PromptTokenCount: int32(prompt), CandidatesTokenCount: int32(out),
		TotalTokenCount: int32(prompt + out), CachedContentTokenCount: int32(cacheRead)}
}

// messageResponse converts a whole answer. LiteLLM joins the text blocks
// into one text before the calls (a json_tool_call call becomes the text
// of its input) and reports the answer's model; the Claude class keeps
// the blocks in order and reports neither model nor finish reason.
func (f flavour) messageResponse(m *anthropic.Message, schemaTool bool) (*v1.LlmResponse, error) {
	out := &v1.LlmResponse{
		FinishReason:  f.finishReason(string(m.StopReason)),
		UsageMetadata: f.usage(m.Usage.InputTokens, m.Usage.OutputTokens, m.Usage.CacheReadInputTokens, m.Usage.CacheCreationInputTokens),
		Content:       &v1.Content{Role: roleModel},
	}
	if f == liteLLM {
		out.ModelVersion = string(m.Model)
		out.Partial = boolPtr(false)
	}
	var text strings.Builder
	var calls []*v1.Part
	for _, blk := range m.Content {
		switch blk.Type {
		case "text":
			if f == claude {
				out.Content.Parts = append(out.Content.Parts, &v1.Part{Text: blk.Text})
				continue
			}
			text.WriteString(blk.Text)
		case "thinking":
			if f == claude {
				out.Content.Parts = append(out.Content.Parts, &v1.Part{Text: blk.Thinking, Thought: true, ThoughtSignature: []byte(blk.Signature)})
			}
		case "redacted_thinking":
			if f == claude {
				out.Content.Parts = append(out.Content.Parts, &v1.Part{Thought: true, ThoughtSignature: []byte(blk.Data)})
			}
		case "tool_use":
			if f == liteLLM && schemaTool && blk.Name == jsonToolName {
				v, err := jsonValue(blk.Input)
				if err != nil {
					return nil, err
				}
				text.WriteString(pyfmt.JSONDumps(v))
				continue
			}
			p, err := callPart(blk.ID, blk.Name, blk.Input)
			if err != nil {
				return nil, err
			}
			if f == claude {
				out.Content.Parts = append(out.Content.Parts, p)
				continue
			}
			calls = append(calls, p)
		}
	}
	if text.Len() > 0 {
		out.Content.Parts = append(out.Content.Parts, &v1.Part{Text: text.String()})
	}
	out.Content.Parts = append(out.Content.Parts, calls...)
	return out, nil
}

// callPart is a function call of a tool_use block, its input a JSON object.
func callPart(id, name string, input json.RawMessage) (*v1.Part, error) {
	args := &structpb.Struct{}
	if len(input) > 0 && string(input) != "null" {
		m := map[string]any{}
		if err := json.Unmarshal(input, &m); err != nil {
			return nil, fmt.Errorf("tool_use %q input: %w", name, err)
		}
		s, err := structpb.NewStruct(m)
		if err != nil {
			return nil, fmt.Errorf("tool_use %q input: %w", name, err)
		}
		args = s
	}
	return &v1.Part{FunctionCall: &v1.FunctionCall{Id: id, Name: name, Args: args}}, nil
}

func jsonValue(raw json.RawMessage) (*structpb.Value, error) {
	var v any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, err
		}
	}
	return structpb.NewValue(v)
}

func boolPtr(b bool) *bool { return &b }
