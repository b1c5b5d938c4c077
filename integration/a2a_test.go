package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strconv"
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

// TestRemoteA2aAgentCallsADKPython: an app's RemoteA2aAgent calls an
// adk-python agent served by to_a2a (its model answered by the same fake
// Gemini server) and yields its answer. It runs when
// AGENTSVC_TEST_A2A_PYTHON is set.
func TestRemoteA2aAgentCallsADKPython(t *testing.T) {
	t.Parallel()
	python := os.Getenv("AGENTSVC_TEST_A2A_PYTHON")
	if python == "" {
		t.Skip("AGENTSVC_TEST_A2A_PYTHON is not set (scripts/with-a2a-venv.sh sets it)")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	card := fmt.Sprintf("http://127.0.0.1:%d/.well-known/agent-card.json", port)
	s := startStack(t, map[string]string{
		"front/root_agent.yaml": "agent_class: SequentialAgent\nname: front\nsub_agents:\n  - config_path: remote.yaml\n",
		"front/remote.yaml":     "agent_class: RemoteA2aAgent\nname: forecast\nagent_card: " + card + "\ntimeout: 60\n",
	})
	start(t, regexp.MustCompile(`Uvicorn running on`), []string{"GOOGLE_GEMINI_BASE_URL=" + s.fakeURL, "GOOGLE_API_KEY=x",
		"GOOGLE_GENAI_USE_VERTEXAI="}, python, "testdata/a2a/adk_server.py", strconv.Itoa(port))
	s.script(t, fakegemini.Text("Rain tomorrow."))

	resp, err := http.Post(s.httpURL+"/apps/front/users/u/sessions", "application/json", strings.NewReader(`{"sessionId": "s1"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	body := `{"appName": "front", "userId": "u", "sessionId": "s1", "newMessage": {"role": "user", "parts": [{"text": "Forecast?"}]}}`
	resp, err = http.Post(s.httpURL+"/run", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var events []struct {
		Author  string `json:"author"`
		Content struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		} `json:"content"`
		ErrorMessage   string         `json:"errorMessage"`
		CustomMetadata map[string]any `json:"customMetadata"`
	}
	if err := json.Unmarshal(raw, &events); err != nil || len(events) != 1 {
		t.Fatalf("events %s (%v)", raw, err)
	}
	ev := events[0]
	if ev.Author != "forecast" || ev.ErrorMessage != "" || len(ev.Content.Parts) != 1 || ev.Content.Parts[0].Text != "Rain tomorrow." {
		t.Fatalf("event %s", raw)
	}
	if _, ok := ev.CustomMetadata["a2a:context_id"]; !ok {
		t.Fatalf("no a2a:context_id: %s", raw)
	}
}
