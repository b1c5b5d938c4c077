package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"gopkg.in/yaml.v3"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/limits"
)

// maxRecordingsBytes bounds a recordings file.
const maxRecordingsBytes = 8 << 20

// recordings is ADK's Recordings: every model and tool call of a case, in
// the order they were made.
type recordings struct {
	Recordings []recording `json:"recordings"`
}

// recording is one model call (LLMRecording) or one tool call
// (ToolRecording) of an agent in the turn of user message
// UserMessageIndex.
type recording struct {
	UserMessageIndex int            `json:"user_message_index"`
	AgentName        string         `json:"agent_name"`
	LLM              *llmRecording  `json:"llm_recording"`
	Tool             *toolRecording `json:"tool_recording"`
}

// llmRecording is a model request as ADK dumps it and the responses it got.
type llmRecording struct {
	Request   map[string]any   `json:"llm_request"`
	Responses []map[string]any `json:"llm_responses"`
}

// toolRecording is a tool call and the response it got.
type toolRecording struct {
	Call     *functionPart `json:"tool_call"`
	Response *functionPart `json:"tool_response"`
}

// functionPart is what a recording keeps of a function call or response.
type functionPart struct {
	Name     string         `json:"name"`
	Args     map[string]any `json:"args"`
	Response map[string]any `json:"response"`
}

// caseFile returns the recordings file of dir for a streaming mode, dir
// resolved under root (symbolic links followed): anything else is refused.
func caseFile(root, dir, mode string) (string, error) {
	name := ""
	switch mode {
	case "none", "":
		name = "generated-recordings.yaml"
	case "sse":
		name = "generated-recordings-sse.yaml"
	default:
		return "", fmt.Errorf("streaming_mode %q is not none or sse", limits.Clip(mode, 32))
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("case directory %q: %w", limits.Clip(dir, 256), errors.Unwrap(err))
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("case directory %q is outside the conformance directory", limits.Clip(dir, 256))
	}
	return filepath.Join(real, name), nil
}

// readYAML reads a bounded YAML file as JSON-like values.
func readYAML(path string) (any, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxRecordingsBytes+1))
	if err != nil {
		return nil, fmt.Errorf("recordings: %w", err)
	}
	if len(b) > maxRecordingsBytes {
		return nil, fmt.Errorf("recordings %s: larger than %d bytes", filepath.Base(path), maxRecordingsBytes)
	}
	var doc any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("recordings %s: %w", filepath.Base(path), err)
	}
	doc = jsonable(doc)
	if _, ok := doc.(map[string]any); !ok {
		return nil, fmt.Errorf("recordings %s: not a mapping", filepath.Base(path))
	}
	return doc, nil
}

// loadRecordings reads and parses a recordings file.
func loadRecordings(path string) (*recordings, error) {
	doc, err := readYAML(path)
	if err != nil {
		return nil, err
	}
	// Through JSON, so that the recordings read as the JSON values the
	// model request is compared with.
	j, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("recordings %s: %w", filepath.Base(path), err)
	}
	var r recordings
	if err := json.Unmarshal(j, &r); err != nil {
		return nil, fmt.Errorf("recordings %s: %w", filepath.Base(path), err)
	}
	return &r, nil
}

// jsonable turns what yaml.v3 decodes into values encoding/json accepts
// (maps with non-string keys are keyed by their text).
func jsonable(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = jsonable(e)
		}
		return t
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[fmt.Sprint(k)] = jsonable(e)
		}
		return m
	case []any:
		for i, e := range t {
			t[i] = jsonable(e)
		}
		return t
	}
	return v
}

// response turns a recorded LlmResponse into the engine's.
func response(m map[string]any) (*v1.LlmResponse, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	out := &v1.LlmResponse{}
	if err := protojson.Unmarshal(b, out); err != nil {
		return nil, fmt.Errorf("recorded response: %w", err)
	}
	return out, nil
}
