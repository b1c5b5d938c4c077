package integration

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

// maxTakeover is how long, with the default flags, a session may stay busy
// after the replica running an invocation on it was killed: the lease's
// ttl (5s) and a second for the other replica's polling and its run.
const maxTakeover = 6 * time.Second

// TestCrashedReplicaSessionIsTakenOver kills a replica with SIGKILL while
// its invocation waits on a model that never answers: the other replica,
// asked again and again by a client as soon as it answers busy, serves the
// session within maxTakeover of the kill, with the default flags.
func TestCrashedReplicaSessionIsTakenOver(t *testing.T) {
	t.Parallel()
	forEachSharedRedis(t, crashedReplicaSessionIsTakenOver)
}

// hungRun is an invocation through replica a, on a session shared with
// replica b, that waits on a model that never answers.
type hungRun struct {
	a, b      *stack
	user, sid string
	// ended receives the invocation's final status.
	ended chan error
}

// startHungRun starts two replicas on the store at url and, under runCtx, an
// invocation through the first whose model hangs; it returns once the
// invocation called the model, holding the session's lease since before.
func startHungRun(t *testing.T, ctx, runCtx context.Context, url, text string) *hungRun {
	t.Helper()
	apps := map[string]string{"weather": weatherAgent}
	h := &hungRun{a: startStack(t, apps, "--sessions", url), b: startStack(t, apps, "--sessions", url),
		user: "lease-" + randomHex(t), ended: make(chan error, 1)}
	h.sid = h.a.weatherSession(t, ctx, h.user)
	deleteSessionAfter(t, h.b, "weather", h.user, h.sid)
	h.a.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{{Hang: true}}})
	go func() {
		_, err := h.a.runWeather(runCtx, h.user, h.sid, text, false)
		h.ended <- err
	}()
	waitUntil(t, func() bool { return len(h.a.modelRequests(t)) > 0 })
	return h
}

func crashedReplicaSessionIsTakenOver(t *testing.T, url string) {
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()
	h := startHungRun(t, ctx, ctx, url, "before the crash")
	a, b, user, sid := h.a, h.b, h.user, h.sid
	if err := a.svc.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if err := <-h.ended; status.Code(err) != codes.Unavailable {
		t.Errorf("the invocation on the killed replica ended with %v, want UNAVAILABLE", err)
	}

	var busy int
	for {
		_, err := b.runWeather(ctx, user, sid, "after the crash", false)
		if err == nil {
			break
		}
		if status.Code(err) != codes.Aborted || statusReason(err) != "SESSION_BUSY" {
			t.Fatalf("run on the other replica %v after the kill: %v, want success or SESSION_BUSY", time.Since(killed), err)
		}
		busy++
		if time.Since(killed) > 3*maxTakeover {
			t.Fatalf("the session is still busy %v after its replica was killed", time.Since(killed).Round(time.Millisecond))
		}
	}
	took := time.Since(killed)
	t.Logf("the other replica served the session %v after the kill (%d runs refused as busy before)", took.Round(time.Millisecond), busy)
	if took > maxTakeover {
		t.Errorf("takeover took %v, want at most %v", took.Round(time.Millisecond), maxTakeover)
	}
	// The killed invocation stored its user message, not its answer.
	sess, err := api.NewSessionServiceClient(b.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "weather", UserId: user, SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, ev := range sess.Session.GetEvents() {
		texts = append(texts, ev.GetAuthor()+": "+ev.GetContent().GetParts()[0].GetText())
	}
	want := []string{"user: before the crash", "user: after the crash", "weather_agent: Echo: after the crash"}
	if diff := cmp.Diff(want, texts); diff != "" {
		t.Errorf("history (-want +got):\n%s", diff)
	}
}

// defaultBusyWait is --session-busy-wait's default.
const defaultBusyWait = 2 * time.Second

// TestRunOnABusySessionWaitsBriefly runs on a session through one replica
// while the other runs an invocation on it that waits on a hung model:
// refused as busy once the default busy wait is over; then, as soon as the
// first client gives up, a run through the other replica succeeds instead
// of finding the ending invocation's lease.
func TestRunOnABusySessionWaitsBriefly(t *testing.T) {
	t.Parallel()
	forEachSharedRedis(t, runOnABusySessionWaitsBriefly)
}

func runOnABusySessionWaitsBriefly(t *testing.T, url string) {
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	first, giveUp := context.WithCancel(ctx)
	defer giveUp()
	h := startHungRun(t, ctx, first, url, "hello?")
	b, user, sid := h.b, h.user, h.sid

	start := time.Now()
	_, err := b.runWeather(ctx, user, sid, "me too?", false)
	took := time.Since(start)
	if status.Code(err) != codes.Aborted || statusReason(err) != "SESSION_BUSY" {
		t.Errorf("run while another runs: %v, want ABORTED (SESSION_BUSY)", err)
	}
	if took < defaultBusyWait || took > defaultBusyWait+3*time.Second {
		t.Errorf("refused as busy after %v, want about %v", took.Round(time.Millisecond), defaultBusyWait)
	}

	giveUp()
	events, err := b.runWeather(ctx, user, sid, "and now?", false)
	if err != nil {
		t.Fatalf("run right after the other client gave up: %v", err)
	}
	if n := len(events); n == 0 || events[n-1].GetContent().GetParts()[0].GetText() != "Echo: and now?" {
		t.Errorf("events = %v, want the echo", events)
	}
	if err := <-h.ended; status.Code(err) != codes.Canceled {
		t.Errorf("the abandoned run ended with %v, want CANCELLED", err)
	}
}
