package fakegemini

import (
	"encoding/json"
)

// Reply returns an Item answering with the GenerateContentResponse resp.
func Reply(resp any) Item { return Item{Response: resp} }

// Stream returns an Item answering with the given chunks.
func Stream(chunks ...any) Item { return Item{Chunks: chunks} }

// Fail returns an Item answering with HTTP status code and Google's error
// JSON carrying message.
func Fail(code int, message string) Item {
	return Item{Error: &APIError{Code: code, Message: message}}
}

// Call is a function call for [FunctionCalls].
type Call struct {
	// ID is the call id; empty leaves it out, as the Gemini API does.
	ID string
	// Name is the function name.
	Name string
	// Args are the arguments.
	Args map[string]any
}

// Text returns a complete response holding one text part, finished with
// STOP, with usage metadata.
func Text(text string) json.RawMessage {
	return response([]map[string]any{{"text": text}}, "STOP", usage(0, countWords(text)))
}

// FunctionCalls returns a complete response calling the given functions,
// finished with STOP.
func FunctionCalls(calls ...Call) json.RawMessage {
	parts := make([]map[string]any, len(calls))
	for i, c := range calls {
		fc := map[string]any{"name": c.Name, "args": c.Args}
		if c.Args == nil {
			fc["args"] = map[string]any{}
		}
		if c.ID != "" {
			fc["id"] = c.ID
		}
		parts[i] = map[string]any{"functionCall": fc}
	}
	return response(parts, "STOP", usage(0, len(calls)))
}

// TextChunks returns an Item streaming texts one chunk each; the last chunk
// finishes with STOP and carries usage metadata.
func TextChunks(texts ...string) Item {
	chunks := make([]any, len(texts))
	words := 0
	for i, t := range texts {
		words += countWords(t)
		finish := ""
		var u map[string]any
		if i == len(texts)-1 {
			finish, u = "STOP", usage(0, words)
		}
		chunks[i] = response([]map[string]any{{"text": t}}, finish, u)
	}
	return Item{Chunks: chunks}
}

// response encodes a one-candidate GenerateContentResponse.
func response(parts []map[string]any, finishReason string, usageMetadata map[string]any) json.RawMessage {
	cand := map[string]any{
		"content": map[string]any{"role": "model", "parts": parts},
		"index":   0,
	}
	if finishReason != "" {
		cand["finishReason"] = finishReason
	}
	resp := map[string]any{"candidates": []any{cand}}
	if usageMetadata != nil {
		resp["usageMetadata"] = usageMetadata
	}
	// The values are strings, numbers and maps of them: encoding cannot fail.
	b, _ := json.Marshal(resp)
	return b
}

func usage(prompt, candidates int) map[string]any {
	return map[string]any{
		"promptTokenCount":     prompt,
		"candidatesTokenCount": candidates,
		"totalTokenCount":      prompt + candidates,
	}
}
