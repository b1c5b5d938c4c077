package gemini

import (
	"maps"
	"slices"
	"strconv"

	"google.golang.org/genai"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
)

// appendBody appends the JSON body of a generateContent call for req,
// whose config cfg is the converted one, byte for byte as the SDK writes
// it (see wirejson.go): the contents come straight from req, the config
// from cfg. It reports false for a request it does not write (a
// server-side tool, a context cache, a value JSON cannot hold), which the
// SDK's own path then sends.
func (rc requestConverter) appendBody(dst []byte, req *v1.LlmRequest, cfg *genai.GenerateContentConfig) ([]byte, bool) {
	if cfg.CachedContent != "" || cfg.HTTPOptions != nil {
		return dst, false
	}
	var ok bool
	// Keys in sorted order: contents, generationConfig, labels,
	// safetySettings, systemInstruction, toolConfig, tools.
	dst = append(dst, `{"contents":`...)
	if dst, ok = rc.appendContents(dst, req); !ok {
		return dst, false
	}
	dst = append(dst, `,"generationConfig":`...)
	if dst, ok = appendGenerationConfig(dst, cfg); !ok {
		return dst, false
	}
	if len(cfg.Labels) > 0 {
		dst = append(dst, `,"labels":`...)
		dst = appendLabels(dst, cfg.Labels)
	}
	if cfg.SafetySettings != nil {
		dst = append(dst, `,"safetySettings":[`...)
		for i, s := range cfg.SafetySettings {
			if i > 0 {
				dst = append(dst, ',')
			}
			first := true
			dst = append(dst, '{')
			dst = appendStringField(dst, &first, "category", string(s.Category))
			dst = appendStringField(dst, &first, "method", string(s.Method))
			dst = appendStringField(dst, &first, "threshold", string(s.Threshold))
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	if si := cfg.SystemInstruction; si != nil {
		dst = append(dst, `,"systemInstruction":{"parts":[`...)
		for i, p := range si.Parts {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, '{')
			first := true
			dst = appendStringField(dst, &first, "text", p.Text)
			dst = append(dst, '}')
		}
		dst = append(dst, `],"role":`...)
		dst = appendJSONString(dst, si.Role)
		dst = append(dst, '}')
	}
	if tc := cfg.ToolConfig; tc != nil {
		dst = append(dst, `,"toolConfig":{`...)
		if fcc := tc.FunctionCallingConfig; fcc != nil {
			dst = append(dst, `"functionCallingConfig":{`...)
			first := true
			if len(fcc.AllowedFunctionNames) > 0 {
				dst = appendKey(dst, &first, "allowedFunctionNames")
				dst = appendStrings(dst, fcc.AllowedFunctionNames)
			}
			dst = appendStringField(dst, &first, "mode", string(fcc.Mode))
			dst = append(dst, '}')
		}
		dst = append(dst, '}')
	}
	if cfg.Tools != nil {
		dst = append(dst, `,"tools":[`...)
		for i, t := range cfg.Tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = appendTool(dst, t); !ok {
				return dst, false
			}
		}
		dst = append(dst, ']')
	}
	// The SDK writes with a json.Encoder, which ends the value with a newline.
	return append(dst, '}', '\n'), true
}

// appendContents appends the conversation as [requestConverter.contents]
// builds it, the appended user turn included.
func (rc requestConverter) appendContents(dst []byte, req *v1.LlmRequest) ([]byte, bool) {
	dst = append(dst, '[')
	n := 0
	last := ""
	var ok bool
	for _, c := range req.GetContents() {
		if c == nil {
			continue
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		last = c.GetRole()
		dst = append(dst, '{')
		first := true
		if np := countParts(c.GetParts()); np > 0 {
			dst = appendKey(dst, &first, "parts")
			dst = append(dst, '[')
			i := 0
			for _, p := range c.GetParts() {
				if p == nil {
					continue
				}
				if i > 0 {
					dst = append(dst, ',')
				}
				i++
				if dst, ok = rc.appendPart(dst, p); !ok {
					return dst, false
				}
			}
			dst = append(dst, ']')
		}
		dst = appendStringField(dst, &first, "role", c.GetRole())
		dst = append(dst, '}')
	}
	switch {
	case n == 0:
		dst = appendUserText(dst, emptyContentsText)
	case last != roleUser:
		dst = append(dst, ',')
		dst = appendUserText(dst, continueTurnText)
	}
	return append(dst, ']'), true
}

func countParts(parts []*v1.Part) int {
	n := 0
	for _, p := range parts {
		if p != nil {
			n++
		}
	}
	return n
}

func appendUserText(dst []byte, text string) []byte {
	dst = append(dst, `{"parts":[{"text":`...)
	dst = appendJSONString(dst, text)
	return append(dst, `}],"role":"user"}`...)
}

// appendPart appends one part as [requestConverter.part] converts it.
func (rc requestConverter) appendPart(dst []byte, p *v1.Part) ([]byte, bool) {
	dst = append(dst, '{')
	first := true
	var ok bool
	if cr := p.GetCodeExecutionResult(); cr != nil {
		dst = appendKey(dst, &first, "codeExecutionResult")
		f := true
		dst = append(dst, '{')
		dst = appendStringField(dst, &f, "outcome", cr.GetOutcome())
		dst = appendStringField(dst, &f, "output", cr.GetOutput())
		dst = append(dst, '}')
	}
	if ec := p.GetExecutableCode(); ec != nil {
		dst = appendKey(dst, &first, "executableCode")
		f := true
		dst = append(dst, '{')
		dst = appendStringField(dst, &f, "code", ec.GetCode())
		dst = appendStringField(dst, &f, "language", ec.GetLanguage())
		dst = append(dst, '}')
	}
	if fd := p.GetFileData(); fd != nil {
		dst = appendKey(dst, &first, "fileData")
		f := true
		dst = append(dst, '{')
		if rc.vertex {
			dst = appendStringField(dst, &f, "displayName", fd.GetDisplayName())
		}
		dst = appendStringField(dst, &f, "fileUri", fd.GetFileUri())
		dst = appendStringField(dst, &f, "mimeType", fd.GetMimeType())
		dst = append(dst, '}')
	}
	if fc := p.GetFunctionCall(); fc != nil {
		dst = appendKey(dst, &first, "functionCall")
		f := true
		dst = append(dst, '{')
		if len(fc.GetArgs().GetFields()) > 0 {
			dst = appendKey(dst, &f, "args")
			if dst, ok = appendStruct(dst, fc.GetArgs()); !ok {
				return dst, false
			}
		}
		dst = appendStringField(dst, &f, "id", models.ModelID(fc.GetId()))
		dst = appendStringField(dst, &f, "name", fc.GetName())
		dst = append(dst, '}')
	}
	if fr := p.GetFunctionResponse(); fr != nil {
		dst = appendKey(dst, &first, "functionResponse")
		f := true
		dst = append(dst, '{')
		dst = appendStringField(dst, &f, "id", models.ModelID(fr.GetId()))
		dst = appendStringField(dst, &f, "name", fr.GetName())
		if len(fr.GetResponse().GetFields()) > 0 {
			dst = appendKey(dst, &f, "response")
			if dst, ok = appendStruct(dst, fr.GetResponse()); !ok {
				return dst, false
			}
		}
		dst = append(dst, '}')
	}
	if b := p.GetInlineData(); b != nil {
		dst = appendKey(dst, &first, "inlineData")
		f := true
		dst = append(dst, '{')
		if len(b.GetData()) > 0 {
			dst = appendKey(dst, &f, "data")
			dst = appendBase64(dst, b.GetData())
		}
		if rc.vertex {
			dst = appendStringField(dst, &f, "displayName", b.GetDisplayName())
		}
		dst = appendStringField(dst, &f, "mimeType", b.GetMimeType())
		dst = append(dst, '}')
	}
	if !rc.vertex && len(p.GetPartMetadata().GetFields()) > 0 {
		dst = appendKey(dst, &first, "partMetadata")
		if dst, ok = appendStruct(dst, p.GetPartMetadata()); !ok {
			return dst, false
		}
	}
	dst = appendStringField(dst, &first, "text", p.GetText())
	if p.GetThought() {
		dst = appendKey(dst, &first, "thought")
		dst = append(dst, "true"...)
	}
	if sig := p.GetThoughtSignature(); len(sig) > 0 {
		dst = appendKey(dst, &first, "thoughtSignature")
		dst = appendBase64(dst, sig)
	}
	return append(dst, '}'), true
}

// appendStringField appends key and s unless s is empty (omitempty).
func appendStringField(dst []byte, first *bool, key, s string) []byte {
	if s == "" {
		return dst
	}
	dst = appendKey(dst, first, key)
	return appendJSONString(dst, s)
}

// appendGenerationConfig appends the generationConfig object the SDK
// builds from cfg, refusing a config with fields it does not write.
func appendGenerationConfig(dst []byte, cfg *genai.GenerateContentConfig) ([]byte, bool) {
	if cfg.MediaResolution != "" || cfg.SpeechConfig != nil || cfg.ImageConfig != nil || cfg.RoutingConfig != nil ||
		cfg.ModelSelectionConfig != nil || cfg.AudioTimestamp {
		return dst, false
	}
	dst = append(dst, '{')
	first := true
	var ok bool
	if cfg.CandidateCount != 0 {
		dst = appendKey(dst, &first, "candidateCount")
		dst = strconv.AppendInt(dst, int64(cfg.CandidateCount), 10)
	}
	if dst, ok = appendFloat32Field(dst, &first, "frequencyPenalty", cfg.FrequencyPenalty); !ok {
		return dst, false
	}
	if cfg.Logprobs != nil {
		dst = appendKey(dst, &first, "logprobs")
		dst = strconv.AppendInt(dst, int64(*cfg.Logprobs), 10)
	}
	if cfg.MaxOutputTokens != 0 {
		dst = appendKey(dst, &first, "maxOutputTokens")
		dst = strconv.AppendInt(dst, int64(cfg.MaxOutputTokens), 10)
	}
	if dst, ok = appendFloat32Field(dst, &first, "presencePenalty", cfg.PresencePenalty); !ok {
		return dst, false
	}
	if cfg.ResponseJsonSchema != nil {
		dst = appendKey(dst, &first, "responseJsonSchema")
		if dst, ok = appendAny(dst, cfg.ResponseJsonSchema); !ok {
			return dst, false
		}
	}
	if cfg.ResponseLogprobs {
		dst = appendKey(dst, &first, "responseLogprobs")
		dst = append(dst, "true"...)
	}
	dst = appendStringField(dst, &first, "responseMimeType", cfg.ResponseMIMEType)
	if len(cfg.ResponseModalities) > 0 {
		dst = appendKey(dst, &first, "responseModalities")
		dst = appendStrings(dst, cfg.ResponseModalities)
	}
	if cfg.ResponseSchema != nil {
		dst = appendKey(dst, &first, "responseSchema")
		if dst, ok = appendSchema(dst, cfg.ResponseSchema); !ok {
			return dst, false
		}
	}
	if cfg.Seed != nil {
		dst = appendKey(dst, &first, "seed")
		dst = strconv.AppendInt(dst, int64(*cfg.Seed), 10)
	}
	if len(cfg.StopSequences) > 0 {
		dst = appendKey(dst, &first, "stopSequences")
		dst = appendStrings(dst, cfg.StopSequences)
	}
	if dst, ok = appendFloat32Field(dst, &first, "temperature", cfg.Temperature); !ok {
		return dst, false
	}
	if tc := cfg.ThinkingConfig; tc != nil {
		dst = appendKey(dst, &first, "thinkingConfig")
		f := true
		dst = append(dst, '{')
		if tc.IncludeThoughts {
			dst = appendKey(dst, &f, "includeThoughts")
			dst = append(dst, "true"...)
		}
		if tc.ThinkingBudget != nil {
			dst = appendKey(dst, &f, "thinkingBudget")
			dst = strconv.AppendInt(dst, int64(*tc.ThinkingBudget), 10)
		}
		dst = appendStringField(dst, &f, "thinkingLevel", string(tc.ThinkingLevel))
		dst = append(dst, '}')
	}
	if cfg.TopK != nil {
		if dst, ok = appendFloat32Field(dst, &first, "topK", cfg.TopK); !ok {
			return dst, false
		}
	}
	if dst, ok = appendFloat32Field(dst, &first, "topP", cfg.TopP); !ok {
		return dst, false
	}
	return append(dst, '}'), true
}

func appendFloat32Field(dst []byte, first *bool, key string, f *float32) ([]byte, bool) {
	if f == nil {
		return dst, true
	}
	dst = appendKey(dst, first, key)
	return appendFloat32(dst, *f)
}

func appendLabels(dst []byte, labels map[string]string) []byte {
	dst = append(dst, '{')
	first := true
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		dst = appendKey(dst, &first, k)
		dst = appendJSONString(dst, labels[k])
	}
	return append(dst, '}')
}

// appendTool appends a tool of function declarations; a server-side tool
// reports false.
func appendTool(dst []byte, t *genai.Tool) ([]byte, bool) {
	if t.GoogleSearch != nil || t.CodeExecution != nil || t.URLContext != nil || t.EnterpriseWebSearch != nil ||
		t.GoogleSearchRetrieval != nil || t.GoogleMaps != nil || t.Retrieval != nil || t.ComputerUse != nil ||
		t.FileSearch != nil || t.MCPServers != nil {
		return dst, false
	}
	dst = append(dst, '{')
	if len(t.FunctionDeclarations) > 0 {
		dst = append(dst, `"functionDeclarations":[`...)
		var ok bool
		for i, d := range t.FunctionDeclarations {
			if i > 0 {
				dst = append(dst, ',')
			}
			if dst, ok = appendDeclaration(dst, d); !ok {
				return dst, false
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, '}'), true
}

func appendDeclaration(dst []byte, d *genai.FunctionDeclaration) ([]byte, bool) {
	if d.Behavior != "" {
		return dst, false
	}
	dst = append(dst, '{')
	first := true
	var ok bool
	dst = appendStringField(dst, &first, "description", d.Description)
	dst = appendStringField(dst, &first, "name", d.Name)
	if d.Parameters != nil {
		dst = appendKey(dst, &first, "parameters")
		if dst, ok = appendSchema(dst, d.Parameters); !ok {
			return dst, false
		}
	}
	if d.ParametersJsonSchema != nil {
		dst = appendKey(dst, &first, "parametersJsonSchema")
		if dst, ok = appendAny(dst, d.ParametersJsonSchema); !ok {
			return dst, false
		}
	}
	if d.Response != nil {
		dst = appendKey(dst, &first, "response")
		if dst, ok = appendSchema(dst, d.Response); !ok {
			return dst, false
		}
	}
	if d.ResponseJsonSchema != nil {
		dst = appendKey(dst, &first, "responseJsonSchema")
		if dst, ok = appendAny(dst, d.ResponseJsonSchema); !ok {
			return dst, false
		}
	}
	return append(dst, '}'), true
}
