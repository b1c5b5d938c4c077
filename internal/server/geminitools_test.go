package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// TestGoogleSearchOverGRPCAndREST: an agent with google_search sends
// Gemini the request ADK sends (the search as a Tool of its own, nothing
// declared), over gRPC Run and REST /run_sse, and the answer's grounding
// metadata reaches the event and the store.
func TestGoogleSearchOverGRPCAndREST(t *testing.T) {
	t.Parallel()
	s := newGeminiAppStack(t, fstest.MapFS{geminiApp + "/root_agent.yaml": {Data: []byte(
		"name: chat_agent\nmodel: gemini-2.5-flash\ninstruction: Be brief.\ntools:\n  - name: google_search\n")}})
	answer := map[string]any{"candidates": []any{map[string]any{
		"content":           map[string]any{"role": "model", "parts": []any{map[string]any{"text": "It rains in Paris."}}},
		"finishReason":      "STOP",
		"groundingMetadata": map[string]any{"webSearchQueries": []any{"weather Paris"}},
	}}}
	wantBody := map[string]any{
		"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "hi"}}}},
		"systemInstruction": map[string]any{"role": "user", "parts": []any{map[string]any{
			"text": "Be brief.\n\nYou are an agent. Your internal name is \"chat_agent\"."}}},
		"tools": []any{map[string]any{"googleSearch": map[string]any{}}},
	}
	for _, transport := range []string{"grpc", "rest"} {
		s.enqueue(t, fakegemini.Item{Response: answer})
		sid := s.newSession(t)
		if transport == "grpc" {
			events, err := s.run(t.Context(), sid, "hi", false)
			if err != nil {
				t.Fatal(err)
			}
			if got := events[0].GetGroundingMetadata().AsMap(); !cmp.Equal(got, map[string]any{"webSearchQueries": []any{"weather Paris"}}) {
				t.Errorf("event grounding metadata = %v", got)
			}
		} else {
			code, body := postRun(t, s.httpURL+"/run_sse", sid)
			if code != 200 || !strings.Contains(string(body), `"groundingMetadata":{"webSearchQueries":["weather Paris"]}`) {
				t.Errorf("/run_sse: %d %s", code, body)
			}
		}
		reqs := s.fake.Requests()
		got := reqs[len(reqs)-1].Body
		delete(got, "generationConfig") // the adapter's defaults, checked elsewhere
		if diff := cmp.Diff(wantBody, got); diff != "" {
			b, _ := json.Marshal(got)
			t.Errorf("%s: request (-want +got):\n%s\n%s", transport, diff, b)
		}
		stored := s.storedEvents(t, sid)
		if stored[len(stored)-1].GetGroundingMetadata() == nil {
			t.Errorf("%s: stored event has no grounding metadata", transport)
		}
	}
}
