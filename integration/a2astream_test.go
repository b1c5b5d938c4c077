package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// streamedEvent is what the stream tests read of an event: its author,
// partial flag and parts.
type streamedEvent struct {
	Author  string `json:"author"`
	Partial *bool  `json:"partial"`
	Content struct {
		Parts []struct {
			Text    string `json:"text"`
			Thought bool   `json:"thought"`
		} `json:"parts"`
	} `json:"content"`
	ErrorMessage   string         `json:"errorMessage"`
	CustomMetadata map[string]any `json:"customMetadata"`
}

// shape is an event in short: "(partial=…)" when set, then each part's
// text, "(thought)" before a thought's.
func (e streamedEvent) shape() string {
	var b strings.Builder
	if e.Partial != nil {
		fmt.Fprintf(&b, "(partial=%v)", *e.Partial)
	}
	for _, p := range e.Content.Parts {
		if p.Thought {
			b.WriteString("(thought)")
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// TestRemoteA2aAgentStreamsFromADKPython: an ADK 2.x app's RemoteA2aAgent
// calling an ADK 2.13 to_a2a agent (an A2A 1.0 card that declares
// streaming, served by a2a-sdk 1.x) streams its message and yields, through
// /run_sse, the events ADK 2.13's own RemoteA2aAgent
// (testdata/a2a/remote_call.py) yields from the same server: the task without content, the working update's text as a
// thought, the answer's artifact, and the closing status, each with its
// a2a: metadata.
func TestRemoteA2aAgentStreamsFromADKPython(t *testing.T) {
	t.Parallel()
	python, ok := a2aPythons(t)["adk2"]
	if !ok {
		t.Skip("AGENTSVC_TEST_A2A2_PYTHON is not set (scripts/with-a2a-venv.sh sets it)")
	}
	port := freePort(t)
	card := fmt.Sprintf("http://127.0.0.1:%d/.well-known/agent-card.json", port)
	s := startStack(t, map[string]string{
		"front/root_agent.yaml": "agent_class: RemoteA2aAgent\nname: forecast\nagent_card: " + card + "\ntimeout: 60\n",
		"front/app.yaml":        "adk_behavior: \"2.x\"\n",
	})
	startADKServer(t, python, s.fakeURL, port)
	const want = " | (thought)Rain tomorrow. | (partial=false)Rain tomorrow. | "

	s.script(t, fakegemini.Text("Rain tomorrow."))
	got := streamShapes(t, s, "front")
	if g := strings.Join(got, " | "); g != want {
		t.Errorf("agentsvc streamed %q, want %q", g, want)
	}

	// ADK 2.13's RemoteA2aAgent, against the same server.
	s.script(t, fakegemini.Text("Rain tomorrow."))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, python, "testdata/a2a/remote_call.py", card, "Forecast?").Output()
	if err != nil {
		t.Fatalf("remote_call.py: %v\n%s", err, out)
	}
	got = nil
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var ev streamedEvent
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Author == "remote" {
			got = append(got, ev.shape())
		}
	}
	if g := strings.Join(got, " | "); g != want {
		t.Errorf("ADK 2.13 streamed %q, want %q", g, want)
	}
}

// streamShapes has app's session s1 answer "Forecast?" through /run_sse
// and returns the shape of each event streamed, checking that each is the
// remote agent forecast's, without error, with its a2a: metadata.
func streamShapes(t *testing.T, s *stack, app string) []string {
	t.Helper()
	resp, err := http.Post(s.httpURL+"/apps/"+app+"/users/u/sessions", "application/json", strings.NewReader(`{"sessionId": "s1"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	body := `{"appName": "` + app + `", "userId": "u", "sessionId": "s1", "newMessage": {"role": "user", "parts": [{"text": "Forecast?"}]}}`
	resp, err = http.Post(s.httpURL+"/run_sse", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev streamedEvent
		if err := json.Unmarshal([]byte(data), &ev); err != nil || ev.Author != "forecast" || ev.ErrorMessage != "" {
			t.Fatalf("%s: event %s (%v)", app, data, err)
		}
		for _, k := range []string{"a2a:task_id", "a2a:context_id", "a2a:request", "a2a:response"} {
			if _, ok := ev.CustomMetadata[k]; !ok {
				t.Errorf("%s: event without %s: %s", app, k, data)
			}
		}
		got = append(got, ev.shape())
	}
	return got
}
