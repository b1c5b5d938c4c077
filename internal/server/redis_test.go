package server_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions/redis"
)

// newRedisStack is newStack over the Redis of AGENTSVC_TEST_REDIS (see
// scripts/with-redis.sh); it skips the test without one.
func newRedisStack(t *testing.T) *stack {
	t.Helper()
	url := os.Getenv("AGENTSVC_TEST_REDIS")
	if url == "" {
		t.Skip("AGENTSVC_TEST_REDIS is not set; run under scripts/with-redis.sh")
	}
	store, err := redis.New(url, redis.Options{KeyPrefix: "servertest:" + uuid.NewString() + ":"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return &stack{newFixture(t, withStore(store), withConfig(func(cfg *server.Config) { cfg.ToolTimeout = time.Minute }))}
}

// TestConnectClientGoneOverRedis drops a Connect client mid tool call over
// Redis: the stored session holds the call and its error response, and a
// retry of the run with its request id continues the invocation with a
// valid model request and one user message.
func TestConnectClientGoneOverRedis(t *testing.T) {
	t.Parallel()
	s := newRedisStack(t)
	ctx := testContext(t)
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	start := startMsg(sid, "Weather?", weatherTool)
	start.GetStart().Run.RequestId = "req-1"
	streamCtx, cancel := context.WithCancel(ctx)
	stream := s.connect(t, streamCtx, start)
	recvUntil(t, stream, isToolCall)
	cancel()
	if _, err := recvAll(stream); status.Code(err) != codes.Canceled {
		t.Errorf("dropped client: %v, want CANCELLED", err)
	}
	s.waitIdle(t)
	closed := `get_weather{"error":"The tool call was not completed: the invocation was cancelled."}`
	want := []string{"user: Weather?", `desk_agent: call get_weather{"city":"Paris"}`, "desk_agent: response " + closed}
	if d := cmp.Diff(want, s.storedEvents(t, ctx, sid)); d != "" {
		t.Errorf("stored events (-want +got):\n%s", d)
	}

	s.model.Enqueue(et.Text("I could not get the weather."))
	if _, err := s.run(ctx, runRequest(sid, "Weather?", "req-1")); err != nil {
		t.Fatal(err)
	}
	reqs := s.model.Requests()
	wantReq := []string{"user: Weather?", `model: call get_weather{"city":"Paris"}`, "user: response " + closed}
	if d := cmp.Diff(wantReq, et.Contents(reqs[len(reqs)-1].Contents)); d != "" {
		t.Errorf("model request of the retry (-want +got):\n%s", d)
	}
	if n := userMessages(s.session(t, ctx, sid).Events); n != 1 {
		t.Errorf("stored user messages = %d, want 1", n)
	}
}
