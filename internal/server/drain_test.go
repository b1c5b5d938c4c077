package server_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// replica is one server of the desk app on a given store, over bufconn,
// with its REST handler.
type replica struct {
	*fixture
	http http.Handler
}

// newReplica serves the desk app on store with cfg; cfg's apps, sessions
// and logger are the fixture's.
func newReplica(t *testing.T, store sessions.Service, cfg server.Config) *replica {
	t.Helper()
	fx := newFixture(t, withStore(store), withConfig(func(c *server.Config) {
		apps, sessions, logger := c.Apps, c.Sessions, c.Logger
		*c = cfg
		c.Apps, c.Sessions, c.Logger = apps, sessions, logger
	}))
	return &replica{fixture: fx, http: fx.handler(t)}
}

func (r *replica) run(ctx context.Context, sid, text string) ([]*v1.Event, error) {
	return r.fixture.run(ctx, &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid,
		NewMessage: &v1.Content{Parts: []*v1.Part{{Text: text}}}})
}

// checkStatus fails unless err is a status with code and ErrorInfo reason,
// and a message containing msg.
func checkStatus(t *testing.T, err error, code codes.Code, reason, msg string) {
	t.Helper()
	st := status.Convert(err)
	if st.Code() != code || !strings.Contains(st.Message(), msg) {
		t.Fatalf("status = %v %q, want %v containing %q", st.Code(), st.Message(), code, msg)
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.Reason == reason {
			return
		}
	}
	t.Errorf("status details %v lack ErrorInfo reason %s", st.Details(), reason)
}

func TestDrainRefusesNewInvocations(t *testing.T) {
	t.Parallel()
	r := newReplica(t, memory.New(), server.Config{})
	ctx := t.Context()
	created, err := r.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	sid := created.Session.Id
	r.srv.Drain()

	_, err = r.run(ctx, sid, "hi")
	checkStatus(t, err, codes.Unavailable, "SHUTTING_DOWN", "server is shutting down")

	body := `{"appName":"desk","userId":"u1","sessionId":"` + sid + `","newMessage":{"parts":[{"text":"hi"}]}}`
	for _, path := range []string{"/run", "/run_sse"} {
		req := httptest.NewRequestWithContext(ctx, "POST", "http://127.0.0.1"+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		r.http.ServeHTTP(w, req)
		if w.Code != http.StatusServiceUnavailable || !strings.Contains(w.Body.String(), "server is shutting down") {
			t.Errorf("POST %s while draining: %d %s, want 503", path, w.Code, w.Body)
		}
	}
	// Nothing was stored, and reads are still served.
	got, err := r.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
	if err != nil || len(got.Session.Events) != 0 {
		t.Errorf("GetSession while draining: %v, %d events; want OK and none", err, len(got.GetSession().GetEvents()))
	}
	if r.model.Calls() != 0 {
		t.Errorf("the model was called %d times while draining", r.model.Calls())
	}
}

// TestForcedStopReleasesLeases stops a replica whose invocation waits on a
// client tool: the invocation ends with UNAVAILABLE and its lease is given
// back before the store closes, so that another replica on the same Redis
// runs on the session at once instead of answering ABORTED until the lease
// expires.
func TestForcedStopReleasesLeases(t *testing.T) {
	t.Parallel()
	url := os.Getenv("AGENTSVC_TEST_REDIS")
	if url == "" {
		t.Skip("AGENTSVC_TEST_REDIS is not set; run under scripts/with-redis.sh")
	}
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	prefix := "test-" + hex.EncodeToString(b)
	open := func() *redis.Service {
		s, err := redis.New(url, redis.Options{KeyPrefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	store1, store2 := open(), open()
	t.Cleanup(func() { _ = store2.Close() })
	cfg := server.Config{LeaseTTL: time.Minute, ToolTimeout: time.Minute}
	first, second := newReplica(t, store1, cfg), newReplica(t, store2, cfg)

	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	created, err := first.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	sid := created.Session.Id
	t.Cleanup(func() { _ = store2.Delete(context.WithoutCancel(ctx), appName, userID, sid) })
	first.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	stream := first.connect(t, ctx, startMsg(sid, "weather?", weatherTool))
	recvUntil(t, stream, isToolCall)
	if _, err := second.run(ctx, sid, "busy?"); status.Code(err) != codes.Aborted {
		t.Fatalf("run on the second replica while the first runs: %v, want ABORTED", err)
	}

	stopCtx, stopCancel := context.WithTimeout(ctx, 5*time.Second)
	defer stopCancel()
	if err := first.srv.Stop(stopCtx); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := store1.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = recvAll(stream)
	checkStatus(t, err, codes.Unavailable, "SHUTTING_DOWN", "server is shutting down")

	second.model.Enqueue(et.Text("Hello from the second replica."))
	events, err := second.run(ctx, sid, "still there?")
	if err != nil {
		t.Fatalf("run on the second replica right after the first stopped: %v", err)
	}
	if len(events) != 1 || events[0].GetContent().GetParts()[0].GetText() != "Hello from the second replica." {
		t.Errorf("events = %v", et.Events(events))
	}
}

func TestSessionTooLarge(t *testing.T) {
	t.Parallel()
	store := memory.New(memory.WithLimits(sessions.Limits{MaxEvents: 2}))
	r := newReplica(t, store, server.Config{})
	ctx := t.Context()
	created, err := r.sessions.CreateSession(ctx, &api.CreateSessionRequest{AppName: appName, UserId: userID})
	if err != nil {
		t.Fatal(err)
	}
	sid := created.Session.Id
	r.model.Enqueue(et.Text("one"), et.Text("two"))
	if _, err := r.run(ctx, sid, "first"); err != nil {
		t.Fatal(err)
	}
	_, err = r.run(ctx, sid, "second")
	checkStatus(t, err, codes.ResourceExhausted, "SESSION_TOO_LARGE", "session is too large")
	_, err = r.sessions.UpdateSessionState(ctx, &api.UpdateSessionStateRequest{AppName: appName, UserId: userID,
		SessionId: sid, StateDelta: et.Struct(`{"k":"v"}`)})
	checkStatus(t, err, codes.ResourceExhausted, "SESSION_TOO_LARGE", "session is too large")
	got, err := r.sessions.GetSession(ctx, &api.GetSessionRequest{AppName: appName, UserId: userID, SessionId: sid})
	if err != nil || len(got.Session.Events) != 2 {
		t.Fatalf("GetSession: %v, %d events; want the 2 stored", err, len(got.GetSession().GetEvents()))
	}
}
