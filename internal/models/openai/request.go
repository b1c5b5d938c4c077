package openai

import (
	"encoding/base64"
	"fmt"
	"mime"
	"path"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// missingToolResult is the content ADK's LiteLlm gives a tool call whose
// result is missing from the history.
const missingToolResult = "Error: Missing tool result (tool execution may have been interrupted before a response was recorded)."

// object is a JSON object of the request body.
type object = map[string]any

// requestBody builds the Chat Completions body of req as ADK's LiteLlm and
// LiteLLM send it: the system instruction first, the history as messages,
// the first tool's function declarations, the response schema as a strict
// json_schema response format, the generation parameters and the
// arguments of the model's declaration. fileIDs tells whether the provider
// takes files by id only (OpenAI and Azure).
func requestBody(req *v1.LlmRequest, model string, extra map[string]any, fileIDs bool) (object, error) {
	msgs, err := messages(req, fileIDs)
	if err != nil {
		return nil, err
	}
	body := object{"model": model}
	for k, v := range extra {
		body[k] = v
	}
	body["messages"] = msgs
	cfg := req.GetConfig()
	if tools := toolParams(cfg.GetTools()); tools != nil {
		body["tools"] = tools
	}
	if rs := cfg.GetResponseSchema(); rs != nil {
		body["response_format"] = responseFormat(rs)
	}
	generationParams(cfg, body)
	return body, nil
}

// generationParams sets the fields LiteLlm takes from the generate config;
// they replace the declaration's arguments of the same name.
func generationParams(cfg *v1.GenerateContentConfig, body object) {
	if cfg == nil {
		return
	}
	if cfg.Temperature != nil {
		body["temperature"] = cfg.GetTemperature()
	}
	if cfg.MaxOutputTokens != nil {
		body["max_completion_tokens"] = cfg.GetMaxOutputTokens()
	}
	if cfg.TopP != nil {
		body["top_p"] = cfg.GetTopP()
	}
	if len(cfg.GetStopSequences()) > 0 {
		body["stop"] = cfg.GetStopSequences()
	}
	if cfg.PresencePenalty != nil {
		body["presence_penalty"] = cfg.GetPresencePenalty()
	}
	if cfg.FrequencyPenalty != nil {
		body["frequency_penalty"] = cfg.GetFrequencyPenalty()
	}
}

// contents returns the conversation as ADK's BaseLlm and LiteLlm complete
// it: a user turn appended when it is empty or does not end with one, and
// a text added to the last user turn when it carries nothing to answer.
func contents(req *v1.LlmRequest) []*v1.Content {
	var src []*v1.Content
	for _, c := range req.GetContents() {
		if c != nil {
			src = append(src, c)
		}
	}
	switch {
	case len(src) == 0:
		return []*v1.Content{userText(models.EmptyContentsText)}
	case src[len(src)-1].GetRole() != "user":
		src = append(src, userText(models.ContinueTurnText))
	}
	for i := len(src) - 1; i >= 0; i-- {
		if src[i].GetRole() != "user" {
			continue
		}
		for _, p := range src[i].GetParts() {
			if hasPayload(p) {
				return src
			}
		}
		c := &v1.Content{Role: "user", Parts: append(append([]*v1.Part(nil), src[i].GetParts()...), &v1.Part{Text: models.EmptyContentsText})}
		src = append(src[:i:i], append([]*v1.Content{c}, src[i+1:]...)...)
		return src
	}
	return src
}

func userText(s string) *v1.Content {
	return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: s}}}
}

// hasPayload reports whether a part gives the model something to answer.
func hasPayload(p *v1.Part) bool {
	return p.GetText() != "" || len(p.GetInlineData().GetData()) > 0 || p.GetFileData().GetFileUri() != "" ||
		p.GetFunctionResponse() != nil
}

// messages converts the system instruction and the conversation, then
// gives every tool call without a result a placeholder result.
func messages(req *v1.LlmRequest, fileIDs bool) ([]object, error) {
	var out []object
	if si := req.GetConfig().GetSystemInstruction(); si != "" {
		out = append(out, object{"role": "system", "content": si})
	}
	for _, c := range contents(req) {
		msgs, err := contentMessages(c, fileIDs)
		if err != nil {
			return nil, err
		}
		out = append(out, msgs...)
	}
	return withToolResults(out), nil
}

// contentMessages converts one content: its function responses as "tool"
// messages, then the rest as one user or assistant message.
func contentMessages(c *v1.Content, fileIDs bool) ([]object, error) {
	var out []object
	var rest []*v1.Part
	for _, p := range c.GetParts() {
		if p == nil {
			continue
		}
		if fr := p.GetFunctionResponse(); fr != nil {
			out = append(out, object{"role": "tool", "tool_call_id": models.ModelID(fr.GetId()),
				"content": pyfmt.JSONDumps(structpb.NewStructValue(orEmpty(fr.GetResponse())))})
			continue
		}
		rest = append(rest, p)
	}
	if len(out) > 0 && len(rest) == 0 {
		return out, nil
	}
	if c.GetRole() != "model" && c.GetRole() != "assistant" {
		var user []*v1.Part
		for _, p := range rest {
			if !p.GetThought() {
				user = append(user, p)
			}
		}
		content, err := messageContent(user, fileIDs)
		if err != nil {
			return nil, err
		}
		return append(out, object{"role": "user", "content": content}), nil
	}
	msg, err := assistantMessage(rest, fileIDs)
	if err != nil {
		return nil, err
	}
	return append(out, msg), nil
}

func orEmpty(s *structpb.Struct) *structpb.Struct {
	if s == nil {
		return &structpb.Struct{}
	}
	return s
}

// assistantMessage converts a model turn: calls as tool_calls, thoughts as
// reasoning_content, the rest as content (its first text alone when it
// starts with text, as ADK does for providers that take only a string).
func assistantMessage(parts []*v1.Part, fileIDs bool) (object, error) {
	msg := object{"role": "assistant"}
	var calls []object
	var content []*v1.Part
	var reasoning []string
	for _, p := range parts {
		switch {
		case p.GetFunctionCall() != nil:
			fc := p.GetFunctionCall()
			calls = append(calls, object{"type": "function", "id": models.ModelID(fc.GetId()),
				"function": object{"name": fc.GetName(), "arguments": pyfmt.JSONDumps(structpb.NewStructValue(orEmpty(fc.GetArgs())))}})
		case p.GetThought():
			if p.GetText() != "" {
				reasoning = append(reasoning, p.GetText())
			}
		default:
			content = append(content, p)
		}
	}
	if len(content) > 0 {
		c, err := messageContent(content, fileIDs)
		if err != nil {
			return nil, err
		}
		if list, ok := c.([]object); ok && len(list) > 0 && list[0]["type"] == "text" {
			c = list[0]["text"]
		}
		if c != nil {
			msg["content"] = c
		}
	}
	if len(calls) > 0 {
		msg["tool_calls"] = calls
	}
	if len(reasoning) > 0 {
		msg["reasoning_content"] = strings.Join(reasoning, "\n")
	}
	return msg, nil
}

// messageContent converts parts into a message's content: one text part
// as a string, else a list of content parts; nil when there is nothing.
func messageContent(parts []*v1.Part, fileIDs bool) (any, error) {
	if len(parts) == 1 {
		p := parts[0]
		if p.GetText() != "" {
			return p.GetText(), nil
		}
		if b := p.GetInlineData(); len(b.GetData()) > 0 && strings.HasPrefix(normalMIME(b.GetMimeType()), "text/") {
			return decodeText(b.GetData()), nil
		}
	}
	var out []object
	for _, p := range parts {
		o, err := contentPart(p, fileIDs)
		if err != nil {
			return nil, err
		}
		if o != nil {
			out = append(out, o)
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// contentPart converts one part of a multimodal message, nil for a part
// that carries nothing LiteLlm sends.
func contentPart(p *v1.Part, fileIDs bool) (object, error) {
	if p.GetText() != "" {
		return object{"type": "text", "text": p.GetText()}, nil
	}
	if b := p.GetInlineData(); len(b.GetData()) > 0 && b.GetMimeType() != "" {
		return inlinePart(b, fileIDs)
	}
	if f := p.GetFileData(); f.GetFileUri() != "" {
		return filePart(f, fileIDs), nil
	}
	return nil, nil
}

// fileContentTypes are the document types sent as files.
var fileContentTypes = map[string]bool{
	"application/pdf": true, "application/msword": true, "application/json": true, "application/x-sh": true,
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document":   true,
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": true,
}

func inlinePart(b *v1.Blob, fileIDs bool) (object, error) {
	mt := normalMIME(b.GetMimeType())
	if strings.HasPrefix(mt, "text/") {
		return object{"type": "text", "text": decodeText(b.GetData())}, nil
	}
	data := base64.StdEncoding.EncodeToString(b.GetData())
	major, sub, _ := strings.Cut(mt, "/")
	switch {
	case major == "audio":
		return object{"type": "input_audio", "input_audio": object{"data": data, "format": audioFormat(sub)}}, nil
	case major == "image" || major == "video":
		kind := major + "_url"
		return object{"type": kind, kind: object{"url": "data:" + mt + ";base64," + data}}, nil
	case fileContentTypes[mt] && fileIDs:
		// ADK uploads the file to the provider's Files API first.
		return nil, fmt.Errorf("inline %s data: uploading files to the provider is not supported", mt)
	case fileContentTypes[mt]:
		return object{"type": "file", "file": object{"file_data": "data:" + mt + ";base64," + data}}, nil
	}
	return nil, fmt.Errorf("LiteLlm(BaseLlm) does not support content part with MIME type %s.", b.GetMimeType()) //nolint:staticcheck // ST1005: ADK's message, word for word.
}

func filePart(f *v1.FileData, fileIDs bool) object {
	uri := f.GetFileUri()
	if fileIDs && strings.HasPrefix(uri, "file-") {
		return object{"type": "file", "file": object{"file_id": uri}}
	}
	mt := f.GetMimeType()
	if mt == "" {
		mt = mime.TypeByExtension(path.Ext(strings.SplitN(uri, "?", 2)[0]))
	}
	if mt == "" && f.GetDisplayName() != "" {
		mt = mime.TypeByExtension(path.Ext(f.GetDisplayName()))
	}
	if mt == "" {
		mt = "application/octet-stream"
	}
	mt = normalMIME(mt)
	if fileIDs {
		if major, _, _ := strings.Cut(mt, "/"); (major == "image" || major == "video") &&
			(strings.HasPrefix(uri, "http://") || strings.HasPrefix(uri, "https://")) {
			kind := major + "_url"
			return object{"type": kind, kind: object{"url": uri}}
		}
		id := f.GetDisplayName()
		if id == "" {
			id = uri
		}
		return object{"type": "text", "text": `[File reference: "` + id + `"]`}
	}
	return object{"type": "file", "file": object{"file_id": uri, "format": mt}}
}

func normalMIME(mt string) string {
	mt, _, _ = strings.Cut(mt, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

func audioFormat(sub string) string {
	sub = strings.TrimPrefix(sub, "x-")
	switch sub {
	case "mpeg":
		return "mp3"
	case "wave", "vnd.wave":
		return "wav"
	}
	return sub
}

// decodeText decodes text data as UTF-8, else as Latin-1.
func decodeText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// withToolResults adds a placeholder "tool" message for every tool call
// not answered before the next message that is not a tool result, as ADK
// does so that the provider accepts the history.
func withToolResults(msgs []object) []object {
	out := make([]object, 0, len(msgs))
	var pending []string
	flush := func() {
		for _, id := range pending {
			out = append(out, object{"role": "tool", "tool_call_id": id, "content": missingToolResult})
		}
		pending = nil
	}
	for _, m := range msgs {
		role := m["role"]
		if len(pending) > 0 && role != "tool" {
			flush()
		}
		switch role {
		case "assistant":
			calls, _ := m["tool_calls"].([]object)
			for _, c := range calls {
				if id, _ := c["id"].(string); id != "" {
					pending = append(pending, id)
				}
			}
		case "tool":
			id, _ := m["tool_call_id"].(string)
			for i, p := range pending {
				if p == id {
					pending = append(pending[:i], pending[i+1:]...)
					break
				}
			}
		}
		out = append(out, m)
	}
	flush()
	return out
}
