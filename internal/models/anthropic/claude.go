package anthropic

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

const (
	// claudeDefaultMaxTokens is the max_tokens of ADK's Claude class.
	claudeDefaultMaxTokens = 8192
	// claudeVertexVersion is the anthropic_version the anthropic Python SDK
	// (2.14) puts in the body of Vertex AI requests; the Go SDK's default
	// would apply only when none is set.
	claudeVertexVersion = "2026-10-21"
)

// claudeResourceModel finds the model id in a Vertex AI resource path, as
// ADK's Claude resolves it.
var claudeResourceModel = regexp.MustCompile(`projects/[^/]+/locations/[^/]+/(?:publishers/anthropic/models|endpoints)/([^/:]+)`)

// claudeToolID is the form of a tool_use id Claude accepts.
var claudeToolID = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)

// claudeModelName returns the model id of name, resolving a resource path.
func claudeModelName(name string) string {
	if strings.HasPrefix(name, "projects/") {
		if m := claudeResourceModel.FindStringSubmatch(name); m != nil {
			return m[1]
		}
	}
	return name
}

// toolIDs gives ids Claude refuses (empty ones included) a stable
// "toolu_fallback_<n>" for the conversation, so that a call and its
// response keep matching, as ADK's Claude does.
type toolIDs map[string]string

func (t toolIDs) sanitize(id string) string {
	if claudeToolID.MatchString(id) {
		return id
	}
	if s, ok := t[id]; ok {
		return s
	}
	s := "toolu_fallback_" + strconv.Itoa(len(t))
	t[id] = s
	return s
}

// claudeRequest builds the body ADK's Claude class sends for req (the
// Vertex AI SDK option then moves the model into the URL): its own
// conversion of the contents, every turn kept as is, the system
// instruction as a string, tool_choice auto with tools, and max_tokens
// from the class (8192 by default).
func claudeRequest(model string, a Args, req *v1.LlmRequest) (*body, error) {
	cfg := req.GetConfig()
	b := &body{Model: claudeModelName(model), MaxTokens: claudeDefaultMaxTokens, AnthropicVersion: claudeVertexVersion,
		headers: map[string]string{}}
	if req.GetModel() != "" {
		b.Model = claudeModelName(req.GetModel())
	}
	if a.MaxTokens != nil {
		b.MaxTokens = *a.MaxTokens
	}
	b.System = json.RawMessage("null")
	if si := cfg.GetSystemInstruction(); si != "" {
		b.System, _ = json.Marshal(si)
	}
	ids := toolIDs{}
	b.Messages = make([]message, 0, len(req.GetContents()))
	for _, c := range req.GetContents() {
		if c == nil {
			continue
		}
		m := message{Role: roleUser, Content: []map[string]any{}}
		if c.GetRole() == roleModel || c.GetRole() == roleAssistant {
			m.Role = roleAssistant
		}
		for _, p := range c.GetParts() {
			if p == nil || m.Role == roleAssistant && p.GetInlineData() != nil && claudeMedia(p.GetInlineData()) {
				continue
			}
			blk, err := claudeBlock(p, ids)
			if err != nil {
				return nil, err
			}
			m.Content = append(m.Content, blk)
		}
		b.Messages = append(b.Messages, m)
	}
	for _, d := range functionDeclarations(cfg) {
		b.Tools = append(b.Tools, map[string]any{"name": d.GetName(), "description": d.GetDescription(), "input_schema": inputSchema(d)})
	}
	if len(b.Tools) > 0 {
		b.ToolChoice = map[string]any{"type": "auto"}
	}
	if tc := cfg.GetThinkingConfig(); tc != nil {
		// ADK's mapping of a thinking budget: 0 disables thinking, a
		// negative one is adaptive, a positive one the budget.
		switch {
		case tc.ThinkingBudget == nil:
			return nil, errors.New("thinking_budget must be set explicitly when ThinkingConfig is provided for Anthropic models")
		case tc.GetThinkingBudget() == 0:
			b.Thinking = map[string]any{"type": "disabled"}
		case tc.GetThinkingBudget() < 0:
			b.Thinking = map[string]any{"type": "adaptive"}
		default:
			b.Thinking = map[string]any{"type": "enabled", "budget_tokens": tc.GetThinkingBudget()}
		}
	}
	return b, nil
}

// claudeMedia reports whether b is an image or a PDF, which Claude takes
// from users only.
func claudeMedia(b *v1.Blob) bool {
	return isImage(b) || strings.TrimSpace(strings.Split(b.GetMimeType(), ";")[0]) == "application/pdf"
}

// claudeBlock converts one part as ADK's Claude does.
func claudeBlock(p *v1.Part, ids toolIDs) (map[string]any, error) {
	switch {
	case p.GetThought() && p.GetText() != "":
		return map[string]any{"type": "thinking", "thinking": p.GetText(), "signature": string(p.GetThoughtSignature())}, nil
	case p.GetThought() && len(p.GetThoughtSignature()) > 0:
		return map[string]any{"type": "redacted_thinking", "data": string(p.GetThoughtSignature())}, nil
	case p.GetText() != "":
		return textBlock(p.GetText()), nil
	case p.GetFunctionCall() != nil:
		fc := p.GetFunctionCall()
		var input any
		if fc.GetArgs() != nil {
			input = fc.GetArgs().AsMap()
		}
		return toolUseBlock(ids.sanitize(models.ModelID(fc.GetId())), fc.GetName(), input), nil
	case p.GetFunctionResponse() != nil:
		fr := p.GetFunctionResponse()
		return map[string]any{"type": "tool_result", "tool_use_id": ids.sanitize(models.ModelID(fr.GetId())),
			"content": claudeToolResult(fr.GetResponse()), "is_error": false}, nil
	case isImage(p.GetInlineData()):
		return imageBlock(p.GetInlineData()), nil
	case p.GetInlineData() != nil && claudeMedia(p.GetInlineData()):
		blk := imageBlock(p.GetInlineData())
		blk["type"] = "document"
		return blk, nil
	case p.GetExecutableCode() != nil:
		return textBlock("Code:```python\n" + p.GetExecutableCode().GetCode() + "\n```"), nil
	case p.GetCodeExecutionResult() != nil:
		return textBlock("Execution Result:```code_output\n" + p.GetCodeExecutionResult().GetOutput() + "\n```"), nil
	}
	return nil, fmt.Errorf("unsupported part for Claude: %s", describePart(p))
}

// claudeToolResult is the text ADK's Claude sends for a function response:
// the texts of a non-empty "content" list joined by newlines, a non-empty
// "content" string, json.dumps of "result" (or its text), else json.dumps
// of the whole response; "" for an empty one.
func claudeToolResult(r *structpb.Struct) string {
	f := r.GetFields()
	if list := f["content"].GetListValue(); len(list.GetValues()) > 0 {
		items := make([]string, 0, len(list.GetValues()))
		for _, v := range list.GetValues() {
			if s := v.GetStructValue(); s != nil && s.GetFields()["type"].GetStringValue() == "text" && s.GetFields()["text"] != nil {
				items = append(items, pyText(s.GetFields()["text"]))
				continue
			}
			items = append(items, pyfmt.Repr(v))
		}
		return strings.Join(items, "\n")
	}
	if s := f["content"].GetStringValue(); s != "" {
		return s
	}
	if res, ok := f["result"]; ok && !isNull(res) {
		if res.GetStructValue() != nil || res.GetListValue() != nil {
			return pyfmt.JSONDumpsASCII(res)
		}
		return pyText(res)
	}
	if len(f) > 0 {
		return pyfmt.JSONDumpsASCII(structpb.NewStructValue(r))
	}
	return ""
}

func isNull(v *structpb.Value) bool {
	_, ok := v.GetKind().(*structpb.Value_NullValue)
	return ok
}

// pyText is str() of a JSON value in Python.
func pyText(v *structpb.Value) string { return pyfmt.Str(v) }

func describePart(p *v1.Part) string {
	if b := p.GetInlineData(); b != nil {
		return b.GetMimeType() + " data"
	}
	if f := p.GetFileData(); f != nil {
		return "file " + f.GetMimeType()
	}
	return "empty part"
}
