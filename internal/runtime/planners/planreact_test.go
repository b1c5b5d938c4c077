package planners_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/planners"
)

func text(s string) *v1.Part    { return &v1.Part{Text: s} }
func thought(s string) *v1.Part { return &v1.Part{Text: s, Thought: true} }
func call(name string) *v1.Part {
	return &v1.Part{FunctionCall: &v1.FunctionCall{Name: name, Args: &structpb.Struct{}}}
}

// TestBehaviorPlanReActResponse: each branch of ADK's PlanReActPlanner
// process_planning_response, the inputs and outputs as google-adk 1.39.1
// and 2.13.0 give them (nil: the answer stays as it is).
func TestBehaviorPlanReActResponse(t *testing.T) {
	t.Parallel()
	signed := func(p *v1.Part) *v1.Part { p.ThoughtSignature = []byte("sig"); return p }
	image := &v1.Part{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("x")}}
	parts := func(ps ...*v1.Part) []*v1.Part { return ps }
	tests := []struct {
		name       string
		in, v1, v2 []*v1.Part
	}{
		{"no parts", nil, nil, nil},
		{"planning and action become thought, the call stays",
			parts(text("/*PLANNING*/\n1. x"), text("/*ACTION*/\nf()"), call("f")),
			parts(thought("/*PLANNING*/\n1. x"), thought("/*ACTION*/\nf()"), call("f")),
			parts(thought("\n1. x"), thought("\nf()"), call("f"))},
		{"every planning tag opens a thought",
			parts(text("/*PLANNING*/a"), text("/*REASONING*/b"), text("/*ACTION*/c"), text("/*REPLANNING*/d")),
			parts(thought("/*PLANNING*/a"), thought("/*REASONING*/b"), thought("/*ACTION*/c"), thought("/*REPLANNING*/d")),
			parts(thought("a"), thought("b"), thought("c"), thought("d"))},
		{"a tag must open the text",
			parts(text("plain"), text(" /*PLANNING*/ leading space")),
			parts(text("plain"), text(" /*PLANNING*/ leading space")),
			parts(text("plain"), text(" /*PLANNING*/ leading space"))},
		{"2.x strips every tag of a thought",
			parts(text("/*PLANNING*/a /*ACTION*/b /*FINAL*/")),
			parts(thought("/*PLANNING*/a /*ACTION*/b /*FINAL*/")),
			parts(thought("a b /*FINAL*/"))},
		{"final answer: the thought keeps the tag in 1.x",
			parts(text("/*REASONING*/\nr\n/*FINAL_ANSWER*/\nanswer")),
			parts(thought("/*REASONING*/\nr\n/*FINAL_ANSWER*/"), text("\nanswer")),
			parts(thought("\nr\n"), text("\nanswer"))},
		{"final answer: split at the last tag",
			parts(text("a/*FINAL_ANSWER*/b/*FINAL_ANSWER*/c")),
			parts(thought("a/*FINAL_ANSWER*/b/*FINAL_ANSWER*/"), text("c")),
			parts(thought("a/*FINAL_ANSWER*/b"), text("c"))},
		{"final answer: nothing after the tag",
			parts(text("/*FINAL_ANSWER*/")), parts(thought("/*FINAL_ANSWER*/")), nil},
		{"final answer: the tag first",
			parts(text("/*FINAL_ANSWER*/done")), parts(thought("/*FINAL_ANSWER*/"), text("done")), parts(text("done"))},
		{"final answer: the halves are new parts, without the signature",
			parts(signed(text("x/*FINAL_ANSWER*/y"))), parts(thought("x/*FINAL_ANSWER*/"), text("y")),
			parts(thought("x"), text("y"))},
		{"a tagged part keeps its signature",
			parts(signed(text("/*PLANNING*/p"))), parts(signed(thought("/*PLANNING*/p"))), parts(signed(thought("p")))},
		{"the calls after the first stay, what follows them goes",
			parts(text("/*ACTION*/"), call("f"), call("g"), text("after"), call("h")),
			parts(thought("/*ACTION*/"), call("f"), call("g")),
			parts(thought(""), call("f"), call("g"))},
		{"a call that opens the answer goes alone in 1.x",
			parts(call("f"), call("g"), text("t")), parts(call("f")), parts(call("f"), call("g"))},
		{"calls without a name are dropped before the first call, not after",
			parts(call(""), text("/*PLANNING*/p"), call("f"), call("")),
			parts(thought("/*PLANNING*/p"), call("f"), call("")),
			parts(thought("p"), call("f"), call(""))},
		{"nothing kept", parts(call("")), nil, nil},
		{"a thought stays a thought",
			parts(thought("thinking"), text("ans")), parts(thought("thinking"), text("ans")), parts(thought("thinking"), text("ans"))},
		{"empty text and other parts pass", parts(text(""), image), parts(text(""), image), parts(text(""), image)},
	}
	for _, tt := range tests {
		for _, b := range []runtime.Behavior{runtime.Behavior1x, runtime.Behavior2x} {
			t.Run(b.String()+" "+tt.name, func(t *testing.T) {
				t.Parallel()
				var before []*v1.Part
				for _, p := range tt.in {
					before = append(before, proto.CloneOf(p))
				}
				want := tt.v1
				if b == runtime.Behavior2x {
					want = tt.v2
				}
				got := planners.PlanReAct{}.ProcessResponse(b, tt.in)
				if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
					t.Errorf("parts (-want +got):\n%s", diff)
				}
				if diff := cmp.Diff(before, tt.in, protocmp.Transform()); diff != "" {
					t.Errorf("the answer's parts changed (-before +after):\n%s", diff)
				}
			})
		}
	}
}

// TestBehaviorPlanReActRequest: ADK appends the planning instruction to the
// system instruction (after what is there, a blank line between) and sends
// earlier thought parts as plain parts; stored contents stay marked.
func TestBehaviorPlanReActRequest(t *testing.T) {
	t.Parallel()
	stored := []*v1.Content{
		{Role: "user", Parts: []*v1.Part{text("q")}},
		{Role: "model", Parts: []*v1.Part{thought("/*PLANNING*/p"), call("f")}},
		{Role: "user", Parts: []*v1.Part{text("more")}},
	}
	list := append([]*v1.Content(nil), stored...)
	req := &v1.LlmRequest{Contents: list, Config: &v1.GenerateContentConfig{SystemInstruction: "Be brief."}}
	planners.PlanReAct{}.ProcessRequest(req)

	if want := "Be brief.\n\n" + planners.Instruction; req.Config.SystemInstruction != want {
		t.Errorf("system instruction = %q, want %q", req.Config.SystemInstruction, want)
	}
	want := []*v1.Content{stored[0], {Role: "model", Parts: []*v1.Part{text("/*PLANNING*/p"), call("f")}}, stored[2]}
	if diff := cmp.Diff(want, req.Contents, protocmp.Transform()); diff != "" {
		t.Errorf("contents (-want +got):\n%s", diff)
	}
	if !stored[1].Parts[0].Thought || list[1] != stored[1] {
		t.Error("the stored content or the shared list changed")
	}
	if req.Contents[0] != stored[0] {
		t.Error("a content without thought was copied")
	}

	empty := &v1.LlmRequest{}
	planners.PlanReAct{}.ProcessRequest(empty)
	if empty.Config.GetSystemInstruction() != planners.Instruction {
		t.Errorf("system instruction of a bare request = %q", empty.Config.GetSystemInstruction())
	}
}

// TestBehaviorPlanReActInstruction: the instruction's shape as ADK builds
// it (3,069 characters, six blocks each between newlines, every tag named).
func TestBehaviorPlanReActInstruction(t *testing.T) {
	t.Parallel()
	s := planners.Instruction
	if len(s) != 3069 || strings.Count(s, "\n") != 40 {
		t.Errorf("instruction is %d bytes with %d newlines, want 3069 and 40", len(s), strings.Count(s, "\n"))
	}
	blocks := strings.Split(s, "\n\n\n\n")
	if len(blocks) != 6 {
		t.Errorf("instruction has %d blocks, want 6", len(blocks))
	}
	for _, tag := range []string{planners.PlanningTag, planners.ReplanningTag, planners.ReasoningTag, planners.ActionTag,
		planners.FinalAnswerTag} {
		if !strings.Contains(s, tag) {
			t.Errorf("instruction does not name %s", tag)
		}
	}
	if !strings.HasPrefix(s, "\nWhen answering the question, try to leverage the available tools") ||
		!strings.HasSuffix(s, "instead of repeated tool use.\n") {
		t.Errorf("instruction starts %q, ends %q", s[:40], s[len(s)-40:])
	}
}

// TestBehaviorBuiltInPlanner: the planner's thinking config replaces the
// agent's generate_content_config one and adds nothing else; answers stay
// as they are.
func TestBehaviorBuiltInPlanner(t *testing.T) {
	t.Parallel()
	tc := &v1.ThinkingConfig{IncludeThoughts: true, ThinkingBudget: proto.Int32(1024)}
	p := &planners.BuiltIn{ThinkingConfig: tc}
	req := &v1.LlmRequest{
		Contents: []*v1.Content{{Role: "model", Parts: []*v1.Part{thought("hm"), text("hi")}}},
		Config: &v1.GenerateContentConfig{Temperature: proto.Float32(0.5), SystemInstruction: "Be brief.",
			ThinkingConfig: &v1.ThinkingConfig{ThinkingBudget: proto.Int32(100)}},
	}
	p.ProcessRequest(req)
	want := &v1.LlmRequest{
		Contents: []*v1.Content{{Role: "model", Parts: []*v1.Part{thought("hm"), text("hi")}}},
		Config:   &v1.GenerateContentConfig{Temperature: proto.Float32(0.5), SystemInstruction: "Be brief.", ThinkingConfig: tc},
	}
	if diff := cmp.Diff(want, req, protocmp.Transform()); diff != "" {
		t.Errorf("request (-want +got):\n%s", diff)
	}
	if req.Config.ThinkingConfig == tc {
		t.Error("the request shares the planner's thinking config")
	}
	bare := &v1.LlmRequest{}
	(&planners.BuiltIn{ThinkingConfig: &v1.ThinkingConfig{}}).ProcessRequest(bare)
	if bare.Config.GetThinkingConfig() == nil {
		t.Error("an empty thinking config is not set")
	}
	if got := p.ProcessResponse(runtime.Behavior1x, []*v1.Part{thought("x")}); got != nil {
		t.Errorf("ProcessResponse = %v, want nil", got)
	}
}
