package anthropic

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// LiteLLM's defaults for Anthropic models: the output limit it knows for
// the model, else 4096 (DEFAULT_ANTHROPIC_CHAT_MAX_TOKENS).
const liteLLMDefaultMaxTokens = 4096

// liteLLMMaxTokens are the output limits of LiteLLM's model table that it
// sends as max_tokens when nothing else sets them.
var liteLLMMaxTokens = map[string]int64{
	"claude-3-7-sonnet-20250219": 64000,
	"claude-3-haiku-20240307":    4096,
	"claude-3-opus-20240229":     4096,
	"claude-4-opus-20250514":     32000,
	"claude-4-sonnet-20250514":   64000,
	"claude-haiku-4-5":           64000,
	"claude-haiku-4-5-20251001":  64000,
	"claude-opus-4-1":            32000,
	"claude-opus-4-1-20250805":   32000,
	"claude-opus-4-20250514":     32000,
	"claude-opus-4-5":            64000,
	"claude-opus-4-5-20251101":   64000,
	"claude-opus-4-6":            128000,
	"claude-opus-4-6-20260205":   128000,
	"claude-opus-4-7":            128000,
	"claude-opus-4-7-20260416":   128000,
	"claude-sonnet-4-20250514":   64000,
	"claude-sonnet-4-5":          64000,
	"claude-sonnet-4-5-20250929": 64000,
	"claude-sonnet-4-6":          64000,
}

// liteLLMNativeSchemaModels name the models LiteLLM sends a response schema
// to as output_format (with its beta header); the others get it as the
// forced tool json_tool_call.
var liteLLMNativeSchemaModels = []string{"sonnet-4.5", "sonnet-4-5", "opus-4.1", "opus-4-1", "opus-4.5",
	"opus-4-5", "opus-4.6", "opus-4-6", "opus-4.7", "opus-4-7", "sonnet-4.6", "sonnet-4-6", "sonnet_4.6", "sonnet_4_6"}

const (
	structuredOutputsBeta = "structured-outputs-2025-11-13"
	// jsonToolName is LiteLLM's RESPONSE_FORMAT_TOOL_NAME.
	jsonToolName = "json_tool_call"
)

// liteLLMRequest builds the body ADK's LiteLlm and LiteLLM send for req:
// ADK turns the contents into OpenAI chat messages and LiteLLM those into
// Anthropic turns, merging consecutive turns of one role.
func liteLLMRequest(model string, a Args, req *v1.LlmRequest) (*body, error) {
	cfg := req.GetConfig()
	b := &body{Model: model, headers: map[string]string{}}
	maps.Copy(b.headers, a.ExtraHeaders)
	if si := cfg.GetSystemInstruction(); si != "" {
		b.System, _ = json.Marshal([]map[string]any{textBlock(si)})
	}
	msgs, err := liteLLMMessages(req.GetContents())
	if err != nil {
		return nil, err
	}
	b.Messages = msgs
	for _, d := range functionDeclarations(cfg) {
		schema := inputSchema(d)
		for k := range schema {
			if !slices.Contains([]string{"type", "properties", "additionalProperties", "required", "$defs", "strict"}, k) {
				delete(schema, k)
			}
		}
		b.Tools = append(b.Tools, map[string]any{"name": d.GetName(), "description": d.GetDescription(),
			"input_schema": schema, "type": "custom"})
	}
	if rs := cfg.GetResponseSchema(); rs != nil {
		liteLLMSchema(b, model, rs)
	}
	liteLLMSampling(b, model, a, cfg)
	return b, nil
}

// liteLLMSampling sets max_tokens and the sampling parameters: the
// request's generation config wins over the model's args.
func liteLLMSampling(b *body, model string, a Args, cfg *v1.GenerateContentConfig) {
	if cfg == nil {
		cfg = &v1.GenerateContentConfig{}
	}
	b.MaxTokens = liteLLMDefaultMaxTokens
	if n, ok := liteLLMMaxTokens[model]; ok {
		b.MaxTokens = n
	}
	if a.MaxTokens != nil {
		b.MaxTokens = *a.MaxTokens
	}
	if cfg.MaxOutputTokens != nil {
		b.MaxTokens = int64(cfg.GetMaxOutputTokens())
	}
	b.Temperature, b.TopP, b.TopK, b.StopSequences = a.Temperature, a.TopP, a.TopK, a.Stop
	if cfg.Temperature != nil {
		t := float64(cfg.GetTemperature())
		b.Temperature = &t
	}
	if cfg.TopP != nil {
		p := float64(cfg.GetTopP())
		b.TopP = &p
	}
	if cfg.TopK != nil {
		k := int64(cfg.GetTopK())
		b.TopK = &k
	}
	if s := cfg.GetStopSequences(); len(s) > 0 {
		b.StopSequences = s
	}
}

// liteLLMSchema adds a response schema: ADK makes it strict (every object
// closed, every property required), LiteLLM sends it as output_format to
// models that support it and as a forced tool to the others.
func liteLLMSchema(b *body, model string, rs *structpb.Struct) {
	schema, _ := lowercaseTypes(rs.AsMap()).(map[string]any)
	strictSchema(schema)
	if slices.ContainsFunc(liteLLMNativeSchemaModels, func(s string) bool { return strings.Contains(model, s) }) {
		b.OutputFormat = map[string]any{"type": "json_schema", "schema": outputFormatSchema(schema)}
		b.headers["anthropic-beta"] = structuredOutputsBeta
		return
	}
	input := map[string]any{"type": "object"}
	maps.Copy(input, schema)
	b.Tools = append(b.Tools, map[string]any{"name": jsonToolName, "input_schema": input})
	b.ToolChoice = map[string]any{"name": jsonToolName, "type": "tool"}
}

// strictSchema closes every object of s that lists properties and requires
// them all (sorted), as ADK prepares a schema for strict structured output.
func strictSchema(s map[string]any) {
	if _, ref := s["$ref"]; ref {
		for k := range s {
			if k != "$ref" {
				delete(s, k)
			}
		}
		return
	}
	props, _ := s["properties"].(map[string]any)
	if s["type"] == "object" && props != nil {
		s["additionalProperties"] = false
		keys := slices.Sorted(maps.Keys(props))
		req := make([]any, len(keys))
		for i, k := range keys {
			req[i] = k
		}
		s["required"] = req
	}
	if defs, ok := s["$defs"].(map[string]any); ok {
		for _, d := range defs {
			if m, ok := d.(map[string]any); ok {
				strictSchema(m)
			}
		}
	}
	for _, p := range props {
		if m, ok := p.(map[string]any); ok {
			strictSchema(m)
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		items, _ := s[key].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				strictSchema(m)
			}
		}
	}
	if m, ok := s["items"].(map[string]any); ok {
		strictSchema(m)
	}
}

// unsupportedOutputKeys are the constraints Anthropic's output_format
// refuses; LiteLLM moves them into the description.
var unsupportedOutputKeys = []struct{ key, label string }{
	{"maxItems", "maximum number of items"}, {"minItems", "minimum number of items"},
	{"minimum", "minimum value"}, {"maximum", "maximum value"},
	{"exclusiveMinimum", "exclusive minimum value"}, {"exclusiveMaximum", "exclusive maximum value"},
	{"minLength", "minimum length"}, {"maxLength", "maximum length"},
}

// outputFormatSchema returns s without the constraints output_format
// refuses, noted in its description, and with objects closed.
func outputFormatSchema(s map[string]any) map[string]any {
	out := make(map[string]any, len(s))
	var notes []string
	for _, u := range unsupportedOutputKeys {
		if v, ok := s[u.key]; ok {
			notes = append(notes, u.label+": "+pyfmt.JSONDumps(structValue(v)))
		}
	}
	for k, v := range s {
		if slices.ContainsFunc(unsupportedOutputKeys, func(u struct{ key, label string }) bool { return u.key == k }) {
			continue
		}
		out[k] = v
		switch k {
		case "properties", "$defs":
			if m, ok := v.(map[string]any); ok {
				sub := make(map[string]any, len(m))
				for name, e := range m {
					sub[name] = outputFormatSubschema(e)
				}
				out[k] = sub
			}
		case "items":
			out[k] = outputFormatSubschema(v)
		case "anyOf", "allOf", "oneOf":
			if list, ok := v.([]any); ok {
				sub := make([]any, len(list))
				for i, e := range list {
					sub[i] = outputFormatSubschema(e)
				}
				out[k] = sub
			}
		}
	}
	if len(notes) > 0 {
		note := "Note: " + strings.Join(notes, ", ") + "."
		if d, ok := s["description"].(string); ok && d != "" {
			note = d + " " + note
		}
		out["description"] = note
	}
	if _, ok := out["additionalProperties"]; out["type"] == "object" && !ok {
		out["additionalProperties"] = false
	}
	return out
}

// outputFormatSubschema filters v when it is a schema object.
func outputFormatSubschema(v any) any {
	if m, ok := v.(map[string]any); ok {
		return outputFormatSchema(m)
	}
	return v
}

func structValue(v any) *structpb.Value {
	sv, err := structpb.NewValue(v)
	if err != nil {
		return structpb.NewNullValue()
	}
	return sv
}

// liteLLMMessages converts the conversation: function responses become
// tool_result blocks (the response as Python's json.dumps writes it) in a
// user turn, function calls tool_use blocks after the turn's text, thought
// parts are left out, and consecutive turns of one role are merged. A
// conversation without a user turn that has content gets ADK's fallback
// user text.
func liteLLMMessages(contents []*v1.Content) ([]message, error) {
	contents = withUserTurn(contents)
	var out []message
	add := func(role string, blocks []map[string]any) {
		if len(blocks) == 0 {
			return
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			return
		}
		out = append(out, message{Role: role, Content: blocks})
	}
	for _, c := range contents {
		var results, blocks, calls []map[string]any
		for _, p := range c.GetParts() {
			switch {
			case p == nil || p.GetThought():
			case p.GetFunctionResponse() != nil:
				fr := p.GetFunctionResponse()
				results = append(results, map[string]any{"type": "tool_result", "tool_use_id": models.ModelID(fr.GetId()),
					"content": pyfmt.JSONDumps(structpb.NewStructValue(orEmpty(fr.GetResponse())))})
			case p.GetFunctionCall() != nil:
				fc := p.GetFunctionCall()
				calls = append(calls, toolUseBlock(models.ModelID(fc.GetId()), fc.GetName(), args(fc.GetArgs())))
			case p.GetText() != "":
				blocks = append(blocks, textBlock(p.GetText()))
			case isImage(p.GetInlineData()):
				blocks = append(blocks, imageBlock(p.GetInlineData()))
			case p.GetInlineData() != nil || p.GetFileData() != nil:
				return nil, fmt.Errorf("unsupported part: %s data", partMIME(p))
			}
		}
		add(roleUser, results)
		if c.GetRole() == roleModel || c.GetRole() == roleAssistant {
			add(roleAssistant, append(blocks, calls...))
			continue
		}
		add(roleUser, blocks)
	}
	return out, nil
}

// withUserTurn returns contents with the user text ADK's BaseLlm and
// LiteLlm add: "continue" after a conversation that does not end with the
// user, "handle the requests" when no user turn carries anything.
func withUserTurn(contents []*v1.Content) []*v1.Content {
	if n := len(contents); n > 0 && contents[n-1].GetRole() != roleUser {
		contents = append(slices.Clip(contents), &v1.Content{Role: roleUser, Parts: []*v1.Part{{Text: models.ContinueTurnText}}})
	}
	for i := len(contents) - 1; i >= 0; i-- {
		c := contents[i]
		if c.GetRole() != roleUser {
			continue
		}
		if slices.ContainsFunc(c.GetParts(), hasPayload) {
			return contents
		}
		out := slices.Clone(contents)
		out[i] = &v1.Content{Role: roleUser, Parts: append(slices.Clip(c.GetParts()), &v1.Part{Text: models.EmptyContentsText})}
		return out
	}
	return append(slices.Clip(contents), &v1.Content{Role: roleUser, Parts: []*v1.Part{{Text: models.EmptyContentsText}}})
}

// hasPayload reports whether a part carries something to send.
func hasPayload(p *v1.Part) bool {
	return p.GetText() != "" || p.GetInlineData() != nil || p.GetFileData() != nil || p.GetFunctionCall() != nil ||
		p.GetFunctionResponse() != nil || p.GetExecutableCode() != nil || p.GetCodeExecutionResult() != nil
}

func partMIME(p *v1.Part) string {
	if b := p.GetInlineData(); b != nil {
		return b.GetMimeType()
	}
	return p.GetFileData().GetMimeType()
}

func orEmpty(s *structpb.Struct) *structpb.Struct {
	if s == nil {
		return &structpb.Struct{}
	}
	return s
}
