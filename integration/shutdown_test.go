package integration

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// TestShutdownDrainsRunningInvocation sends SIGTERM while an invocation
// waits on a slow model: health turns NOT_SERVING, the invocation still
// completes, and the process exits 0.
func TestShutdownDrainsRunningInvocation(t *testing.T) {
	t.Parallel()
	s := startStack(t, map[string]string{"weather": weatherAgent}, "--shutdown-grace", "20s")
	resp, err := http.Post(s.fakeURL+"/_fake/faults", "application/json", bytes.NewReader([]byte(`{"latency":"2s"}`)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	created, err := api.NewSessionServiceClient(s.conn).CreateSession(ctx, &api.CreateSessionRequest{AppName: "weather", UserId: "u"})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := api.NewRunnerServiceClient(s.conn).Run(ctx, &api.RunRequest{AppName: "weather", UserId: "u",
		SessionId: created.Session.Id, NewMessage: &v1.Content{Parts: []*v1.Part{{Text: "slow question"}}}})
	if err != nil {
		t.Fatal(err)
	}
	// Let the invocation reach the model before signalling.
	waitUntil(t, func() bool { return len(s.modelRequests(t)) > 0 })
	if err := s.svc.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}

	health := healthpb.NewHealthClient(s.conn)
	waitUntil(t, func() bool {
		r, err := health.Check(ctx, &healthpb.HealthCheckRequest{})
		return err == nil && r.Status == healthpb.HealthCheckResponse_NOT_SERVING
	})

	var events []*v1.Event
	for {
		r, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the running invocation failed during shutdown: %v", err)
		}
		events = append(events, r.Event)
	}
	if len(events) != 1 || events[0].GetContent().GetParts()[0].GetText() != "Echo: slow question" {
		t.Errorf("events = %v", events)
	}
	if err := s.svc.wait(ctx); err != nil {
		t.Errorf("exit: %v, want status 0", err)
	}

	// New calls are refused once the server is gone.
	_, err = api.NewAppServiceClient(s.conn).ListApps(ctx, &api.ListAppsRequest{})
	if c := status.Code(err); c != codes.Unavailable {
		t.Errorf("call after exit: %v, want UNAVAILABLE", err)
	}
}

// waitUntil polls cond for up to 20 seconds.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 20s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
