package remote

import (
	"context"
	"iter"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/google/uuid"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// streamer streams a message: a2a-go's client with message/stream, of a
// 0.3 interface, or [jsonRPC1] with SendStreamingMessage, of a 1.0 one.
type streamer interface {
	SendStreamingMessage(ctx context.Context, params *a2a.MessageSendParams) iter.Seq2[a2a.Event, error]
}

// streams reports whether a run sends its message with message/stream:
// in an ADK 2.x app, whose RemoteA2aAgent streams (a2a-sdk 1.x's client
// does by default) when the card declares streaming. ADK 1.x's client
// sends message/send.
func (a *Agent) streams(ictx *runtime.InvocationContext) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return ictx.App() != nil && ictx.App().Behavior == runtime.Behavior2x && a.streaming
}

// runStream is ADK 2.x's RemoteA2aAgent on a streamed answer: an event for
// each update as it comes, so that /run_sse streams them: the task, each
// status update with a message (its parts thoughts while the task works),
// each status update that ends an exchange (input or auth required, or a
// final state) without one, and each artifact update, partial until its
// last chunk, all chunks of one artifact sharing an event id; then ADK's
// error event when the stream ends before the task finishes or pauses.
// The task it records on each event is kept as the client of the
// interface's version keeps it.
func (a *Agent) runStream(ictx *runtime.InvocationContext, remote streamer, msg *a2a.Message,
	yield func(*v1.Event, error) bool) {
	ctx := ictx.Context()
	sendCtx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	defer cancel()
	var task *a2a.Task
	_, isV1 := remote.(*jsonRPC1)
	for item, err := range remote.SendStreamingMessage(sendCtx, &a2a.MessageSendParams{Message: msg}) {
		if err != nil {
			yield(requestFailed(ictx, msg, err))
			return
		}
		var ev *v1.Event
		switch it := item.(type) {
		case *a2a.Task:
			task = it
			ev = a.responseEvent(ictx, msg, it)
		case *a2a.Message:
			ev = a.responseEvent(ictx, msg, it)
		case *a2a.TaskStatusUpdateEvent:
			task = withStatus(task, it, isV1)
			ev = statusEvent(ictx, it)
		case *a2a.TaskArtifactUpdateEvent:
			task = withArtifact(task, it)
			ev = artifactEvent(ictx, it)
		}
		if ev == nil {
			continue
		}
		if task != nil {
			meta := ev.GetCustomMetadata().AsMap()
			meta[metaPrefix+"request"], meta[metaPrefix+"response"] = dump(msg), dump(task)
			meta[metaPrefix+"task_id"] = string(task.ID)
			if task.ContextID != "" {
				meta[metaPrefix+"context_id"] = task.ContextID
			}
			ev.CustomMetadata = metadata(meta)
		}
		if !yield(ev, nil) {
			return
		}
	}
	if task != nil && unfinishedStates[task.Status.State] {
		ev := ictx.NewEvent()
		ev.ErrorMessage = "A2A response stream ended before task " + string(task.ID) + " reached a terminal state."
		ev.CustomMetadata = metadata(map[string]any{metaPrefix + "request": dump(msg)})
		yield(ev, nil)
	}
}

// unfinishedStates are ADK's _UNFINISHED_TASK_STATES: a stream that ends
// with its task in one was cut short (one waiting for input or auth stops
// on purpose).
var unfinishedStates = map[a2a.TaskState]bool{
	a2a.TaskStateUnknown: true, a2a.TaskStateSubmitted: true, a2a.TaskStateWorking: true,
}

// requestFailed is what a run yields for a request that failed: the
// invocation's own end, or ADK's error event naming the failure.
func requestFailed(ictx *runtime.InvocationContext, msg *a2a.Message, err error) (*v1.Event, error) {
	if ictx.Context().Err() != nil {
		return nil, ictx.Context().Err()
	}
	text := "A2A request failed: " + err.Error()
	ev := ictx.NewEvent()
	ev.ErrorMessage = text
	ev.CustomMetadata = metadata(map[string]any{metaPrefix + "request": dump(msg), metaPrefix + "error": text})
	return ev, nil
}

// boundaryStates are ADK's _TASK_RESPONSE_BOUNDARY_STATES: a status that
// ends an exchange.
var boundaryStates = map[a2a.TaskState]bool{
	a2a.TaskStateInputRequired: true, a2a.TaskStateAuthRequired: true, a2a.TaskStateCompleted: true,
	a2a.TaskStateFailed: true, a2a.TaskStateCanceled: true, a2a.TaskStateRejected: true,
}

// statusEvent is the event of a status update; nil for one that shows
// nothing.
func statusEvent(ictx *runtime.InvocationContext, u *a2a.TaskStatusUpdateEvent) *v1.Event {
	ev := ictx.NewEvent()
	if m := u.Status.Message; m != nil && len(m.Parts) > 0 {
		fillFromMessage(ev, m)
		if u.Status.State == a2a.TaskStateSubmitted || u.Status.State == a2a.TaskStateWorking {
			for _, p := range ev.GetContent().GetParts() {
				p.Thought = true
			}
		}
		addMockInputCall(ev, u.Status.State)
		return ev
	}
	if boundaryStates[u.Status.State] {
		return ev
	}
	return nil
}

// artifactEvent is the event of an artifact update, with ADK's
// _artifact_event_id; nil without parts.
func artifactEvent(ictx *runtime.InvocationContext, u *a2a.TaskArtifactUpdateEvent) *v1.Event {
	if u.Artifact == nil || len(u.Artifact.Parts) == 0 {
		return nil
	}
	ev := ictx.NewEvent()
	fillFromMessage(ev, &a2a.Message{Role: a2a.MessageRoleAgent, Parts: u.Artifact.Parts})
	partial := !u.LastChunk
	ev.Partial = &partial
	if u.Artifact.ID != "" {
		ev.Id = uuid.NewSHA1(uuid.NameSpaceURL, []byte(ictx.InvocationID+":"+string(u.Artifact.ID))).String()
	}
	return ev
}

// withStatus is the task a2a-sdk's client keeps after a status update: the
// new status and its metadata merged, with a2a-sdk 0.3's client (of a 0.3
// interface) the previous status message moved to the history, with
// a2a-sdk 1.x's (of a 1.0 interface, isV1) the update's own added to it.
func withStatus(task *a2a.Task, u *a2a.TaskStatusUpdateEvent, isV1 bool) *a2a.Task {
	t := taskOf(task, u.TaskID, u.ContextID)
	kept := t.Status.Message
	if isV1 {
		kept = u.Status.Message
	}
	if kept != nil {
		t.History = append(t.History, kept)
	}
	t.Status = u.Status
	mergeMetadata(t, u.Metadata)
	return t
}

// mergeMetadata sets each key of meta on the task's metadata.
func mergeMetadata(t *a2a.Task, meta map[string]any) {
	for k, v := range meta {
		if t.Metadata == nil {
			t.Metadata = map[string]any{}
		}
		t.Metadata[k] = v
	}
}

// withArtifact is the task after an artifact update: the chunk appended to
// its artifact, or the artifact set.
func withArtifact(task *a2a.Task, u *a2a.TaskArtifactUpdateEvent) *a2a.Task {
	t := taskOf(task, u.TaskID, u.ContextID)
	if u.Artifact == nil {
		return t
	}
	for i, art := range t.Artifacts {
		if art.ID == u.Artifact.ID {
			if u.Append {
				merged := *art
				merged.Parts = append(append(a2a.ContentParts{}, art.Parts...), u.Artifact.Parts...)
				t.Artifacts[i] = &merged
			} else {
				t.Artifacts[i] = u.Artifact
			}
			return t
		}
	}
	t.Artifacts = append(t.Artifacts, u.Artifact)
	return t
}

func taskOf(task *a2a.Task, id a2a.TaskID, contextID string) *a2a.Task {
	if task != nil {
		return task
	}
	return &a2a.Task{ID: id, ContextID: contextID}
}
