package server_test

import (
	"errors"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// approvalsApp is a workflow of client function nodes: START → prepare →
// flaky (retried) → approval_gate (asks the user) → finish.
var approvalsApp = fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(`agent_class: Workflow
name: approvals
nodes:
  - {name: prepare, function: prepare}
  - name: flaky
    function: flaky
    retry_config: {max_attempts: 3, initial_delay: 0, jitter: 0}
  - {name: approval_gate, function: approval_gate}
  - {name: finish, function: finish}
edges:
  - [START, prepare, flaky, approval_gate, finish]
`)}}

type nodeFunc func(call *api.NodeCall) *api.NodeResult

// workflowStart opens a Connect run declaring the node functions.
func workflowStart(sid string, msg *v1.Content, nodes ...string) *api.ConnectRequest {
	start := &api.StartRun{Run: &api.RunRequest{AppName: appName, UserId: userID, SessionId: sid, NewMessage: msg}}
	for _, n := range nodes {
		start.Nodes = append(start.Nodes, &api.NodeDeclaration{Name: n})
	}
	return &api.ConnectRequest{Kind: &api.ConnectRequest_Start{Start: start}}
}

// driveNodes answers node calls with fns until the stream ends, and
// returns the events streamed and the node calls made.
func driveNodes(t *testing.T, stream grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse],
	fns map[string]nodeFunc) ([]*v1.Event, []*api.NodeCall, error) {
	t.Helper()
	var events []*v1.Event
	var calls []*api.NodeCall
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return events, calls, nil
		}
		if err != nil {
			return events, calls, err
		}
		if ev := m.GetEvent(); ev != nil {
			events = append(events, ev)
		}
		if c := m.GetNodeCall(); c != nil {
			calls = append(calls, c)
			res := fns[c.Name](c)
			res.CallId = c.CallId
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_NodeResult{NodeResult: res}}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func mustValue(t *testing.T, v any) *structpb.Value {
	t.Helper()
	pv, err := structpb.NewValue(v)
	if err != nil {
		t.Fatal(err)
	}
	return pv
}

func approvalFuncs(t *testing.T, flakyFails *int) map[string]nodeFunc {
	return map[string]nodeFunc{
		"prepare": func(c *api.NodeCall) *api.NodeResult {
			text := c.GetNodeInput().GetStructValue().GetFields()["parts"].GetListValue().GetValues()[0].GetStructValue().GetFields()["text"]
			delta, _ := structpb.NewStruct(map[string]any{"prepared": true})
			return &api.NodeResult{Output: mustValue(t, map[string]any{"order": text.GetStringValue()}), StateDelta: delta}
		},
		"flaky": func(c *api.NodeCall) *api.NodeResult {
			if *flakyFails > 0 {
				*flakyFails--
				return &api.NodeResult{Error: &api.NodeError{Type: "ValueError", Message: "not yet"}}
			}
			return &api.NodeResult{Output: c.GetNodeInput()}
		},
		"approval_gate": func(c *api.NodeCall) *api.NodeResult {
			return &api.NodeResult{RequestInputs: []*api.RequestInput{{Message: "Approve the order?", Payload: c.GetNodeInput(),
				ResponseSchema: mustValue(t, map[string]any{"type": "object"})}}}
		},
		"finish": func(c *api.NodeCall) *api.NodeResult {
			status := "rejected"
			if c.GetNodeInput().GetStructValue().GetFields()["approved"].GetBoolValue() {
				status = "approved"
			}
			delta, _ := structpb.NewStruct(map[string]any{"status": status})
			return &api.NodeResult{Output: structpb.NewStringValue(status), StateDelta: delta}
		},
	}
}

var allApprovalNodes = []string{"prepare", "flaky", "approval_gate", "finish"}

// TestWorkflowClientNodesPauseAndResume: the nodes run in the client in
// order, a failed attempt is retried with an error event, the approval
// gate pauses the workflow with an adk_request_input call, and the user's
// answer resumes it at the gate without running a node again.
func TestWorkflowClientNodesPauseAndResume(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(approvalsApp))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	fails := 1
	fns := approvalFuncs(t, &fails)
	stream := fx.connect(t, ctx, workflowStart(sid, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Order #42"}}}, allApprovalNodes...))
	events, calls, err := driveNodes(t, stream, fns)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range calls {
		names = append(names, c.NodeName)
	}
	if want := []string{"prepare", "flaky", "flaky", "approval_gate"}; !slices.Equal(names, want) {
		t.Fatalf("node calls = %v, want %v", names, want)
	}
	if calls[2].Attempt != 2 || calls[1].NodePath != "approvals@1/flaky@1" || calls[2].NodePath != "approvals@1/flaky@1" {
		t.Errorf("retry call = %v", calls[2])
	}
	var interrupt string
	for _, ev := range events {
		for _, p := range ev.GetContent().GetParts() {
			if fc := p.GetFunctionCall(); fc.GetName() == "adk_request_input" {
				interrupt = fc.GetId()
				if ev.GetLongRunningToolIds()[0] != interrupt || fc.GetArgs().GetFields()["interruptId"].GetStringValue() != interrupt ||
					fc.GetArgs().GetFields()["message"].GetStringValue() != "Approve the order?" {
					t.Errorf("request input event = %v", ev)
				}
			}
		}
	}
	if interrupt == "" {
		t.Fatalf("no adk_request_input call in %v", events)
	}
	if events[1].ErrorCode != "ValueError" || events[1].ErrorMessage != "not yet" {
		t.Errorf("failed attempt event = %v", events[1])
	}
	if got := events[0].GetNodeInfo(); got.GetPath() != "approvals@1/prepare@1" || len(got.GetOutputFor()) != 1 {
		t.Errorf("prepare output event node info = %v", got)
	}

	answer := &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: interrupt,
		Name: "adk_request_input", Response: mustStruct(t, map[string]any{"approved": true})}}}}
	stream = fx.connect(t, ctx, workflowStart(sid, answer, allApprovalNodes...))
	events, calls, err = driveNodes(t, stream, fns)
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) != 1 || calls[0].NodeName != "finish" || calls[0].NodePath != "approvals@1/finish@1" {
		t.Fatalf("resumed node calls = %v", calls)
	}
	last := events[len(events)-1]
	if last.GetOutput().GetStringValue() != "approved" || len(last.GetNodeInfo().GetOutputFor()) != 2 {
		t.Errorf("finish event = %v", last)
	}
	st := s.session(t, ctx, sid).GetState().GetFields()
	if st["status"].GetStringValue() != "approved" || !st["prepared"].GetBoolValue() {
		t.Errorf("state = %v", st)
	}
}

func mustStruct(t *testing.T, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestWorkflowNodesMustBeDeclared: a run whose client does not declare the
// workflow's function nodes, or declares an unknown one, is refused and
// stores nothing.
func TestWorkflowNodesMustBeDeclared(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(approvalsApp))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	for _, tc := range []struct {
		nodes []string
		code  codes.Code
	}{
		{[]string{"prepare"}, codes.FailedPrecondition},
		{append([]string{"nope"}, allApprovalNodes...), codes.InvalidArgument},
	} {
		stream := fx.connect(t, ctx, workflowStart(sid, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "x"}}}, tc.nodes...))
		_, _, err := driveNodes(t, stream, nil)
		if status.Code(err) != tc.code {
			t.Errorf("nodes %v: err = %v, want %v", tc.nodes, err, tc.code)
		}
	}
	if n := len(s.session(t, ctx, sid).Events); n != 0 {
		t.Errorf("stored %d events", n)
	}
}

// TestWorkflowToolNodeRunsClientTool: a tool node runs a tool the client
// declared, with the node input as its arguments and its result as the
// node's output.
func TestWorkflowToolNodeRunsClientTool(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(`agent_class: Workflow
name: lookup
nodes:
  - {name: parse, function: parse}
  - {name: weather, tool: {name: get_weather}}
edges:
  - [START, parse, weather]
`)}}))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	start := workflowStart(sid, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "Paris"}}}, "parse")
	start.GetStart().Tools = []*api.ToolDeclaration{weatherTool}
	stream := fx.connect(t, ctx, start)
	var events []*v1.Event
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m.GetEvent() != nil:
			events = append(events, m.GetEvent())
		case m.GetNodeCall() != nil:
			res := &api.NodeResult{CallId: m.GetNodeCall().CallId, Output: mustValue(t, map[string]any{"city": "Paris"})}
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_NodeResult{NodeResult: res}}); err != nil {
				t.Fatal(err)
			}
		case m.GetToolCall() != nil:
			call := m.GetToolCall()
			if got := call.GetFunctionCall().GetArgs().GetFields()["city"].GetStringValue(); got != "Paris" || call.GetFunctionCall().GetName() != "get_weather" {
				t.Errorf("tool call = %v", call)
			}
			if err := stream.Send(resultMsg(call.CallId, mustValue(t, map[string]any{"weather": "sunny"}))); err != nil {
				t.Fatal(err)
			}
		}
	}
	last := events[len(events)-1]
	if last.GetNodeInfo().GetPath() != "lookup@1/weather@1" || last.GetOutput().GetStructValue().GetFields()["weather"].GetStringValue() != "sunny" {
		t.Errorf("tool node event = %v", last)
	}
}

// TestWorkflowHostileNodeResults: node results out of bounds fail the
// invocation with INVALID_ARGUMENT, and the session stays usable.
func TestWorkflowHostileNodeResults(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(approvalsApp))
	ctx := testContext(t)
	s := &stack{fx}
	deep := structpb.NewStringValue("x")
	for range 200 {
		deep = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{deep}})
	}
	many := make([]*api.RequestInput, 33)
	for i := range many {
		many[i] = &api.RequestInput{}
	}
	for _, tc := range []struct {
		name string
		res  *api.NodeResult
	}{
		{"float route", &api.NodeResult{Route: structpb.NewNumberValue(1.5)}},
		{"object route", &api.NodeResult{Route: mustValue(t, map[string]any{"a": 1})}},
		{"long route", &api.NodeResult{Route: structpb.NewStringValue(strings.Repeat("r", 200))}},
		{"deep output", &api.NodeResult{Output: deep}},
		{"too many questions", &api.NodeResult{RequestInputs: many}},
		{"long interrupt id", &api.NodeResult{RequestInputs: []*api.RequestInput{{InterruptId: strings.Repeat("i", 200)}}}},
		{"error without type", &api.NodeResult{Error: &api.NodeError{Message: "boom"}}},
	} {
		sid := s.newSession(t, ctx)
		stream := fx.connect(t, ctx, workflowStart(sid, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "x"}}}, allApprovalNodes...))
		_, _, err := driveNodes(t, stream, map[string]nodeFunc{"prepare": func(*api.NodeCall) *api.NodeResult { return tc.res }})
		if status.Code(err) != codes.InvalidArgument {
			t.Errorf("%s: err = %v, want InvalidArgument", tc.name, err)
		}
		// The session takes the next run.
		fails := 0
		stream = fx.connect(t, ctx, workflowStart(sid, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "again"}}}, allApprovalNodes...))
		if _, _, err := driveNodes(t, stream, approvalFuncs(t, &fails)); err != nil {
			t.Errorf("%s: next run: %v", tc.name, err)
		}
	}
}
