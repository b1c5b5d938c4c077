package server_test

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCreateSessionImportsEvents: a create body's events are restored in
// order (ids and timestamps kept, made when missing), and an event ADK's
// create refuses fails the whole create, storing nothing.
func TestCreateSessionImportsEvents(t *testing.T) {
	t.Parallel()
	s := newRESTStack(t)
	body := `{"sessionId": "imp", "state": {"k": "v"}, "events": [
		{"id": "e1", "author": "user", "timestamp": 1700000000.5, "invocationId": "i1",
		 "content": {"role": "user", "parts": [{"text": "Weather?"}]}},
		{"author": "desk_agent", "invocationId": "i1",
		 "content": {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Paris"}}}]}},
		{"id": "e3", "author": "desk_agent", "invocationId": "i1",
		 "content": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "get_weather", "response": {"sky": "sunny"}}}]}}]}`
	rep := s.do(t, request{method: "POST", path: "/apps/desk/users/u1/sessions", body: body})
	if rep.status != 200 {
		t.Fatalf("create: %d %s", rep.status, rep.body)
	}
	got := s.do(t, request{method: "GET", path: "/apps/desk/users/u1/sessions/imp"})
	var sess struct {
		State  map[string]any `json:"state"`
		Events []struct {
			ID        string  `json:"id"`
			Author    string  `json:"author"`
			Timestamp float64 `json:"timestamp"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(got.body), &sess); err != nil {
		t.Fatalf("get: %s: %v", got.body, err)
	}
	if len(sess.Events) != 3 || sess.Events[0].ID != "e1" || sess.Events[0].Timestamp != 1700000000.5 ||
		sess.Events[1].ID == "" || sess.Events[1].Timestamp == 0 || sess.Events[2].ID != "e3" || sess.State["k"] != "v" {
		t.Fatalf("restored session = %s", got.body)
	}

	refused := []struct{ name, event, want string }{
		{"actions", `{"author": "a", "actions": {"stateDelta": {"app:x": 1}}}`, "cannot include event actions"},
		{"transfer", `{"author": "a", "actions": {"transferToAgent": "helper"}}`, "cannot include event actions"},
		{"long running", `{"author": "a", "longRunningToolIds": ["c1"]}`, "long-running tool IDs"},
		{"framework call", `{"author": "a", "content": {"parts": [{"functionCall": {"name": "adk_request_confirmation"}}]}}`, "ADK protocol function calls"},
		{"no author", `{"content": {"parts": [{"text": "x"}]}}`, "author: required"},
		{"bad id", `{"author": "a", "id": "a\u0000b"}`, "events[1].id"},
		{"same id", `{"author": "a", "id": "first"}`, "earlier event"},
		{"too deep", `{"author": "a", "customMetadata": ` + strings.Repeat(`{"a":`, 80) + `1` + strings.Repeat(`}`, 80) + `}`, "NESTING"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			body := `{"sessionId": "r", "events": [{"author": "user", "id": "first"}, ` + tt.event + `]}`
			rep := s.do(t, request{method: "POST", path: "/apps/desk/users/u2/sessions", body: body})
			if rep.status != 400 || !strings.Contains(rep.body, tt.want) {
				t.Fatalf("create: %d %s, want 400 with %q", rep.status, rep.body, tt.want)
			}
			if snap := s.snapshot(t, "u2"); snap != "" {
				t.Errorf("a refused create stored %s", snap)
			}
		})
	}
}
