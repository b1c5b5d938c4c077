package llmagent_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// dispatcher is root → [billing, support]; support → [refunds].
func dispatcher(t *testing.T, mod func(name string, c *llmagent.Config)) (root *llmagent.Agent) {
	t.Helper()
	mk := func(name, desc string, subs ...runtime.Agent) *llmagent.Agent {
		c := llmagent.Config{Name: name, Description: desc, Model: modelName, SubAgents: subs}
		if mod != nil {
			mod(name, &c)
		}
		return newAgent(t, c)
	}
	refunds := mk("refunds", "Handles refunds.")
	support := mk("support", "Technical support.", refunds)
	billing := mk("billing", "Billing questions.")
	return mk("root_agent", "Routes questions.", billing, support)
}

func TestBehaviorI4TransferInstruction(t *testing.T) {
	t.Parallel()
	root := dispatcher(t, nil)
	h := et.New(t, root)
	m := scripted.New(modelName, et.Call("transfer_to_agent", `{"agent_name":"support"}`), et.Text("support here"))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)
	h.RunText(t, sid, "my app crashes")

	rootSI := m.Requests()[0].Config.SystemInstruction
	wantRoot := `You are an agent. Your internal name is "root_agent". The description about you is "Routes questions.".` + "\n\n" +
		"\nYou have a list of other agents to transfer to:\n\n" +
		"\nAgent name: billing\nAgent description: Billing questions.\n" +
		"\n" +
		"\nAgent name: support\nAgent description: Technical support.\n" +
		"\n\nIf you are the best to answer the question according to your description,\nyou can answer it.\n\n" +
		"If another agent is better for answering the question according to its\n" +
		"description, call `transfer_to_agent` function to transfer the question to that\n" +
		"agent. When transferring, do not generate any text other than the function\ncall.\n\n" +
		"**NOTE**: the only available agents for `transfer_to_agent` function are\n`billing`, `support`.\n"
	if rootSI != wantRoot {
		t.Errorf("root instruction:\n%q\nwant\n%q", rootSI, wantRoot)
	}

	supportSI := m.Requests()[1].Config.SystemInstruction
	wantTail := "Agent name: refunds\nAgent description: Handles refunds.\n" +
		"\n\nAgent name: root_agent\nAgent description: Routes questions.\n" +
		"\n\nAgent name: billing\nAgent description: Billing questions.\n" +
		"\n\nIf you are the best"
	if !strings.Contains(supportSI, wantTail) {
		t.Errorf("support targets not in order sub-agents, parent, peers:\n%q", supportSI)
	}
	if !strings.Contains(supportSI, "are\n`billing`, `refunds`, `root_agent`.\n") ||
		!strings.HasSuffix(supportSI, "\nIf neither you nor the other agents are best for the question, transfer to your parent agent root_agent.\n") {
		t.Errorf("support NOTE or parent line wrong:\n%q", supportSI)
	}
	decl := m.Requests()[1].Config.Tools[0].FunctionDeclarations[0]
	enum := decl.Parameters.AsMap()["properties"].(map[string]any)["agent_name"].(map[string]any)["enum"]
	if d := cmp.Diff([]any{"refunds", "root_agent", "billing"}, enum); decl.Name != "transfer_to_agent" || d != "" {
		t.Errorf("transfer tool %s enum (-want +got):\n%s", decl.Name, d)
	}
}

func TestBehaviorI4NoTargetsNoTransfer(t *testing.T) {
	t.Parallel()
	leaf := newAgent(t, llmagent.Config{Name: "leaf", DisallowTransferToParent: true, DisallowTransferToPeers: true})
	h, m, sid := setup(t, leaf, []*v1.LlmResponse{et.Text("ok")})
	h.RunText(t, sid, "hi")
	req := m.Requests()[0]
	if strings.Contains(req.Config.SystemInstruction, "transfer") || len(req.Config.Tools) != 0 {
		t.Errorf("an agent without targets got transfer text or tools: %q %v", req.Config.SystemInstruction, req.Config.Tools)
	}
}

func TestBehaviorL8TransferRunsTargetInSameInvocation(t *testing.T) {
	t.Parallel()
	root := dispatcher(t, nil)
	h := et.New(t, root)
	h.Models.Add(scripted.New(modelName, et.Call("transfer_to_agent", `{"agent_name":"billing"}`), et.Text("billing here")))
	sid := h.NewSession(t, nil)
	events := h.RunText(t, sid, "invoice?")
	want := []string{
		`root_agent: call transfer_to_agent{"agent_name":"billing"}`,
		`root_agent: response transfer_to_agent{"result":null}`,
		"billing: billing here",
	}
	if d := cmp.Diff(want, et.Events(events)); d != "" {
		t.Fatalf("events (-want +got):\n%s", d)
	}
	if events[1].Actions.TransferToAgent != "billing" || events[2].InvocationId != events[0].InvocationId {
		t.Errorf("transfer action %q; invocation ids %s / %s", events[1].Actions.TransferToAgent, events[0].InvocationId, events[2].InvocationId)
	}

	h.Models.Add(scripted.New(modelName, et.Call("transfer_to_agent", `{"agent_name":"ghost"}`)))
	_, err := h.Run(t.Context(), sid, et.UserText("again"), runtime.RunConfig{})
	var rerr *runtime.Error
	if !errors.As(err, &rerr) || rerr.Message != "Agent ghost not found in the agent tree." || rerr.Code != runtime.CodeFailedPrecondition {
		t.Errorf("unknown target: err = %v", err)
	}
}

func TestBehaviorL7NextTurnAgent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mod  func(string, *llmagent.Config)
		want string
	}{
		{"the specialist keeps the conversation", nil, "billing"},
		{"a specialist that may not transfer back hands the turn to the root", func(name string, c *llmagent.Config) {
			if name == "billing" {
				c.DisallowTransferToParent = true
			}
		}, "root_agent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := et.New(t, dispatcher(t, tt.mod))
			h.Models.Add(scripted.New(modelName, et.Call("transfer_to_agent", `{"agent_name":"billing"}`), et.Text("billing here"), et.Text("second")))
			sid := h.NewSession(t, nil)
			h.RunText(t, sid, "invoice?")
			events := h.RunText(t, sid, "and the total?")
			if len(events) != 1 || events[0].Author != tt.want {
				t.Errorf("second turn answered by %v, want %s", et.Events(events), tt.want)
			}
		})
	}
}
