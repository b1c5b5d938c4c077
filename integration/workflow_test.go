package integration

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// approvalsDir is the approvals test app: a workflow of client function
// nodes, START → prepare → flaky → approval_gate → finish.
func approvalsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	body, err := os.ReadFile(filepath.Join("testdata", "apps", "approvals", "root_agent.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "approvals"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "approvals", "root_agent.yaml"), body, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// nodeClient runs the approvals app's node functions, counting calls.
type nodeClient struct {
	calls   []string
	flakies int
}

func (c *nodeClient) result(t *testing.T, call *api.NodeCall) *api.NodeResult {
	c.calls = append(c.calls, call.NodeName)
	switch call.Name {
	case "prepare":
		return &api.NodeResult{Output: call.NodeInput, StateDelta: mustStruct(map[string]any{"prepared": true})}
	case "flaky":
		c.flakies++
		if c.flakies == 1 {
			return &api.NodeResult{Error: &api.NodeError{Type: "ValueError", Message: "first attempt"}}
		}
		return &api.NodeResult{Output: call.NodeInput}
	case "approval_gate":
		return &api.NodeResult{RequestInputs: []*api.RequestInput{{Message: "Approve the order?", Payload: call.NodeInput}}}
	case "finish":
		status := "rejected"
		if call.NodeInput.GetStructValue().GetFields()["approved"].GetBoolValue() {
			status = "approved"
		}
		return &api.NodeResult{Output: structpb.NewStringValue(status), StateDelta: mustStruct(map[string]any{"status": status})}
	}
	t.Fatalf("unexpected node call %v", call)
	return nil
}

// runNodes runs msg on the approvals app over Connect, answering node
// calls, and returns the events.
func (c *nodeClient) runNodes(t *testing.T, ctx context.Context, conn *grpc.ClientConn, sid string, msg *v1.Content) []*v1.Event {
	t.Helper()
	stream, err := api.NewRunnerServiceClient(conn).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	start := &api.StartRun{Run: &api.RunRequest{AppName: "approvals", UserId: "u", SessionId: sid, NewMessage: msg}}
	for _, n := range []string{"prepare", "flaky", "approval_gate", "finish"} {
		start.Nodes = append(start.Nodes, &api.NodeDeclaration{Name: n})
	}
	if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: start}}); err != nil {
		t.Fatal(err)
	}
	var events []*v1.Event
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return events
		}
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		if ev := m.GetEvent(); ev != nil {
			events = append(events, ev)
		}
		if call := m.GetNodeCall(); call != nil {
			res := c.result(t, call)
			res.CallId = call.CallId
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_NodeResult{NodeResult: res}}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestWorkflowResumesAfterRestartOnRedis: a workflow paused by a
// RequestInput, its service stopped and another started on the same
// Redis, resumes at the question with the user's answer: no node that ran
// before the pause runs again.
func TestWorkflowResumesAfterRestartOnRedis(t *testing.T) {
	t.Parallel()
	url := sharedRedisURL(t)
	dir := approvalsDir(t)
	first := startStack(t, nil, "--agents", dir, "--sessions", url)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	sid := newSession(t, ctx, first, "approvals")
	client := &nodeClient{}
	events := client.runNodes(t, ctx, first.conn, sid, userText("Order #42"))
	interrupt := ""
	for _, ev := range events {
		for _, p := range ev.GetContent().GetParts() {
			if fc := p.GetFunctionCall(); fc.GetName() == "adk_request_input" {
				interrupt = fc.GetId()
			}
		}
	}
	if interrupt == "" {
		t.Fatalf("no adk_request_input call in %v", events)
	}
	if want := []string{"prepare", "flaky", "flaky", "approval_gate"}; !slices.Equal(client.calls, want) {
		t.Fatalf("calls before the pause = %v, want %v", client.calls, want)
	}

	// The service stops (SIGTERM, as an orchestrator stops it) and another
	// process serves the same Redis.
	_ = first.svc.cmd.Process.Signal(syscall.SIGTERM)
	if err := first.svc.wait(ctx); err != nil {
		t.Logf("first service exited: %v", err)
	}
	second := startStack(t, nil, "--agents", dir, "--sessions", url)
	client.calls = nil
	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: interrupt,
		Name: "adk_request_input", Response: mustStruct(map[string]any{"approved": true})}}}}
	events = client.runNodes(t, ctx, second.conn, sid, answer)
	if want := []string{"finish"}; !slices.Equal(client.calls, want) {
		t.Fatalf("calls after the restart = %v, want %v", client.calls, want)
	}
	if last := events[len(events)-1]; last.GetOutput().GetStringValue() != "approved" ||
		last.GetNodeInfo().GetPath() != "approvals@1/finish@1" {
		t.Errorf("last event = %v", last)
	}
	got, err := api.NewSessionServiceClient(second.conn).GetSession(ctx, &api.GetSessionRequest{AppName: "approvals", UserId: "u", SessionId: sid})
	if err != nil {
		t.Fatal(err)
	}
	st := got.Session.GetState().GetFields()
	if st["status"].GetStringValue() != "approved" || !st["prepared"].GetBoolValue() {
		t.Errorf("state = %v", st)
	}
}
