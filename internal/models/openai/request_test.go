package openai

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/encoding/protojson"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestMessages checks the conversion of contents into messages against
// what ADK's LiteLlm sends for them.
func TestMessages(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, contents, want string
		fileIDs              bool
	}{
		{"empty", `[]`, `[{"role":"user","content":"Handle the requests as specified in the System Instruction."}]`, false},
		{"ends with the model", `[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"yo"}]}]`,
			`[{"role":"user","content":"hi"},{"role":"assistant","content":"yo"},{"role":"user","content":"Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed."}]`, false},
		{"texts", `[{"role":"user","parts":[{"text":"a"},{"text":"b"}]}]`,
			`[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]`, false},
		{"thought left out", `[{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"text":"hmm","thought":true},{"text":"a"},{"text":"b"}]},{"role":"user","parts":[{"text":"y"}]}]`,
			`[{"role":"user","content":"x"},{"role":"assistant","content":"a","reasoning_content":"hmm"},{"role":"user","content":"y"}]`, false},
		{"missing tool result", `[{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"functionCall":{"id":"c1","name":"f","args":{}}}]},{"role":"user","parts":[{"text":"y"}]}]`,
			`[{"role":"user","content":"x"},{"role":"assistant","tool_calls":[{"type":"function","id":"c1","function":{"name":"f","arguments":"{}"}}]},` +
				`{"role":"tool","tool_call_id":"c1","content":"Error: Missing tool result (tool execution may have been interrupted before a response was recorded)."},{"role":"user","content":"y"}]`, false},
		{"image and audio", `[{"role":"user","parts":[{"text":"look"},{"inlineData":{"mimeType":"image/png","data":"AAE="}},{"inlineData":{"mimeType":"audio/mpeg","data":"AAE="}}]}]`,
			`[{"role":"user","content":[{"type":"text","text":"look"},{"type":"image_url","image_url":{"url":"data:image/png;base64,AAE="}},{"type":"input_audio","input_audio":{"data":"AAE=","format":"mp3"}}]}]`, false},
		{"pdf inline elsewhere", `[{"role":"user","parts":[{"text":"read"},{"inlineData":{"mimeType":"application/pdf","data":"AAE="}}]}]`,
			`[{"role":"user","content":[{"type":"text","text":"read"},{"type":"file","file":{"file_data":"data:application/pdf;base64,AAE="}}]}]`, false},
		{"file uri for openai", `[{"role":"user","parts":[{"text":"see"},{"fileData":{"mimeType":"image/jpeg","fileUri":"https://x/a.jpg"}},{"fileData":{"fileUri":"gs://b/doc.pdf"}}]}]`,
			`[{"role":"user","content":[{"type":"text","text":"see"},{"type":"image_url","image_url":{"url":"https://x/a.jpg"}},{"type":"text","text":"[File reference: \"gs://b/doc.pdf\"]"}]}]`, true},
		{"text inline", `[{"role":"user","parts":[{"inlineData":{"mimeType":"text/plain","data":"aGk="}}]}]`, `[{"role":"user","content":"hi"}]`, false},
	} {
		var contents []json.RawMessage
		if err := json.Unmarshal([]byte(tc.contents), &contents); err != nil {
			t.Fatal(err)
		}
		req := &v1.LlmRequest{}
		for _, c := range contents {
			pc := &v1.Content{}
			if err := protojson.Unmarshal(c, pc); err != nil {
				t.Fatal(err)
			}
			req.Contents = append(req.Contents, pc)
		}
		msgs, err := messages(req, tc.fileIDs)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var want, got any
		_ = json.Unmarshal([]byte(tc.want), &want)
		b, _ := json.Marshal(msgs)
		_ = json.Unmarshal(b, &got)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, d)
		}
	}
}
