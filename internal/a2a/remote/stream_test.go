package remote

import (
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
		Status: a2a.TaskStatus{State: a2a.TaskStateSubmitted, Message: first}})
	task = withStatus(task, &a2a.TaskStatusUpdateEvent{TaskID: "t", ContextID: "c", Status: a2a.TaskStatus{State: a2a.TaskStateWorking}})
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
