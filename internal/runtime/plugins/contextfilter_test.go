package plugins

import (
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

func text(role, s string) *v1.Content {
	return &v1.Content{Role: role, Parts: []*v1.Part{{Text: s}}}
}

func call(id string) *v1.Content {
	return &v1.Content{Role: "model", Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: id, Name: "f"}}}}
}

func response(id string) *v1.Content {
	return &v1.Content{Role: "user", Parts: []*v1.Part{{FunctionResponse: &v1.FunctionResponse{Id: id, Name: "f"}}}}
}

func TestLastInvocations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		contents []*v1.Content
		keep     int
		want     int // index of the first content kept
	}{
		{"fewer invocations than kept", []*v1.Content{text("user", "q1"), text("model", "a1")}, 2, 0},
		{"consecutive user contents start one invocation",
			[]*v1.Content{text("user", "q1"), text("model", "a1"), text("user", "q2"), text("user", "q2b"), text("model", "a2")}, 1, 2},
		{"tool output does not start an invocation",
			[]*v1.Content{text("user", "q1"), call("x"), response("x"), text("model", "a1"), text("user", "q2")}, 1, 4},
		{"a kept response keeps its call (model ids)",
			[]*v1.Content{text("user", "q1"), call("m1"), text("user", "q2"), response("m1"), text("model", "a")}, 1, 1},
		{"engine ids do not count, as ADK sees them cleared",
			[]*v1.Content{text("user", "q1"), call("adk-1"), text("user", "q2"), response("adk-1"), text("model", "a")}, 1, 2},
	}
	for _, tt := range tests {
		got := lastInvocations(tt.contents, tt.keep)
		if len(got) != len(tt.contents)-tt.want || (len(got) > 0 && got[0] != tt.contents[tt.want]) {
			t.Errorf("%s: kept %d contents, want from index %d", tt.name, len(got), tt.want)
		}
	}
}
