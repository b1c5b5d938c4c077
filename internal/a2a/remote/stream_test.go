package remote

import (
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
)

// TestStreamedTask: the task kept over a stream has the latest status,
// earlier status messages in its history, and each artifact's chunks
// appended or replaced as the updates say.
func TestStreamedTask(t *testing.T) {
	t.Parallel()
	text := func(s string) a2a.ContentParts { return a2a.ContentParts{a2a.TextPart{Text: s}} }
	first := a2a.NewMessage(a2a.MessageRoleUser, text("hi")...)
	task := withStatus(nil, &a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c",
		Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted, Message: first}}, false)
	task = withStatus(task, &a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}}, false)
	task = withArtifact(task, &a2a.TaskArtifactUpdateEvent{Artifact: &a2a.Artifact{ID: "a", Parts: text("Sun")}})
	task = withArtifact(task, &a2a.TaskArtifactUpdateEvent{Append: true, Artifact: &a2a.Artifact{ID: "a", Parts: text("ny.")}})
	task = withArtifact(task, &a2a.TaskArtifactUpdateEvent{Artifact: &a2a.Artifact{ID: "b", Parts: text("x")}})
	if task.ID != "t" || task.ContextID != "c" || task.Status.State != a2a.TaskStateWorking || len(task.History) != 1 ||
		task.History[0] != first {
		t.Fatalf("task = %+v", task)
	}
	if len(task.Artifacts) != 2 || len(task.Artifacts[0].Parts) != 2 || len(task.Artifacts[1].Parts) != 1 {
		t.Fatalf("artifacts = %+v", task.Artifacts)
	}
	task = withArtifact(task, &a2a.TaskArtifactUpdateEvent{Artifact: &a2a.Artifact{ID: "a", Parts: text("Sunny.")}})
	if tp := task.Artifacts[0].Parts; len(tp) != 1 || tp[0].(a2a.TextPart).Text != "Sunny." {
		t.Fatalf("replaced artifact = %+v", tp)
	}
}

// TestTaskMessage: the message of a task answered, as ADK 1.39.1 and ADK
// 2.13 read it: the last artifact or all of them, the status message, the
// last history message or the last of the agent's.
func TestTaskMessage(t *testing.T) {
	t.Parallel()
	text := func(role a2a.MessageRole, s string) *a2a.Message { return a2a.NewMessage(role, a2a.TextPart{Text: s}) }
	art := func(s string) *a2a.Artifact { return &a2a.Artifact{Parts: a2a.ContentParts{a2a.TextPart{Text: s}}} }
	history := []*a2a.Message{text(a2a.MessageRoleAgent, "earlier"), text(a2a.MessageRoleUser, "Forecast?")}
	for _, tt := range []struct {
		name   string
		task   *a2a.Task
		want1x string
		want2x string
	}{
		{"artifacts", &a2a.Task{Artifacts: []*a2a.Artifact{art("a"), art("b")}, History: history}, "b", "a,b"},
		{"status message", &a2a.Task{Status: a2a.TaskStatus{Message: text(a2a.MessageRoleAgent, "s")}, History: history}, "s", "s"},
		{"history", &a2a.Task{History: history}, "Forecast?", "earlier"},
		{"user's history", &a2a.Task{History: history[1:]}, "Forecast?", ""},
		{"nothing", &a2a.Task{}, "", ""},
	} {
		for adk2, want := range map[bool]string{false: tt.want1x, true: tt.want2x} {
			var got []string
			if m := taskMessage(tt.task, adk2); m != nil {
				for _, p := range m.Parts {
					got = append(got, p.(a2a.TextPart).Text)
				}
			}
			if strings.Join(got, ",") != want {
				t.Errorf("%s (2.x %v): %q, want %q", tt.name, adk2, strings.Join(got, ","), want)
			}
		}
	}
}

// TestStreamedTaskV1: over a 1.0 interface the task keeps each update's
// status message in its history, as a2a-sdk 1.x's RemoteA2aAgent does.
func TestStreamedTaskV1(t *testing.T) {
	t.Parallel()
	working := a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: "Checking."})
	task := withStatus(&a2a.Task{ID: "t", History: []*a2a.Message{a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "hi"})}},
		&a2a.TaskStatusUpdateEvent{TaskID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateWorking, Message: working},
			Metadata: map[string]any{"k": 1}}, true)
	task = withStatus(task, &a2a.TaskStatusUpdateEvent{TaskID: "t", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}, true)
	if len(task.History) != 2 || task.History[1] != working || task.Status.State != a2a.TaskStateCompleted || task.Metadata["k"] != 1 {
		t.Fatalf("task = %+v", task)
	}
}
