package runtime_test

import (
	"iter"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/codeexec"
	"github.com/agentsvc/agentsvc/internal/runtime/graph"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
	"github.com/agentsvc/agentsvc/internal/runtime/workflow"
)

// customAgent is an agent that does not describe itself.
type customAgent struct{}

func (customAgent) Name() string                       { return "custom" }
func (customAgent) Description() string                { return "" }
func (customAgent) SubAgents() []runtime.Agent         { return nil }
func (customAgent) Callbacks() *runtime.AgentCallbacks { return nil }
func (customAgent) Run(*runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(func(*v1.Event, error) bool) {}
}

// TestDescribe checks that each of ADK's agent classes describes itself
// with what its declaration holds, and that any other agent is custom.
func TestDescribe(t *testing.T) {
	t.Parallel()
	must := func(a runtime.Agent, err error) runtime.Agent {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	helper := must(llmagent.New(llmagent.Config{Name: "helper"}))
	helperTool, err := tools.NewAgentTool(tools.AgentToolConfig{Agent: helper})
	if err != nil {
		t.Fatal(err)
	}
	coder, err := codeexec.New(codeexec.Client, codeexec.Options{})
	if err != nil {
		t.Fatal(err)
	}
	gcc := &v1.GenerateContentConfig{Temperature: new(float32)}
	llm := must(llmagent.New(llmagent.Config{Name: "llm", Model: "m", Instruction: "i", StaticInstruction: "s",
		GlobalInstruction: "g", Tools: []runtime.Tool{helperTool}, OutputKey: "out", IncludeContents: "none",
		DisallowTransferToParent: true, DisallowTransferToPeers: true, GenerateContentConfig: gcc, CodeExecutor: coder}))
	route := structpb.NewStringValue("yes")
	wf := must(graph.New(graph.Config{Name: "wf",
		Nodes: []*graph.Node{{Name: "f", Kind: graph.Function, Function: "fn"}, {Name: "a", Kind: graph.AgentNode, Agent: helper}},
		Edges: []graph.Edge{{From: graph.Start, To: "f"}, {From: "f", To: "a", Routes: []*structpb.Value{route}}}}))
	tests := []struct {
		agent runtime.Agent
		want  runtime.AgentDescription
	}{
		{llm, runtime.AgentDescription{Kind: runtime.KindLLM, LLM: &runtime.LLMDescription{Model: "m", Instruction: "i",
			StaticInstruction: "s", GlobalInstruction: "g", Tools: []runtime.Tool{helperTool},
			AgentTools: []runtime.Agent{helper}, OutputKey: "out", IncludeContents: "none",
			DisallowTransferToParent: true, DisallowTransferToPeers: true, GenerateContentConfig: gcc, ClientCode: true}}},
		{must(workflow.NewSequential(workflow.Config{Name: "seq"})), runtime.AgentDescription{Kind: runtime.KindSequential}},
		{must(workflow.NewParallel(workflow.Config{Name: "par"})), runtime.AgentDescription{Kind: runtime.KindParallel}},
		{must(workflow.NewLoop(workflow.Config{Name: "loop"}, 3)), runtime.AgentDescription{Kind: runtime.KindLoop, MaxIterations: 3}},
		{wf, runtime.AgentDescription{Kind: runtime.KindWorkflow, Graph: &runtime.GraphDescription{
			Nodes: []runtime.GraphNode{{Name: "f", Kind: runtime.NodeFunction, Function: "fn"}, {Name: "a", Kind: runtime.NodeAgent, Agent: helper}},
			Edges: []runtime.GraphEdge{{From: runtime.GraphStart, To: "f"}, {From: "f", To: "a", Routes: []*structpb.Value{route}}}}}},
		{customAgent{}, runtime.AgentDescription{Kind: runtime.KindCustom}},
	}
	for _, tt := range tests {
		got := runtime.Describe(tt.agent)
		// Agents and tools are compared by identity.
		if diff := cmp.Diff(tt.want, got, protocmp.Transform(), cmpopts.EquateComparable(helperTool),
			cmp.Comparer(func(a, b runtime.Agent) bool { return a == b })); diff != "" {
			t.Errorf("Describe(%s) (-want +got):\n%s", tt.agent.Name(), diff)
		}
	}
}
