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
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// a2aPythons are the Pythons of the two pinned adk-python environments,
// by name: ADK 1.39.1 with a2a-sdk 0.3 (AGENTSVC_TEST_A2A_PYTHON) and ADK
// 2.13 with a2a-sdk 1.x, which speaks A2A 1.0 (AGENTSVC_TEST_A2A2_PYTHON);
// scripts/with-a2a-venv.sh makes both. The test is skipped without either.
func a2aPythons(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	for name, env := range map[string]string{"adk1": "AGENTSVC_TEST_A2A_PYTHON", "adk2": "AGENTSVC_TEST_A2A2_PYTHON"} {
		if p := os.Getenv(env); p != "" {
			out[name] = p
		}
	}
	if len(out) == 0 {
		t.Skip("AGENTSVC_TEST_A2A_PYTHON and AGENTSVC_TEST_A2A2_PYTHON are not set (scripts/with-a2a-venv.sh sets them)")
	}
	return out
}

// TestA2ARemoteAgentFromADKPython: adk-python's RemoteA2aAgent (ADK 1.39.1
// with a2a-sdk 0.3, and ADK 2.13 with a2a-sdk 1.x), pointed at an app's
// agent card, calls the app over A2A and reads its answer.
func TestA2ARemoteAgentFromADKPython(t *testing.T) {
	t.Parallel()
	for name, python := range a2aPythons(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := startStack(t, map[string]string{"weather": weatherAgent}, "--a2a")
			s.script(t, fakegemini.Text("Sunny in Paris."))
			remoteCall(t, python, s.httpURL+"/a2a/weather/.well-known/agent-card.json", "Weather in Paris?", nil,
				"Sunny in Paris.")
		})
	}
}

// remoteCall runs testdata/a2a/remote_call.py (adk-python's
// RemoteA2aAgent) against cardURL with env added, and checks that the
// remote's answer is want, carried by events with a2a:task_id.
func remoteCall(t *testing.T, python, cardURL, question string, env []string, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, "testdata/a2a/remote_call.py", cardURL, question)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
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
	if answer != want {
		t.Fatalf("answer %q; output:\n%s", answer, out)
	}
}

// TestRemoteA2aAgentCallsADKPython: an app's RemoteA2aAgent calls an
// adk-python agent served by to_a2a (its model answered by the same fake
// Gemini server) and yields its answer: ADK 1.39.1's (an A2A 0.3 card) and
// ADK 2.13's with a2a-sdk 1.x (an A2A 1.0 card, with supportedInterfaces
// and no url), its card fetched or, for 2.13, read from a file.
func TestRemoteA2aAgentCallsADKPython(t *testing.T) {
	t.Parallel()
	for name, python := range a2aPythons(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			callADKServer(t, python, false)
		})
		if name == "adk2" {
			t.Run(name+"-card-file", func(t *testing.T) {
				t.Parallel()
				callADKServer(t, python, true)
			})
		}
	}
}

// callADKServer serves testdata/a2a/adk_server.py with python and has an
// app's RemoteA2aAgent call it, through its card's URL or, with fromFile,
// a card file of A2A 1.0 naming the server.
func callADKServer(t *testing.T, python string, fromFile bool) {
	t.Helper()
	port := freePort(t)
	card := fmt.Sprintf("http://127.0.0.1:%d/.well-known/agent-card.json", port)
	if fromFile {
		card = filepath.Join(t.TempDir(), "forecaster.json")
		body := fmt.Sprintf(`{"name": "forecaster", "description": "Forecasts the weather.", "version": "0.0.1",
			"supportedInterfaces": [{"url": "http://127.0.0.1:%d", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
			"capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"], "skills": []}`, port)
		if err := os.WriteFile(card, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := startStack(t, map[string]string{
		"front/root_agent.yaml": "agent_class: SequentialAgent\nname: front\nsub_agents:\n  - config_path: remote.yaml\n",
		"front/remote.yaml":     "agent_class: RemoteA2aAgent\nname: forecast\nagent_card: " + card + "\ntimeout: 60\n",
	})
	startADKServer(t, python, s.fakeURL, port)
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

// freePort is a TCP port of 127.0.0.1 free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startADKServer serves testdata/a2a/adk_server.py with python on port,
// its model the fake Gemini server at fakeURL.
func startADKServer(t *testing.T, python, fakeURL string, port int) {
	t.Helper()
	start(t, regexp.MustCompile(`Uvicorn running on`), []string{"GOOGLE_GEMINI_BASE_URL=" + fakeURL, "GOOGLE_API_KEY=x",
		"GOOGLE_GENAI_USE_VERTEXAI="}, python, "testdata/a2a/adk_server.py", strconv.Itoa(port))
}
