package a2a

import "github.com/a2aproject/a2a-go/a2a"

// aggregator is ADK's TaskResultAggregator: it keeps the task's true state
// by priority, failed > auth_required > input_required > working, with the
// message of the update that set it (the latest message while working),
// and rewrites every update it sees to working, so that the stream ends
// only with the final update. Not safe for concurrent use.
type aggregator struct {
	state   a2a.TaskState
	message *a2a.Message
}

func newAggregator() *aggregator { return &aggregator{state: a2a.TaskStateWorking} }

// process records ev's state and rewrites it to working.
func (g *aggregator) process(ev a2a.Event) {
	u, ok := ev.(*a2a.TaskStatusUpdateEvent)
	if !ok {
		return
	}
	switch s := u.Status.State; {
	case s == a2a.TaskStateFailed:
		g.state, g.message = s, u.Status.Message
	case s == a2a.TaskStateAuthRequired && g.state != a2a.TaskStateFailed:
		g.state, g.message = s, u.Status.Message
	case s == a2a.TaskStateInputRequired && g.state != a2a.TaskStateFailed && g.state != a2a.TaskStateAuthRequired:
		g.state, g.message = s, u.Status.Message
	case g.state == a2a.TaskStateWorking:
		g.message = u.Status.Message
	}
	u.Status.State = a2a.TaskStateWorking
}
