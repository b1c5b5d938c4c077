package integration

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// TestA2ARemoteAgentFromADKPython: adk-python's RemoteA2aAgent, pointed
// at an app's agent card, calls the app over A2A and reads its answer.
// It runs when AGENTSVC_TEST_A2A_PYTHON names a Python with google-adk[a2a]
// (scripts/with-a2a-venv.sh installs one).
func TestA2ARemoteAgentFromADKPython(t *testing.T) {
	t.Parallel()
	python := os.Getenv("AGENTSVC_TEST_A2A_PYTHON")
	if python == "" {
		t.Skip("AGENTSVC_TEST_A2A_PYTHON is not set (scripts/with-a2a-venv.sh sets it)")
	}
	s := startStack(t, map[string]string{"weather": weatherAgent}, "--a2a")
	s.script(t, fakegemini.Text("Sunny in Paris."))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "testdata/a2a/remote_call.py",
		s.httpURL+"/a2a/weather/.well-known/agent-card.json", "Weather in Paris?").CombinedOutput()
	if err != nil {
		t.Fatalf("remote_call.py: %v\n%s", err, out)
	}
	var answer string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var ev struct {
			Author   string   `json:"author"`
			Text     string   `json:"text"`
			Error    string   `json:"error"`
			Metadata []string `json:"metadata"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		if ev.Author != "remote" || ev.Error != "" {
			t.Fatalf("event %s", line)
		}
		if !strings.Contains(strings.Join(ev.Metadata, " "), "a2a:task_id") {
			t.Errorf("event without a2a:task_id: %s", line)
		}
		answer += ev.Text
	}
	if answer != "Sunny in Paris." {
		t.Fatalf("answer %q; output:\n%s", answer, out)
	}
}
