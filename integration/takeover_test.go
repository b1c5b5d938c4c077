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

func crashedReplicaSessionIsTakenOver(t *testing.T, url string) {
	apps := map[string]string{"weather": weatherAgent}
	a := startStack(t, apps, "--sessions", url)
	b := startStack(t, apps, "--sessions", url)
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	user := "takeover-" + randomHex(t)
	sid := a.weatherSession(t, ctx, user)
	deleteSessionAfter(t, b, "weather", user, sid)

	a.postScript(t, fakegemini.Script{Responses: []fakegemini.Item{{Hang: true}}})
	interrupted := make(chan error, 1)
	go func() {
		_, err := a.runWeather(ctx, user, sid, "before the crash", false)
		interrupted <- err
	}()
	// The invocation holds the lease from before it calls the model.
	waitUntil(t, func() bool { return len(a.modelRequests(t)) > 0 })
	if err := a.svc.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if err := <-interrupted; status.Code(err) != codes.Unavailable {
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
