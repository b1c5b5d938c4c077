package fakegemini

import (
	"encoding/json"
	"errors"
	"strings"
)

// requestInfo is what rules and the default answer need from a request.
type requestInfo struct {
	lastUserText string
	// toolResults renders the function responses of the last content, when
	// the conversation ends with tool results, as "name returned {json}".
	toolResults string
	hasTools    bool
	promptWords int
}

// inspect reads the last user text (the non-thought text parts of the last
// user content that has any), whether tools are declared, and a word count
// of the prompt standing in for its token count.
func inspect(body map[string]any) requestInfo {
	var info requestInfo
	tools, _ := body["tools"].([]any)
	info.hasTools = len(tools) > 0
	if si, ok := body["systemInstruction"].(map[string]any); ok {
		parts, _ := si["parts"].([]any)
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			text, _ := pm["text"].(string)
			info.promptWords += countWords(text)
		}
	}
	contents, _ := body["contents"].([]any)
	if n := len(contents); n > 0 {
		info.toolResults = toolResults(contents[n-1])
	}
	found := false
	for i := len(contents) - 1; i >= 0; i-- {
		c, _ := contents[i].(map[string]any)
		role, _ := c["role"].(string)
		parts, _ := c["parts"].([]any)
		var sb strings.Builder
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			text, _ := pm["text"].(string)
			info.promptWords += countWords(text)
			if thought, _ := pm["thought"].(bool); thought || text == "" {
				continue
			}
			sb.WriteString(text)
		}
		if !found && (role == "user" || role == "") && sb.Len() > 0 {
			info.lastUserText, found = sb.String(), true
		}
	}
	return info
}

func countWords(s string) int { return len(strings.Fields(s)) }

// toolResults renders the function responses of a content, or "".
func toolResults(content any) string {
	c, _ := content.(map[string]any)
	parts, _ := c["parts"].([]any)
	var out []string
	for _, p := range parts {
		pm, _ := p.(map[string]any)
		fr, ok := pm["functionResponse"].(map[string]any)
		if !ok {
			continue
		}
		name, _ := fr["name"].(string)
		resp, _ := json.Marshal(fr["response"])
		out = append(out, name+" returned "+string(resp))
	}
	return strings.Join(out, "; ")
}

// echo is the default answer: "Echo: <last user text>", or after tool
// results "Echo: <name> returned <response json>", finished with STOP, with
// usage metadata; streamed as two chunks when there is text to echo.
func echo(model string, info requestInfo, stream bool) entry {
	const prefix = "Echo: "
	if info.toolResults != "" {
		info.lastUserText = info.toolResults
	}
	text := prefix + info.lastUserText
	u := usage(info.promptWords, countWords(text))
	if !stream || info.lastUserText == "" {
		return entry{response: withModelVersion(response([]map[string]any{{"text": text}}, "STOP", u), model)}
	}
	return entry{chunks: []json.RawMessage{
		withModelVersion(response([]map[string]any{{"text": prefix}}, "", nil), model),
		withModelVersion(response([]map[string]any{{"text": info.lastUserText}}, "STOP", u), model),
	}}
}

// withModelVersion adds "modelVersion" to an encoded response object.
func withModelVersion(resp json.RawMessage, model string) json.RawMessage {
	v, _ := json.Marshal(model)
	out := make([]byte, 0, len(resp)+len(v)+16)
	out = append(out, `{"modelVersion":`...)
	out = append(out, v...)
	if len(resp) > 2 {
		out = append(out, ',')
	}
	return append(out, resp[1:]...)
}

// mergeChunks merges streamed chunks into one response as the non-streamed
// API would answer: the parts of the first candidate concatenated, with
// consecutive text parts of the same kind (thought or not) joined; every
// other field, of the response and of the candidate, from the last chunk
// that has it.
func mergeChunks(chunks []json.RawMessage) (json.RawMessage, error) {
	out := map[string]any{}
	cand := map[string]any{}
	var parts []any
	for _, raw := range chunks {
		var chunk map[string]any
		if err := json.Unmarshal(raw, &chunk); err != nil {
			return nil, err
		}
		for k, v := range chunk {
			if k != "candidates" {
				out[k] = v
			}
		}
		cands, _ := chunk["candidates"].([]any)
		if len(cands) == 0 {
			continue
		}
		c, ok := cands[0].(map[string]any)
		if !ok {
			return nil, errors.New("candidate is not an object")
		}
		for k, v := range c {
			if k != "content" {
				cand[k] = v
			}
		}
		content, _ := c["content"].(map[string]any)
		chunkParts, _ := content["parts"].([]any)
		for _, p := range chunkParts {
			parts = appendPart(parts, p)
		}
	}
	if len(cand) > 0 || parts != nil {
		cand["content"] = map[string]any{"role": "model", "parts": parts}
		out["candidates"] = []any{cand}
	}
	return json.Marshal(out)
}

// appendPart appends p, joining it to the previous part when both are plain
// text of the same kind.
func appendPart(parts []any, p any) []any {
	pm, ok := p.(map[string]any)
	if !ok || !plainText(pm) || len(parts) == 0 {
		return append(parts, p)
	}
	prev, ok := parts[len(parts)-1].(map[string]any)
	if !ok || !plainText(prev) || prev["thought"] != pm["thought"] {
		return append(parts, p)
	}
	joined := map[string]any{"text": prev["text"].(string) + pm["text"].(string)}
	if t, ok := pm["thought"]; ok {
		joined["thought"] = t
	}
	if sig, ok := pm["thoughtSignature"]; ok {
		joined["thoughtSignature"] = sig
	} else if sig, ok := prev["thoughtSignature"]; ok {
		joined["thoughtSignature"] = sig
	}
	parts[len(parts)-1] = joined
	return parts
}

// plainText reports whether a part holds text and nothing but text, thought
// and thoughtSignature.
func plainText(p map[string]any) bool {
	if _, ok := p["text"].(string); !ok {
		return false
	}
	for k := range p {
		switch k {
		case "text", "thought", "thoughtSignature":
		default:
			return false
		}
	}
	return true
}
