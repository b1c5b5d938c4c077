package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// TestRESTRunRequestID retries ADK's /run with the same requestId: the
// retry answers the same events, and the session holds one user message
// carrying the id.
func TestRESTRunRequestID(t *testing.T) {
	t.Parallel()
	s := newStack(t, time.Minute)
	ctx := testContext(t)
	handler, err := s.srv.HTTPHandler(ctx, func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(handler)
	t.Cleanup(hs.Close)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Text("Hello."))
	body := `{"appName":"` + appName + `","userId":"` + userID + `","sessionId":"` + sid +
		`","newMessage":{"role":"user","parts":[{"text":"Hi"}]},"requestId":"rest-1"}`
	post := func() []map[string]any {
		t.Helper()
		resp, err := http.Post(hs.URL+"/run", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("POST /run: %d %s", resp.StatusCode, b)
		}
		var events []map[string]any
		if err := json.Unmarshal(b, &events); err != nil {
			t.Fatal(err)
		}
		return events
	}
	first, again := post(), post()
	if len(first) != 1 || len(again) != 1 || first[0]["id"] != again[0]["id"] {
		t.Errorf("retry answered %v, want the first answer %v", again, first)
	}
	sess := s.session(t, ctx, sid)
	if len(sess.Events) != 2 || sess.Events[0].RequestId != "rest-1" {
		t.Errorf("stored %v, want one user message with request id rest-1", et.Events(sess.Events))
	}
	if s.model.Calls() != 1 {
		t.Errorf("model calls = %d, want 1", s.model.Calls())
	}
}
