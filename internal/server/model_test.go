package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

const geminiApp = "chat"

// geminiStack is an in-process server over bufconn and httptest running one
// agent on the real Gemini adapter, which talks to a fake Gemini server.
type geminiStack struct {
	*fixture
	fake    *fakegemini.Server
	httpURL string
}

func newGeminiStack(t *testing.T, gcfg gemini.Config, maxInvocation time.Duration) *geminiStack {
	t.Helper()
	return newGeminiStackOn(t, memory.New(), gcfg, maxInvocation)
}

// newGeminiStackOn is newGeminiStack on the given session store.
func newGeminiStackOn(t *testing.T, store sessions.Service, gcfg gemini.Config, maxInvocation time.Duration) *geminiStack {
	t.Helper()
	fake := fakegemini.New(fakegemini.WithLogger(slog.New(slog.DiscardHandler)))
	modelSrv := httptest.NewServer(fake.Handler())
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		modelSrv.Close()
	})
	gcfg.BaseURL, gcfg.APIKey = modelSrv.URL, "test-key"
	gcfg.HTTPClient = &http.Client{Transport: transport}
	if gcfg.Retry.MaxAttempts == 0 {
		gcfg.Retry = retry.Config{MaxAttempts: 1}
	}
	provider, err := gemini.New(t.Context(), gcfg)
	if err != nil {
		t.Fatal(err)
	}
	fx := newFixture(t, withApp(fstest.MapFS{
		geminiApp + "/root_agent.yaml": {Data: []byte("name: chat_agent\nmodel: gemini-2.5-flash\ninstruction: Be brief.\n")},
	}), withStore(store), withModels(provider),
		withConfig(func(cfg *server.Config) { cfg.MaxInvocationTime = maxInvocation }))
	return &geminiStack{fixture: fx, fake: fake, httpURL: fx.serveHTTP(t).URL}
}

func (s *geminiStack) newSession(t *testing.T) string {
	t.Helper()
	resp, err := s.sessions.CreateSession(t.Context(), &api.CreateSessionRequest{AppName: geminiApp, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Session.Id
}

func (s *geminiStack) enqueue(t *testing.T, items ...fakegemini.Item) {
	t.Helper()
	if err := s.fake.Enqueue(items...); err != nil {
		t.Fatal(err)
	}
}

// run runs text on the session over gRPC and returns the events and the
// final status.
func (s *geminiStack) run(ctx context.Context, sid, text string, sse bool) ([]*v1.Event, error) {
	mode := api.StreamingMode_STREAMING_MODE_NONE
	if sse {
		mode = api.StreamingMode_STREAMING_MODE_SSE
	}
	return s.fixture.run(ctx, &api.RunRequest{AppName: geminiApp, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}},
		RunConfig:  &api.RunConfig{StreamingMode: mode}})
}

// wantUsable checks that the session runs again and holds both turns.
func (s *geminiStack) wantUsable(t *testing.T, sid string) {
	t.Helper()
	events, err := s.run(t.Context(), sid, "again", false)
	if err != nil {
		t.Fatalf("next run on the session: %v", err)
	}
	if got := events[len(events)-1].GetContent().GetParts()[0].GetText(); got != "Echo: again" {
		t.Errorf("next run answered %q, want the echo", got)
	}
	resp, err := s.sessions.GetSession(t.Context(), &api.GetSessionRequest{AppName: geminiApp, UserId: userID, SessionId: sid})
	if err != nil {
		t.Fatalf("GetSession: %v", err)
	}
	if n := len(resp.Session.Events); n < 3 {
		t.Errorf("session holds %d events, want the failed turn's user message and the next turn", n)
	}
}

// statusInfo is what a status tells a caller.
type statusInfo struct {
	Code     codes.Code
	Message  string
	Reason   string
	Metadata map[string]string
}

func infoOf(err error) statusInfo {
	st := status.Convert(err)
	si := statusInfo{Code: st.Code(), Message: st.Message()}
	for _, d := range st.Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			si.Reason, si.Metadata = ei.Reason, ei.Metadata
		}
	}
	return si
}

func TestModelErrorsReachTheCaller(t *testing.T) {
	t.Parallel()
	tests := []struct {
		code     int
		want     statusInfo
		wantHTTP int
	}{
		{400, statusInfo{codes.FailedPrecondition, "Request contains an invalid argument.", "MODEL_ERROR",
			map[string]string{"http_status": "400", "model_status": "INVALID_ARGUMENT"}}, http.StatusBadRequest},
		{429, statusInfo{codes.ResourceExhausted, "Resource has been exhausted (e.g. check quota).", "MODEL_ERROR",
			map[string]string{"http_status": "429", "model_status": "RESOURCE_EXHAUSTED"}}, http.StatusTooManyRequests},
		{500, statusInfo{codes.Unavailable, "An internal error has occurred.", "MODEL_ERROR",
			map[string]string{"http_status": "500", "model_status": "INTERNAL"}}, http.StatusServiceUnavailable},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.code), func(t *testing.T) {
			t.Parallel()
			s := newGeminiStack(t, gemini.Config{}, 0)
			modelErr := fakegemini.Item{Error: &fakegemini.APIError{Code: tt.code, Message: tt.want.Message}}

			// gRPC Run.
			sid := s.newSession(t)
			s.enqueue(t, modelErr)
			_, err := s.run(t.Context(), sid, "hi", false)
			if diff := cmp.Diff(tt.want, infoOf(err)); diff != "" {
				t.Errorf("Run status (-want +got):\n%s", diff)
			}

			// REST /run answers the gateway's error; /run_sse answers 200
			// and ADK 1.x's error frame (TestModelErrorEventProfile).
			for _, route := range []string{"/run"} {
				s.enqueue(t, modelErr)
				code, body := postRun(t, s.httpURL+route, sid)
				var got struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
					Details []struct {
						Reason   string            `json:"reason"`
						Metadata map[string]string `json:"metadata"`
					} `json:"details"`
				}
				if err := json.Unmarshal(body, &got); err != nil {
					t.Fatalf("%s: body %s: %v", route, body, err)
				}
				if code != tt.wantHTTP || got.Code != int(tt.want.Code) || got.Message != tt.want.Message ||
					len(got.Details) != 1 || got.Details[0].Reason != "MODEL_ERROR" || !cmp.Equal(got.Details[0].Metadata, tt.want.Metadata) {
					t.Errorf("%s: %d %s, want %d with code %d, the model's message and MODEL_ERROR", route, code, body, tt.wantHTTP, tt.want.Code)
				}
			}
		})
	}
}

func postRun(t *testing.T, url, sid string) (int, []byte) {
	t.Helper()
	code, body := postJSON(t, url, `{"appName":"`+geminiApp+`","userId":"`+userID+`","sessionId":"`+sid+
		`","newMessage":{"role":"user","parts":[{"text":"hi"}]},"streaming":true}`)
	return code, []byte(body)
}

func TestRunSSEModelErrorAfterTheFirstFrame(t *testing.T) {
	t.Parallel()
	s := newGeminiStack(t, gemini.Config{}, 0)
	sid := s.newSession(t)
	s.enqueue(t, fakegemini.Stream(
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"par"}]}}]}`,
		`{"error":{"code":503,"message":"The model is \"overloaded\" <now> & later.","status":"UNAVAILABLE"}}`,
	))
	code, body := postRun(t, s.httpURL+"/run_sse", sid)
	if code != http.StatusOK {
		t.Fatalf("status %d %s, want 200", code, body)
	}
	var frames []string
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			frames = append(frames, data)
		}
	}
	if len(frames) != 2 || !strings.Contains(frames[0], `"par"`) {
		t.Fatalf("frames %q, want the partial event then the error", frames)
	}
	// ADK's frame, as valid JSON: str() of google-genai's error (the
	// status and the model's message: the error chunk is not kept).
	if want := `{"error": "503 UNAVAILABLE. The model is \"overloaded\" <now> & later."}`; frames[1] != want {
		t.Errorf("last frame %s, want %s", frames[1], want)
	}
}

func TestHungModelFailsAfterTheModelTimeout(t *testing.T) {
	t.Parallel()
	for _, sse := range []bool{false, true} {
		t.Run(map[bool]string{false: "unary", true: "sse"}[sse], func(t *testing.T) {
			t.Parallel()
			s := newGeminiStack(t, gemini.Config{Timeout: time.Second}, 0)
			sid := s.newSession(t)
			s.enqueue(t, fakegemini.Item{Hang: true})
			_, err := s.run(t.Context(), sid, "hi", sse)
			want := statusInfo{codes.DeadlineExceeded, "model call timed out after 1s", "MODEL_ERROR",
				map[string]string{"model_status": "DEADLINE_EXCEEDED"}}
			if diff := cmp.Diff(want, infoOf(err)); diff != "" {
				t.Errorf("Run status (-want +got):\n%s", diff)
			}
			// The lease is free and the session whole.
			s.wantUsable(t, sid)
		})
	}
}

func TestHungModelEndsAtTheMaxInvocationTime(t *testing.T) {
	t.Parallel()
	s := newGeminiStack(t, gemini.Config{Timeout: time.Hour}, 2*time.Second)
	sid := s.newSession(t)
	s.enqueue(t, fakegemini.Item{Hang: true})
	// The caller waits far longer than the invocation may take.
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	_, err := s.run(ctx, sid, "hi", true)
	want := statusInfo{codes.DeadlineExceeded, "invocation exceeded its maximum time of 2s", "INVOCATION_TIMEOUT", nil}
	if diff := cmp.Diff(want, infoOf(err)); diff != "" {
		t.Errorf("Run status (-want +got):\n%s", diff)
	}
	s.wantUsable(t, sid)
}

func TestEndlessModelIsCutOff(t *testing.T) {
	t.Parallel()
	chunk := `{"candidates":[{"content":{"role":"model","parts":[{"text":"on and on "}]}}]}`
	tests := []struct {
		name    string
		cfg     gemini.Config
		sse     bool
		message string
	}{
		{"bytes unary", gemini.Config{MaxResponseBytes: 32 << 10}, false, "model response exceeded 32768 bytes"},
		{"bytes sse", gemini.Config{MaxResponseBytes: 32 << 10, MaxChunks: -1}, true, "model response exceeded 32768 bytes"},
		{"chunks sse", gemini.Config{MaxChunks: 20}, true, "model response exceeded 20 chunks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newGeminiStack(t, tt.cfg, 0)
			sid := s.newSession(t)
			s.enqueue(t, fakegemini.Item{Chunks: []any{chunk}, Forever: true})
			_, err := s.run(t.Context(), sid, "hi", tt.sse)
			want := statusInfo{codes.ResourceExhausted, tt.message, "MODEL_ERROR",
				map[string]string{"model_status": "RESOURCE_EXHAUSTED"}}
			if diff := cmp.Diff(want, infoOf(err)); diff != "" {
				t.Errorf("Run status (-want +got):\n%s", diff)
			}
			s.wantUsable(t, sid)
		})
	}
}

// leaseRecorder is a session store that records the deadline of the
// context each lease is taken with.
type leaseRecorder struct {
	sessions.Service
	deadlines chan time.Time
}

func (r *leaseRecorder) Lease(ctx context.Context, appName, userID, sessionID, owner string, ttl time.Duration) (sessions.Lease, error) {
	d, _ := ctx.Deadline()
	r.deadlines <- d
	return r.Service.Lease(ctx, appName, userID, sessionID, owner, ttl)
}

func TestLeaseIsBoundedByTheInvocationDeadline(t *testing.T) {
	t.Parallel()
	store := &leaseRecorder{Service: memory.New(), deadlines: make(chan time.Time, 1)}
	s := newGeminiStackOn(t, store, gemini.Config{}, time.Minute)
	sid := s.newSession(t)
	start := time.Now()
	// The caller sets no deadline; the lease's keep-alive still ends.
	if _, err := s.run(context.WithoutCancel(t.Context()), sid, "hi", false); err != nil {
		t.Fatal(err)
	}
	d := <-store.deadlines
	if d.IsZero() || d.Before(start.Add(time.Minute-time.Second)) || d.After(time.Now().Add(time.Minute)) {
		t.Errorf("lease taken with deadline %v, want the invocation's, a minute after %v", d, start)
	}
}
