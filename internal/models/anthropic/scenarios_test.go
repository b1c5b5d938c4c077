package anthropic_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/anthropic"
)

// scenarioDir holds the recordings of adk-python + LiteLLM and of ADK's
// Claude class (see its README).
const scenarioDir = "../../../integration/testdata/litellm"

// TestRecordedRequestBodies sends, for every request of the anthropic_*
// and claude_* recordings, the LlmRequest that carries the same
// conversation, and compares the body the adapter sends with the recorded
// one. The LlmRequest is read back from the recorded body (system text,
// turns, tool declarations, response schema), so this checks the
// conversion, not what the engine puts into a request.
func TestRecordedRequestBodies(t *testing.T) {
	t.Parallel()
	n := 0
	for _, sc := range recordedScenarios() {
		name, claude := sc.name, sc.claude
		var reqs []recorded
		if !readJSON(t, filepath.Join(sc.dir, "requests.json"), &reqs) {
			continue
		}
		for i, rec := range reqs {
			n++
			t.Run(fmt.Sprintf("%s/%d", name, i), func(t *testing.T) {
				t.Parallel()
				got := sendRecorded(t, claude, rec)
				want := rec.Path
				if claude {
					want = strings.Replace(want, "/projects/fake-project/", "/projects/proj/", 1)
				}
				if got.Path != want {
					t.Errorf("path = %q, want %q", got.Path, want)
				}
				if diff := cmp.Diff(rec.Body, got.Body); diff != "" {
					t.Errorf("body (-recorded +sent):\n%s", diff)
				}
			})
		}
	}
	if n == 0 {
		t.Skip("no recordings of the Anthropic scenarios")
	}
}

// scenario is one recorded scenario of an Anthropic model.
type scenario struct {
	name, dir string
	// claude is set for ADK's Claude class, unset for LiteLlm.
	claude bool
}

// recordedScenarios lists the anthropic_* and claude_* recordings.
func recordedScenarios() []scenario {
	dirs, _ := filepath.Glob(filepath.Join(scenarioDir, "*"))
	var out []scenario
	for _, dir := range dirs {
		name := filepath.Base(dir)
		if claude := strings.HasPrefix(name, "claude_"); claude || strings.HasPrefix(name, "anthropic_") {
			out = append(out, scenario{name: name, dir: dir, claude: claude})
		}
	}
	return out
}

// sendRecorded sends the request read back from rec and returns what the
// fake received.
func sendRecorded(t *testing.T, claude bool, rec recorded) recorded {
	t.Helper()
	stream := rec.Body["stream"] == true
	answer := jsonReply(t, http.StatusOK, message("end_turn", map[string]any{"type": "text", "text": "ok"}))
	if stream {
		answer = streamEvents(t)
	}
	var m models.Model
	var fake fakeAnthropic
	if claude {
		// .../models/<model>:rawPredict
		model := rec.Path[strings.LastIndex(rec.Path, "/")+1:]
		model = model[:strings.LastIndex(model, ":")]
		m, fake = newClaude(t, anthropic.Config{Model: model}, answer)
	} else {
		m, fake = newLiteLLM(t, anthropic.Config{Model: "anthropic/" + rec.Body["model"].(string)}, answer)
	}
	if _, err := collect(t.Context(), m, requestFromBody(t, rec.Body), stream); err != nil {
		t.Fatalf("GenerateContent: %v", err)
	}
	return fake.recorded()[0]
}

// requestFromBody reads the LlmRequest back from a recorded body: the
// system text, the turns (tool results become function responses named
// after their call), the tool declarations and the response schema (from
// output_format, without the closing LiteLLM adds).
func requestFromBody(t *testing.T, b map[string]any) *v1.LlmRequest {
	t.Helper()
	cfg := &v1.GenerateContentConfig{}
	switch s := b["system"].(type) {
	case string:
		cfg.SystemInstruction = s
	case []any:
		var texts []string
		for _, blk := range s {
			texts = append(texts, blk.(map[string]any)["text"].(string))
		}
		cfg.SystemInstruction = strings.Join(texts, "")
	}
	callNames := map[string]string{}
	var contents []*v1.Content
	for _, m := range b["messages"].([]any) {
		msg := m.(map[string]any)
		role := "user"
		if msg["role"] == "assistant" {
			role = "model"
		}
		c := &v1.Content{Role: role}
		for _, blk := range msg["content"].([]any) {
			c.Parts = append(c.Parts, partFromBlock(t, blk.(map[string]any), callNames))
		}
		contents = append(contents, c)
	}
	decls := []*v1.FunctionDeclaration{}
	for _, tl := range asList(b["tools"]) {
		tool := tl.(map[string]any)
		desc, _ := tool["description"].(string)
		decls = append(decls, &v1.FunctionDeclaration{Name: tool["name"].(string), Description: desc,
			Parameters: mustStruct(t, tool["input_schema"].(map[string]any))})
	}
	if len(decls) > 0 {
		cfg.Tools = []*v1.Tool{{FunctionDeclarations: decls}}
	}
	if of, ok := b["output_format"].(map[string]any); ok {
		schema := of["schema"].(map[string]any)
		cfg.ResponseSchema = mustStruct(t, withoutClosing(schema).(map[string]any))
	}
	return &v1.LlmRequest{Contents: contents, Config: cfg}
}

func partFromBlock(t *testing.T, blk map[string]any, callNames map[string]string) *v1.Part {
	t.Helper()
	switch blk["type"] {
	case "text":
		return &v1.Part{Text: blk["text"].(string)}
	case "tool_use":
		id, name := blk["id"].(string), blk["name"].(string)
		callNames[id] = name
		return &v1.Part{FunctionCall: &v1.FunctionCall{Id: id, Name: name, Args: mustStruct(t, blk["input"].(map[string]any))}}
	case "tool_result":
		id := blk["tool_use_id"].(string)
		var resp map[string]any
		if err := json.Unmarshal([]byte(blk["content"].(string)), &resp); err != nil {
			t.Fatalf("tool_result content: %v", err)
		}
		return &v1.Part{FunctionResponse: &v1.FunctionResponse{Id: id, Name: callNames[id], Response: mustStruct(t, resp)}}
	}
	t.Fatalf("unexpected block %v", blk)
	return nil
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// withoutClosing drops the additionalProperties LiteLLM adds to objects.
func withoutClosing(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if k != "additionalProperties" {
				out[k] = withoutClosing(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = withoutClosing(e)
		}
		return out
	}
	return v
}
