package graph

import (
	"context"
	"errors"

	"github.com/agentsvc/agentsvc/internal/models"
)

// retried runs an agent or task node under its retry policy and timeout,
// as ADK retries any node: a failed attempt is an event of the workflow
// (the agent's error event, as ADK reports a model error: its status and
// text), a retry_config's exceptions filter on google-genai's class
// names, and the node runs again from its start, at the same path. Without a policy or
// a timeout the node runs once and its error is the invocation's.
func (r *run) retried(n *Node, path string, t trigger, runOnce func(n *Node, path string, t trigger) outcome) outcome {
	if n.Retry == nil && n.Timeout <= 0 {
		return runOnce(n, path, t)
	}
	var o outcome
	err := r.attempts(t.ictx, n, path, func(ctx context.Context, _ int) error {
		at := t
		at.ictx, at.retried = t.ictx.WithContext(ctx), true
		o = runOnce(n, path, at)
		if o.err == nil || ctx.Err() != nil || errors.Is(o.err, context.Canceled) {
			return o.err
		}
		// The agent's error event is the failed attempt's.
		return &NodeError{Type: models.ErrorClass(o.err), Message: o.err.Error(), reported: o.reported}
	})
	if err != nil {
		return outcome{err: r.nodeFailed(n, err)}
	}
	return o
}
