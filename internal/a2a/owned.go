package a2a

import (
	"context"
	"fmt"
	"iter"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
)

// ownedTasks answers a request naming a task only when the task is the
// caller's. a2a-go's handler looks some of them up by the task id alone:
// tasks/resubscribe reads the running execution of any id, and
// tasks/cancel and a message continuing a task claim the id (refusing the
// owner's own messages meanwhile) before they load the task from the
// store, which checks its owner. Another user's task, running or not, is
// not found, as for tasks/get. Safe for concurrent use.
type ownedTasks struct {
	a2asrv.RequestHandler
	tasks *taskStore
}

// OnCancelTask implements [a2asrv.RequestHandler]: a finished task
// (canceled included) is not cancelable, as a2a-sdk answers it.
func (h ownedTasks) OnCancelTask(ctx context.Context, params *a2a.TaskIDParams) (*a2a.Task, error) {
	if params == nil {
		return nil, a2a.ErrInvalidParams
	}
	task, err := h.tasks.Get(ctx, params.ID)
	if err != nil {
		return nil, err
	}
	if task.Status.State.Terminal() {
		return nil, &rpcError{Code: -32002, Message: "Task cannot be canceled - current state: TaskState." + string(task.Status.State)}
	}
	return h.RequestHandler.OnCancelTask(ctx, params)
}

// OnResubscribeToTask implements [a2asrv.RequestHandler]: a finished task
// is invalid params, as a2a-sdk answers it.
func (h ownedTasks) OnResubscribeToTask(ctx context.Context, params *a2a.TaskIDParams) iter.Seq2[a2a.Event, error] {
	fail := func(err error) iter.Seq2[a2a.Event, error] {
		return func(yield func(a2a.Event, error) bool) { yield(nil, err) }
	}
	if params == nil {
		return fail(a2a.ErrInvalidParams)
	}
	task, err := h.tasks.Get(ctx, params.ID)
	if err != nil {
		return fail(err)
	}
	if task.Status.State.Terminal() {
		return fail(&rpcError{Code: -32602, Message: fmt.Sprintf("Task %s is in terminal state: %s", task.ID, task.Status.State)})
	}
	return h.RequestHandler.OnResubscribeToTask(ctx, params)
}

// OnSendMessage implements [a2asrv.RequestHandler].
func (h ownedTasks) OnSendMessage(ctx context.Context, params *a2a.MessageSendParams) (a2a.SendMessageResult, error) {
	if !h.continuesOwn(ctx, params) {
		return nil, a2a.ErrTaskNotFound
	}
	return h.RequestHandler.OnSendMessage(ctx, params)
}

// OnSendMessageStream implements [a2asrv.RequestHandler].
func (h ownedTasks) OnSendMessageStream(ctx context.Context, params *a2a.MessageSendParams) iter.Seq2[a2a.Event, error] {
	if !h.continuesOwn(ctx, params) {
		return func(yield func(a2a.Event, error) bool) { yield(nil, a2a.ErrTaskNotFound) }
	}
	return h.RequestHandler.OnSendMessageStream(ctx, params)
}

// continuesOwn reports whether a message starts a task or continues one
// of the caller's.
func (h ownedTasks) continuesOwn(ctx context.Context, params *a2a.MessageSendParams) bool {
	if params == nil || params.Message == nil || params.Message.TaskID == "" {
		return true
	}
	return h.tasks.owns(ctx, params.Message.TaskID)
}
