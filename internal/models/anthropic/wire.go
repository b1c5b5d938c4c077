package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// body is a Messages API request as the adapter sends it. Blocks and tools
// are JSON objects, so that each flavour writes exactly the keys its
// Python counterpart writes.
type body struct {
	Model string `json:"model"`
	// System is LiteLLM's list of text blocks or the Claude class's
	// string (null when the agent has no instruction); nil leaves it out.
	System        json.RawMessage  `json:"system,omitempty"`
	Messages      []message        `json:"messages"`
	Tools         []map[string]any `json:"tools,omitempty"`
	ToolChoice    map[string]any   `json:"tool_choice,omitempty"`
	OutputFormat  map[string]any   `json:"output_format,omitempty"`
	Thinking      map[string]any   `json:"thinking,omitempty"`
	MaxTokens     int64            `json:"max_tokens"`
	Temperature   *float64         `json:"temperature,omitempty"`
	TopP          *float64         `json:"top_p,omitempty"`
	TopK          *int64           `json:"top_k,omitempty"`
	StopSequences []string         `json:"stop_sequences,omitempty"`
	// AnthropicVersion is the API version Vertex AI reads from the body.
	AnthropicVersion string `json:"anthropic_version,omitempty"`

	// headers are sent with the request (not in the body).
	headers map[string]string
}

// message is one turn of the conversation.
type message struct {
	Role    string           `json:"role"`
	Content []map[string]any `json:"content"`
}

// The roles of the Messages API.
const (
	roleUser      = "user"
	roleAssistant = "assistant"
	roleModel     = "model"
)

func textBlock(text string) map[string]any { return map[string]any{"type": "text", "text": text} }

func toolUseBlock(id, name string, input any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}

// imageBlock is an inline image, as both flavours send it.
func imageBlock(b *v1.Blob) map[string]any {
	return map[string]any{"type": "image", "source": map[string]any{
		"type": "base64", "media_type": b.GetMimeType(), "data": base64.StdEncoding.EncodeToString(b.GetData()),
	}}
}

func isImage(b *v1.Blob) bool { return b != nil && strings.HasPrefix(b.GetMimeType(), "image/") }

// args returns a call's arguments as a JSON object: an empty object for
// none, as Python's json.loads("{}") gives.
func args(s *structpb.Struct) map[string]any {
	if s == nil {
		return map[string]any{}
	}
	return s.AsMap()
}

// lowercaseTypes returns a copy of a JSON schema with every "type" name
// in lower case, as both flavours send schemas written for Gemini.
func lowercaseTypes(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if s, ok := e.(string); ok && k == "type" {
				out[k] = strings.ToLower(s)
				continue
			}
			out[k] = lowercaseTypes(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = lowercaseTypes(e)
		}
		return out
	}
	return v
}

// functionDeclarations returns the declarations of the first tool, the
// only one ADK's LiteLlm and Claude read.
func functionDeclarations(cfg *v1.GenerateContentConfig) []*v1.FunctionDeclaration {
	tools := cfg.GetTools()
	if len(tools) == 0 {
		return nil
	}
	return tools[0].GetFunctionDeclarations()
}

// inputSchema returns a declaration's arguments schema as both flavours
// build it: {"type":"object","properties":{...}} with "required" when
// there is one, or the declared JSON schema as written.
func inputSchema(d *v1.FunctionDeclaration) map[string]any {
	params := d.GetParameters().AsMap()
	if props, ok := params["properties"].(map[string]any); ok && len(props) > 0 {
		out := map[string]any{"type": "object", "properties": lowercaseTypes(props)}
		if req, ok := params["required"].([]any); ok && len(req) > 0 {
			out["required"] = req
		}
		return out
	}
	if js, ok := d.GetParametersJsonSchema().AsInterface().(map[string]any); ok && len(js) > 0 {
		if m, ok := lowercaseTypes(js).(map[string]any); ok {
			return m
		}
	}
	return map[string]any{"type": "object", "properties": map[string]any{}}
}
