package server_test

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"google.golang.org/grpc/codes"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// newGeminiStackBehavior is newGeminiStack with the app's adk_behavior set.
func newGeminiStackBehavior(t *testing.T, behavior string) *geminiStack {
	t.Helper()
	return newGeminiAppStack(t, fstest.MapFS{
		geminiApp + "/root_agent.yaml": {Data: []byte("name: chat_agent\nmodel: gemini-2.5-flash\ninstruction: Be brief.\n")},
		geminiApp + "/app.yaml":        {Data: []byte("adk_behavior: \"" + behavior + "\"\n")},
	})
}

// newGeminiAppStack serves the app of files with the Gemini adapter against
// a fake Gemini server, without retries.
func newGeminiAppStack(t *testing.T, files fstest.MapFS) *geminiStack {
	t.Helper()
	fake := fakegemini.New(fakegemini.WithLogger(slog.New(slog.DiscardHandler)))
	modelSrv := httptest.NewServer(fake.Handler())
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		modelSrv.Close()
	})
	provider, err := gemini.New(t.Context(), gemini.Config{BaseURL: modelSrv.URL, APIKey: "test-key",
		HTTPClient: &http.Client{Transport: transport}, Retry: retry.Config{MaxAttempts: 1}})
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withApp(files), withModels(provider))
	return &geminiStack{fixture: fx, fake: fake, httpURL: fx.serveHTTP(t).URL}
}

// TestModelErrorEventProfile: a model failure (429, 500, 400 from Gemini)
// fails gRPC Run with MODEL_ERROR in both profiles; with adk_behavior
// "2.x" it is first an error event authored by the agent, streamed and
// stored. REST /run_sse answers as each ADK release's API server does: 200,
// in 2.x the error event, then the error frame with str() of the
// exception ADK's Gemini model raises (google-genai's text; in 2.x after
// its class, with error_details). 1.x stores nothing but the user's
// message.
func TestModelErrorEventProfile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		behavior string
		code     int
		status   string
		grpcCode codes.Code
		pyType   string
	}{
		{"1.x", 429, "RESOURCE_EXHAUSTED", codes.ResourceExhausted, "_ResourceExhaustedError"},
		{"1.x", 500, "INTERNAL", codes.Unavailable, "ServerError"},
		{"2.x", 429, "RESOURCE_EXHAUSTED", codes.ResourceExhausted, "_ResourceExhaustedError"},
		{"2.x", 500, "INTERNAL", codes.Unavailable, "ServerError"},
		{"2.x", 400, "INVALID_ARGUMENT", codes.FailedPrecondition, "ClientError"},
	}
	for _, tt := range tests {
		t.Run(tt.behavior+" "+http.StatusText(tt.code), func(t *testing.T) {
			t.Parallel()
			const msg = "The model says no."
			// google-genai's APIError: the status, then the error answer
			// as Python prints it; after ADK's hint for a 429.
			wantMsg := itoa(tt.code) + " " + tt.status + ". {'error': {'code': " + itoa(tt.code) +
				", 'message': '" + msg + "', 'status': '" + tt.status + "'}}"
			if tt.code == 429 {
				wantMsg = "\nOn how to mitigate this issue, please refer to:\n\nhttps://google.github.io/adk-docs/agents/models/" +
					"google-gemini/#error-code-429-resource_exhausted\n\n\n" + wantMsg
			}
			s := newGeminiStackBehavior(t, tt.behavior)
			modelErr := fakegemini.Item{Error: &fakegemini.APIError{Code: tt.code, Message: msg}}

			// gRPC Run.
			sid := s.newSession(t)
			s.enqueue(t, modelErr)
			events, err := s.run(t.Context(), sid, "hi", false)
			if got := infoOf(err); got.Code != tt.grpcCode || got.Message != msg || got.Reason != "MODEL_ERROR" {
				t.Errorf("Run status = %+v, want %v %q MODEL_ERROR", got, tt.grpcCode, msg)
			}
			stored := s.storedEvents(t, sid)
			if tt.behavior == "1.x" {
				if len(events) != 0 || len(stored) != 1 {
					t.Errorf("1.x: streamed %v, stored %d events, want nothing and the user's message", events, len(stored))
				}
			} else {
				if len(events) != 1 || !isErrorEvent(events[0], tt.status, wantMsg) {
					t.Fatalf("Run events = %v, want chat_agent's error event %s %q", events, tt.status, wantMsg)
				}
				if len(stored) != 2 || stored[1].Id != events[0].Id || !isErrorEvent(stored[1], tt.status, wantMsg) {
					t.Errorf("stored = %v, want the user's message then the error event", stored)
				}
			}

			// REST /run_sse.
			sid = s.newSession(t)
			s.enqueue(t, modelErr)
			code, body := postRun(t, s.httpURL+"/run_sse", sid)
			frames := strings.Split(strings.TrimSpace(string(body)), "\n\n")
			if tt.behavior == "1.x" {
				// ADK 1.x: {"error": str(exception)}, nothing stored.
				want := `data: {"error": ` + string(jsonText(wantMsg)) + `}`
				if code != http.StatusOK || len(frames) != 1 || frames[0] != want {
					t.Errorf("/run_sse: %d %q, want 200 and %q", code, body, want)
				}
				if stored := s.storedEvents(t, sid); len(stored) != 1 {
					t.Errorf("after /run_sse stored = %v, want the user's message", stored)
				}
				return
			}
			if code != http.StatusOK || len(frames) != 2 {
				t.Fatalf("/run_sse: %d %q, want 200 with an event frame and an error frame", code, body)
			}
			var ev struct {
				Author       string `json:"author"`
				ErrorCode    string `json:"errorCode"`
				ErrorMessage string `json:"errorMessage"`
				ID           string `json:"id"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(frames[0], "data: ")), &ev); err != nil ||
				ev.Author != "chat_agent" || ev.ErrorCode != tt.status || ev.ErrorMessage != wantMsg || ev.ID == "" {
				t.Errorf("/run_sse first frame %q (%v), want the error event", frames[0], err)
			}
			// ADK 2.x's error frame: the exception's class and text, and
			// error_details.
			var final struct {
				Error   string `json:"error"`
				Details struct {
					Type      string  `json:"error_type"`
					Message   string  `json:"error_message"`
					Timestamp float64 `json:"timestamp"`
				} `json:"error_details"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(frames[1], "data: ")), &final); err != nil ||
				final.Error != tt.pyType+": "+wantMsg || final.Details.Type != tt.pyType || final.Details.Message != wantMsg ||
				final.Details.Timestamp == 0 {
				t.Errorf("/run_sse last frame %q (%v), want %s and google-genai's text with error_details", frames[1], err, tt.pyType)
			}
			if stored := s.storedEvents(t, sid); len(stored) != 2 || stored[1].Id != ev.ID {
				t.Errorf("after /run_sse stored = %v, want the user's message then the error event", stored)
			}
		})
	}
}

// jsonText is s as a JSON string, <, > and & as they are.
func jsonText(s string) []byte {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return []byte(strings.TrimSuffix(b.String(), "\n"))
}

func isErrorEvent(ev *v1.Event, code, msg string) bool {
	return ev.Author == "chat_agent" && ev.ErrorCode == code && ev.ErrorMessage == msg && ev.Content == nil && ev.Id != ""
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func (s *geminiStack) storedEvents(t *testing.T, sid string) []*v1.Event {
	t.Helper()
	resp, err := s.sessions.GetSession(t.Context(), &api.GetSessionRequest{AppName: geminiApp, UserId: userID, SessionId: sid})
	if err != nil {
		t.Fatalf("GetSession: %v", err)
	}
	return resp.Session.Events
}
