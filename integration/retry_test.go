package integration

import (
	"context"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// TestAgentRetryConfigOverGRPC runs an agent whose retry_config retries
// ClientError: two HTTP 400 answers, which the default policy would not
// retry, are retried and the third attempt's answer is the run's.
func TestAgentRetryConfigOverGRPC(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{
		"chat": "name: chat\nmodel: gemini-2.5-flash\nretry_config:\n  max_attempts: 3\n  initial_delay: 0.01\n" +
			"  max_delay: 0.02\n  exceptions: [ClientError]\n",
	})
	bad := fakegemini.Item{Error: &fakegemini.APIError{Code: 400, Message: "bad"}}
	s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{bad, bad}})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	_, events := s.runApp(t, ctx, "chat", "", "hi")
	if len(events) != 1 || events[0].GetContent().GetParts()[0].GetText() != "Echo: hi" {
		t.Fatalf("events = %v, want the echo", events)
	}
	if n := len(s.modelRequests(t)); n != 3 {
		t.Errorf("model requests = %d, want 3", n)
	}
}
