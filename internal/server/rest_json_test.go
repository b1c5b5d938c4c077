package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestRESTSessionJSONAsADK: a session's JSON always has its "events" array
// (ADK writes [] for a session without events), an event's artifactDelta
// versions are numbers, and the artifact names of a session without
// artifacts are [].
func TestRESTSessionJSONAsADK(t *testing.T) {
	t.Parallel()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	s := newRESTStackWith(t, func(c *server.Config) { c.Artifacts = store })
	base := "/apps/" + appName + "/users/" + userID + "/sessions"
	created := s.do(t, request{method: "POST", path: base, body: `{"sessionId": "fresh"}`})
	if created.status != http.StatusOK {
		t.Fatalf("create: %d %s", created.status, created.body)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(created.body), &got); err != nil || string(got["events"]) != "[]" {
		t.Errorf("created session %s (%v), want \"events\": []", created.body, err)
	}
	for _, path := range []string{base + "/fresh", base} {
		rep := s.do(t, request{method: "GET", path: path})
		if !strings.Contains(strings.ReplaceAll(rep.body, " ", ""), `"events":[]`) {
			t.Errorf("GET %s: %s, want \"events\": []", path, rep.body)
		}
	}
	if rep := s.do(t, request{method: "GET", path: base + "/fresh/artifacts"}); rep.status != http.StatusOK || strings.TrimSpace(rep.body) != "[]" {
		t.Errorf("artifact names of a session without artifacts: %d %q, want []", rep.status, rep.body)
	}

	sess, err := s.store.Get(t.Context(), sessions.GetRequest{AppName: appName, UserID: userID, SessionID: "fresh"})
	if err != nil {
		t.Fatal(err)
	}
	ev := &v1.Event{Author: "desk_agent", InvocationId: "e-1", Actions: &v1.EventActions{
		ArtifactDelta: map[string]int64{`odd "artifactDelta": {x}.txt`: 3, "report.pdf": 0}}}
	if err := s.store.AppendEvent(t.Context(), sess, ev); err != nil {
		t.Fatal(err)
	}
	rep := s.do(t, request{method: "GET", path: base + "/fresh"})
	var withEvent struct {
		Events []struct {
			Actions struct {
				ArtifactDelta map[string]any `json:"artifactDelta"`
			} `json:"actions"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(rep.body), &withEvent); err != nil || len(withEvent.Events) != 1 {
		t.Fatalf("GET session: %s (%v)", rep.body, err)
	}
	want := map[string]any{`odd "artifactDelta": {x}.txt`: 3.0, "report.pdf": 0.0}
	if diff := cmp.Diff(want, withEvent.Events[0].Actions.ArtifactDelta); diff != "" {
		t.Errorf("artifactDelta (-want +got):\n%s\nin %s", diff, rep.body)
	}
}

// TestEvalRoutesAsEmptyADK: the evaluation and builder reads the dev UI
// makes on every app load answer as an ADK without eval sets does; a write
// answers 501 with the message under "detail" too, where the dev UI reads
// ADK's.
func TestEvalRoutesAsEmptyADK(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	for _, tt := range []struct{ path, want, contentType string }{
		{"/dev/apps/" + appName + "/eval_sets", "[]", "application/json"},
		{"/dev/apps/" + appName + "/eval-sets", `{"evalSetIds":[]}`, "application/json"},
		{"/dev/apps/" + appName + "/eval_results", "[]", "application/json"},
		{"/dev/apps/" + appName + "/eval-results", `{"evalResultIds":[]}`, "application/json"},
		{"/dev/apps/" + appName + "/builder?ts=1", "", "text/plain; charset=utf-8"},
	} {
		rep := s.do(t, request{method: "GET", path: tt.path})
		if rep.status != http.StatusOK || rep.body != tt.want || rep.header.Get("Content-Type") != tt.contentType {
			t.Errorf("GET %s: %d %s %q, want 200 %s %q", tt.path, rep.status, rep.header.Get("Content-Type"), rep.body, tt.contentType, tt.want)
		}
	}
	rep := s.do(t, request{method: "POST", path: "/dev/apps/" + appName + "/eval-sets",
		body: `{"eval_set": {"eval_set_id": "s1", "eval_cases": []}}`})
	var body struct {
		Detail string `json:"detail"`
	}
	_ = json.Unmarshal([]byte(rep.body), &body)
	if rep.status != http.StatusNotImplemented || rep.err.reason() != "NOT_SERVED" || body.Detail != rep.err.Message ||
		!strings.Contains(body.Detail, "not installed") {
		t.Errorf("POST eval-sets: %d %s, want 501 NOT_SERVED with the message under detail", rep.status, rep.body)
	}
}
