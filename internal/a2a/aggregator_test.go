package a2a

import (
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
)

// TestBehaviorTaskResultAggregator: ADK's TaskResultAggregator keeps the
// highest state (failed > auth_required > input_required > working) with
// the message of the update that set it, the latest message while
// working, and rewrites every update to working.
func TestBehaviorTaskResultAggregator(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		states    []a2a.TaskState
		wantState a2a.TaskState
		wantText  string
	}{
		{"auth beats later input", []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateAuthRequired, a2a.TaskStateInputRequired, a2a.TaskStateWorking},
			a2a.TaskStateAuthRequired, "1"},
		{"failed is terminal", []a2a.TaskState{a2a.TaskStateFailed, a2a.TaskStateAuthRequired, a2a.TaskStateInputRequired},
			a2a.TaskStateFailed, "0"},
		{"working keeps the last message", []a2a.TaskState{a2a.TaskStateWorking, a2a.TaskStateWorking},
			a2a.TaskStateWorking, "1"},
		{"input then failed", []a2a.TaskState{a2a.TaskStateInputRequired, a2a.TaskStateWorking, a2a.TaskStateFailed},
			a2a.TaskStateFailed, "2"},
		{"a later failure wins over auth", []a2a.TaskState{a2a.TaskStateAuthRequired, a2a.TaskStateFailed},
			a2a.TaskStateFailed, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := newAggregator()
			info := &a2a.Task{ID: "t", ContextID: "c"}
			for i, s := range tt.states {
				ev := a2a.NewStatusUpdateEvent(info, s, a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: string(rune('0' + i))}))
				g.process(ev)
				if ev.Status.State != a2a.TaskStateWorking {
					t.Errorf("update %d left as %s, want working", i, ev.Status.State)
				}
			}
			if g.state != tt.wantState || g.message == nil || g.message.Parts[0].(a2a.TextPart).Text != tt.wantText {
				t.Fatalf("state %s message %v, want %s %q", g.state, g.message, tt.wantState, tt.wantText)
			}
		})
	}
}

// TestAggregatorIgnoresArtifacts: only status updates count.
func TestAggregatorIgnoresArtifacts(t *testing.T) {
	t.Parallel()
	g := newAggregator()
	g.process(a2a.NewArtifactEvent(&a2a.Task{ID: "t", ContextID: "c"}, a2a.TextPart{Text: "x"}))
	if g.state != a2a.TaskStateWorking || g.message != nil {
		t.Fatalf("state %s message %v", g.state, g.message)
	}
}
