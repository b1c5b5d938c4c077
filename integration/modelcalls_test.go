package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// endlessChunk is what a model that streams forever repeats: about 1 KB.
var endlessChunk = `{"candidates":[{"content":{"role":"model","parts":[{"text":"` + strings.Repeat("and so on ", 100) + `"}]}}]}`

// wireStatus is what a gRPC status tells a caller.
type wireStatus struct {
	Code     codes.Code
	Message  string
	Reason   string
	Metadata map[string]string
}

func wireStatusOf(err error) wireStatus {
	st := status.Convert(err)
	ws := wireStatus{Code: st.Code(), Message: st.Message()}
	for _, d := range st.Details() {
		if ei, ok := d.(*errdetails.ErrorInfo); ok {
			ws.Reason, ws.Metadata = ei.Reason, ei.Metadata
		}
	}
	return ws
}

// runWeather runs text on a session of the weather app over gRPC and returns
// the events and the final status; sse asks for partial events.
func (s *stack) runWeather(ctx context.Context, user, sid, text string, sse bool) ([]*v1.Event, error) {
	mode := api.StreamingMode_STREAMING_MODE_NONE
	if sse {
		mode = api.StreamingMode_STREAMING_MODE_SSE
	}
	return runEvents(ctx, s.conn, &api.RunRequest{AppName: "weather", UserId: user, SessionId: sid,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}, RunConfig: &api.RunConfig{StreamingMode: mode}})
}

func (s *stack) weatherSession(t *testing.T, ctx context.Context, user string) string {
	t.Helper()
	resp, err := api.NewSessionServiceClient(s.conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: "weather", UserId: user})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Session.Id
}

// wantSessionUsable runs once more on the session and checks the answer.
func (s *stack) wantSessionUsable(t *testing.T, ctx context.Context, user, sid string) {
	t.Helper()
	events, err := s.runWeather(ctx, user, sid, "still there?", false)
	if err != nil {
		t.Fatalf("next run on the session: %v", err)
	}
	if n := len(events); n == 0 || events[n-1].GetContent().GetParts()[0].GetText() != "Echo: still there?" {
		t.Errorf("next run yielded %v, want the echo", events)
	}
}

// TestHungModelTimesOut: a model that never answers fails the invocation
// after --model-timeout with the model's DEADLINE_EXCEEDED; the session's
// lease is free at once and the session runs again.
func TestHungModelTimesOut(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"weather": weatherAgent}, "--model-timeout", "2s")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	for _, sse := range []bool{false, true} {
		sid := s.weatherSession(t, ctx, "u")
		s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{{Hang: true}}})
		_, err := s.runWeather(ctx, "u", sid, "hello?", sse)
		want := wireStatus{codes.DeadlineExceeded, "model call timed out after 2s", "MODEL_ERROR",
			map[string]string{"model_status": "DEADLINE_EXCEEDED"}}
		if diff := cmp.Diff(want, wireStatusOf(err)); diff != "" {
			t.Errorf("sse %v: status (-want +got):\n%s", sse, diff)
		}
		s.wantSessionUsable(t, ctx, "u", sid)
	}
}

// TestEndlessModelIsCutOff: a model that streams without end is cut at the
// byte cap (unary and streamed) or the chunk cap, over gRPC and /run_sse,
// and the session runs again.
func TestEndlessModelIsCutOff(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"weather": weatherAgent},
		"--max-model-response-bytes", "65536", "--max-model-chunks", "500")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	// 500 small chunks (about 80 bytes each) stay under 64 KiB, 500 of
	// endlessChunk do not: the chunk cap comes first with one, the byte cap
	// with the other.
	small := `{"candidates":[{"content":{"role":"model","parts":[{"text":"."}]}}]}`
	tests := []struct {
		name    string
		chunk   string
		sse     bool
		message string
	}{
		{"bytes unary", endlessChunk, false, "model response exceeded 65536 bytes"},
		{"bytes sse", endlessChunk, true, "model response exceeded 65536 bytes"},
		{"chunks sse", small, true, "model response exceeded 500 chunks"},
	}
	for _, tt := range tests {
		sid := s.weatherSession(t, ctx, "u")
		s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{{Chunks: []any{json.RawMessage(tt.chunk)}, Forever: true}}})
		_, err := s.runWeather(ctx, "u", sid, "tell me everything", tt.sse)
		want := wireStatus{codes.ResourceExhausted, tt.message, "MODEL_ERROR", map[string]string{"model_status": "RESOURCE_EXHAUSTED"}}
		if diff := cmp.Diff(want, wireStatusOf(err)); diff != "" {
			t.Errorf("%s: status (-want +got):\n%s", tt.name, diff)
		}
		s.wantSessionUsable(t, ctx, "u", sid)
	}

	// /run_sse: the partial frames, then ADK's error frame.
	sid := s.weatherSession(t, ctx, "u")
	s.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{{Chunks: []any{json.RawMessage(endlessChunk)}, Forever: true}}})
	code, frames := postRunSSE(t, s.httpURL, sid, "tell me everything")
	if code != http.StatusOK || len(frames) < 2 {
		t.Fatalf("/run_sse: status %d with %d frames, want 200 with partial events and the error", code, len(frames))
	}
	if want, last := `{"error": "model response exceeded 65536 bytes"}`, frames[len(frames)-1]; last != want {
		t.Errorf("/run_sse last frame %s, want %s", last, want)
	}
}

// postRunSSE posts an ADK /run_sse body and returns the status and the data
// of every frame (or the body, for a status other than 200).
func postRunSSE(t *testing.T, base, sid, text string) (int, []string) {
	t.Helper()
	body := `{"appName":"weather","userId":"u","sessionId":"` + sid + `","streaming":true,
		"newMessage":{"role":"user","parts":[{"text":"` + text + `"}]}}`
	resp, err := http.Post(base+"/run_sse", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, []string{string(b)}
	}
	var frames []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			frames = append(frames, data)
		}
	}
	return resp.StatusCode, frames
}

// TestModelErrorsReachCallers: a model's own error keeps its message and
// maps to a code the caller can act on over gRPC; /run_sse answers it as
// ADK's API server does.
func TestModelErrorsReachCallers(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"weather": weatherAgent})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	tests := []struct {
		code    int
		message string
		want    codes.Code
	}{
		{400, "Invalid JSON payload received.", codes.FailedPrecondition},
		{429, "Resource has been exhausted (e.g. check quota).", codes.ResourceExhausted},
		{500, "An internal error has occurred.", codes.Unavailable},
	}
	for _, tt := range tests {
		// A rule answers the retries of 429 and 5xx alike.
		text := "fail with " + http.StatusText(tt.code)
		s.postScript(t, fakegemini.Script{Rules: []fakegemini.Rule{{Contains: text,
			Item: fakegemini.Item{Error: &fakegemini.APIError{Code: tt.code, Message: tt.message}}}}})
		sid := s.weatherSession(t, ctx, "u")
		_, err := s.runWeather(ctx, "u", sid, text, false)
		got := wireStatusOf(err)
		if got.Code != tt.want || got.Message != tt.message || got.Reason != "MODEL_ERROR" || got.Metadata["http_status"] != itoa(tt.code) {
			t.Errorf("HTTP %d: Run status %+v, want %v %q MODEL_ERROR http_status %d", tt.code, got, tt.want, tt.message, tt.code)
		}
		// /run_sse answers as ADK's API server: 200, then the error frame
		// with str() of google-genai's error.
		code, frames := postRunSSE(t, s.httpURL, sid, text)
		var frame struct {
			Error string `json:"error"`
		}
		if len(frames) == 1 {
			_ = json.Unmarshal([]byte(frames[0]), &frame)
		}
		if code != http.StatusOK || !strings.Contains(frame.Error, itoa(tt.code)+" ") || !strings.Contains(frame.Error, "'message': '"+tt.message+"'") {
			t.Errorf("HTTP %d: /run_sse answered %d %q, want 200 and the error frame with google-genai's text", tt.code, code, frames)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestHungModelReleasesItsRedisLease: with Redis, an invocation whose
// model hangs (and whose caller waits forever) ends at --max-invocation-time
// and gives the session's lease up: another replica runs on the session at
// once.
func TestHungModelReleasesItsRedisLease(t *testing.T) {
	t.Parallel()
	forEachSharedRedis(t, hungModelReleasesItsRedisLease)
}

func hungModelReleasesItsRedisLease(t *testing.T, url string) {
	apps := map[string]string{"weather": weatherAgent}
	a := startStack(t, apps, "--sessions", url, "--model-timeout", "1h", "--max-invocation-time", "1s")
	b := startStack(t, apps, "--sessions", url)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	user := "hung-" + randomHex(t)
	sid := a.weatherSession(t, ctx, user)
	deleteSessionAfter(t, a, "weather", user, sid)
	a.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{{Hang: true}}})
	start := time.Now()
	// The caller waits far longer than the invocation may take.
	_, err := a.runWeather(ctx, user, sid, "hello?", true)
	want := wireStatus{codes.DeadlineExceeded, "invocation exceeded its maximum time of 1s", "INVOCATION_TIMEOUT", nil}
	if diff := cmp.Diff(want, wireStatusOf(err)); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("the invocation took %v, want about 1s", d)
	}
	b.wantSessionUsable(t, ctx, user, sid)
}
