package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func TestCaseFileStaysUnderRoot(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root := filepath.Join(base, "cases")
	inside := filepath.Join(root, "core", "a")
	outside := filepath.Join(base, "elsewhere")
	for _, d := range []string{inside, outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(root, "core", "escape")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	rp, err := NewReplayer(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, dir, mode, want, wantErr string
	}{
		{name: "case", dir: inside, mode: "none", want: filepath.Join(inside, "generated-recordings.yaml")},
		{name: "sse", dir: inside, mode: "sse", want: filepath.Join(inside, "generated-recordings-sse.yaml")},
		{name: "dot dot", dir: filepath.Join(inside, "..", "..", "..", "elsewhere"), mode: "none", wantErr: "outside"},
		{name: "symlink out", dir: link, mode: "none", wantErr: "outside"},
		{name: "root's parent", dir: base, mode: "none", wantErr: "outside"},
		{name: "missing", dir: filepath.Join(root, "nope"), mode: "none", wantErr: "case directory"},
		{name: "mode", dir: inside, mode: "bidi", wantErr: "streaming_mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := caseFile(rp.root, tt.dir, tt.mode)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("caseFile = %q, %v; want an error with %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("caseFile = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestLoadRecordingsBounded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("recordings: []\n"+strings.Repeat("#", maxRecordingsBytes)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := loadRecordings(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("loadRecordings(big) = %v, want a size error", err)
	}
	ok := filepath.Join(dir, "ok.yaml")
	body := `recordings:
  - user_message_index: 0
    agent_name: a
    llm_recording:
      llm_request: {model: m}
      llm_responses:
        - content: {role: model, parts: [{text: hi}]}
          partial: false
          usage_metadata: {prompt_token_count: 3}
`
	if err := os.WriteFile(ok, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := loadRecordings(ok)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := response(r.Recordings[0].LLM.Responses[0])
	if err != nil {
		t.Fatal(err)
	}
	if resp.Partial == nil || *resp.Partial || resp.GetUsageMetadata().GetPromptTokenCount() != 3 || resp.GetContent().GetParts()[0].GetText() != "hi" {
		t.Fatalf("response = %v", resp)
	}
}

func TestCompareRequest(t *testing.T) {
	t.Parallel()
	user := func(text string) *v1.Content {
		return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}
	}
	recorded := map[string]any{
		"model": "gemini-2.5-flash",
		"contents": []any{
			map[string]any{"role": "user", "parts": []any{map[string]any{"text": "hi"}}},
			map[string]any{"role": "model", "parts": []any{map[string]any{"function_call": map[string]any{"name": "f", "args": map[string]any{}}}}},
			map[string]any{"role": "user", "parts": []any{map[string]any{"text": "Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed."}}},
		},
		"config": map[string]any{
			"system_instruction": "Be brief.",
			"labels":             map[string]any{"adk_agent_name": "a"},
			"http_options":       map[string]any{"headers": map[string]any{"user-agent": "x"}},
		},
		"live_connect_config": map[string]any{"input_audio_transcription": map[string]any{}},
	}
	same := &v1.LlmRequest{
		Model: "gemini-2.5-flash",
		Contents: []*v1.Content{user("hi"), {Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{
			Id: "adk-1", Name: "f"}}}}},
		Config: &v1.GenerateContentConfig{SystemInstruction: "Be brief.", Labels: map[string]string{"other": "x"}},
	}
	if d := compareRequest(recorded, same); d != "" {
		t.Fatalf("same request: %s", d)
	}
	other := &v1.LlmRequest{Model: "gemini-2.5-flash", Contents: []*v1.Content{user("hello")},
		Config: &v1.GenerateContentConfig{SystemInstruction: "Be brief."}}
	d := compareRequest(recorded, other)
	if !strings.Contains(d, "llm_request.contents") {
		t.Fatalf("different contents: %q, want the path of the difference", d)
	}
}
