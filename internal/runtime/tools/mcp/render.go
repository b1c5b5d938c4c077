package mcp

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// render is the function response of a call's result, as ADK 1.x's McpTool
// returns it: the result object with its field names (content items with
// their type, text, base64 data and mimeType; structuredContent; isError
// always present; _meta as meta), null fields left out.
func render(r *mcp.CallToolResult) (map[string]any, error) {
	raw, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	renameMeta(out)
	if out["content"] == nil {
		out["content"] = []any{}
	}
	for _, item := range asList(out["content"]) {
		if m, ok := item.(map[string]any); ok {
			renameMeta(m)
			if res, ok := m["resource"].(map[string]any); ok {
				renameMeta(res)
			}
		}
	}
	if _, ok := out["isError"]; !ok {
		out["isError"] = false
	}
	return out, nil
}

// renameMeta names a model's _meta field as ADK's dump names it.
func renameMeta(m map[string]any) {
	if v, ok := m["_meta"]; ok {
		delete(m, "_meta")
		if v != nil {
			m["meta"] = v
		}
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}
