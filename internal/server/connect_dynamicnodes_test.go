package server_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// dynamicApp's parent node runs dynamic children (ADK's ctx.run_node).
var dynamicApp = fstest.MapFS{appName + "/root_agent.yaml": {Data: []byte(`agent_class: Workflow
name: dyn
nodes:
  - {name: parent, function: parent, rerun_on_resume: true}
  - {name: after, function: after}
edges:
  - [START, parent, after]
`)}}

// dynamicStart declares parent and after, and double for run_node only;
// parent's calls carry the session's events.
func dynamicStart(sid string) *api.ConnectRequest {
	start := workflowStart(sid, &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "go"}}}, "after")
	start.GetStart().Nodes = append(start.GetStart().Nodes, &api.NodeDeclaration{Name: "parent", SessionEvents: true},
		&api.NodeDeclaration{Name: "double", Dynamic: true})
	return start
}

// TestWorkflowDynamicNodesOverConnect: a node call asks for two children
// in turn with run_node; each runs in the client as a node call of its own
// under the caller's path, and its output comes back in run_node_result.
func TestWorkflowDynamicNodesOverConnect(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(dynamicApp))
	ctx := testContext(t)
	s := &stack{fx}
	sid := s.newSession(t, ctx)
	stream := fx.connect(t, ctx, dynamicStart(sid))
	send := func(r *api.ConnectRequest) {
		if err := stream.Send(r); err != nil {
			t.Fatal(err)
		}
	}
	runNode := func(callID, reqID string, in float64) {
		send(&api.ConnectRequest{Kind: &api.ConnectRequest_RunNode{RunNode: &api.RunNodeRequest{CallId: callID, RequestId: reqID,
			Target: &api.RunNodeRequest_Function{Function: "double"}, NodeInput: structpb.NewNumberValue(in)}}})
	}
	var parent *api.NodeCall
	var paths []string
	var answers []*api.RunNodeResponse
	var outputs []*v1.Event
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev := m.GetEvent(); ev.GetOutput() != nil {
			outputs = append(outputs, ev)
		}
		if c := m.GetNodeCall(); c != nil {
			paths = append(paths, c.GetNodePath())
			var res *api.NodeResult
			switch c.GetName() {
			case "parent":
				parent = c
				runNode(c.GetCallId(), "r1", 3)
				continue
			case "double":
				res = &api.NodeResult{Output: structpb.NewNumberValue(2 * c.GetNodeInput().GetNumberValue())}
			case "after":
				res = &api.NodeResult{Output: c.GetNodeInput()}
			}
			res.CallId = c.GetCallId()
			send(&api.ConnectRequest{Kind: &api.ConnectRequest_NodeResult{NodeResult: res}})
		}
		if a := m.GetRunNodeResult(); a != nil {
			answers = append(answers, a)
			if len(answers) == 1 {
				runNode(a.GetCallId(), "r2", a.GetOutput().GetNumberValue())
				continue
			}
			send(&api.ConnectRequest{Kind: &api.ConnectRequest_NodeResult{NodeResult: &api.NodeResult{CallId: a.GetCallId(), Output: a.GetOutput()}}})
		}
	}
	if diff := cmp.Diff([]string{"dyn@1/parent@1", "dyn@1/parent@1/double@1", "dyn@1/parent@1/double@2", "dyn@1/after@1"}, paths); diff != "" {
		t.Errorf("node calls (-want +got):\n%s", diff)
	}
	if len(answers) != 2 || answers[1].GetOutput().GetNumberValue() != 12 || answers[1].GetNodePath() != "dyn@1/parent@1/double@2" || answers[1].GetRequestId() != "r2" {
		t.Errorf("answers = %v", answers)
	}
	if parent.GetSessionId() != sid || parent.GetUserId() != userID || len(parent.GetSessionEvents()) == 0 {
		t.Errorf("parent's call: session %q user %q, %d events", parent.GetSessionId(), parent.GetUserId(), len(parent.GetSessionEvents()))
	}
	if n := len(outputs); n != 4 || outputs[3].GetOutput().GetNumberValue() != 12 {
		t.Errorf("output events: %v", outputs)
	}
	if got := s.session(t, ctx, sid).Events; len(got) != 5 {
		t.Errorf("stored %d events, want the user's and 4 outputs", len(got))
	}
}

// TestWorkflowRunNodeRefused: a run_node request of no running call is
// answered with an error; one out of bounds fails the invocation.
func TestWorkflowRunNodeRefused(t *testing.T) {
	t.Parallel()
	fx := newFixture(t, withApp(dynamicApp))
	ctx := testContext(t)
	s := &stack{fx}
	for _, tc := range []struct {
		name    string
		req     func(callID string) *api.RunNodeRequest
		code    codes.Code
		refusal string
	}{
		{"unknown call", func(string) *api.RunNodeRequest {
			return &api.RunNodeRequest{CallId: "nope", RequestId: "r", Target: &api.RunNodeRequest_Function{Function: "double"}}
		}, codes.OK, "no node call nope is running"},
		{"long request id", func(id string) *api.RunNodeRequest {
			return &api.RunNodeRequest{CallId: id, RequestId: strings.Repeat("r", 200), Target: &api.RunNodeRequest_Function{Function: "double"}}
		}, codes.InvalidArgument, ""},
		{"no target", func(id string) *api.RunNodeRequest { return &api.RunNodeRequest{CallId: id, RequestId: "r"} }, codes.InvalidArgument, ""},
	} {
		sid := s.newSession(t, ctx)
		stream := fx.connect(t, ctx, dynamicStart(sid))
		refusal, err := refuseDrive(ctx, stream, tc.req)
		if status.Code(err) != tc.code || refusal != tc.refusal {
			t.Errorf("%s: err = %v, refusal %q; want %v, %q", tc.name, err, refusal, tc.code, tc.refusal)
		}
	}
}

// refuseDrive answers parent with req, then with its result once the
// refusal came; it returns the refusal's message and the stream's end.
func refuseDrive(_ context.Context, stream interface {
	Send(*api.ConnectRequest) error
	Recv() (*api.ConnectResponse, error)
}, req func(callID string) *api.RunNodeRequest) (string, error) {
	refusal := ""
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return refusal, nil
		}
		if err != nil {
			return refusal, err
		}
		if c := m.GetNodeCall(); c != nil {
			if c.GetName() == "parent" {
				r := req(c.GetCallId())
				if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_RunNode{RunNode: r}}); err != nil {
					return refusal, err
				}
				if r.GetCallId() != "nope" {
					continue
				}
			}
			res := &api.NodeResult{CallId: c.GetCallId()}
			if err := stream.Send(&api.ConnectRequest{Kind: &api.ConnectRequest_NodeResult{NodeResult: res}}); err != nil {
				return refusal, err
			}
		}
		if a := m.GetRunNodeResult(); a != nil {
			refusal = a.GetError().GetMessage()
		}
	}
}
