package gemini

import (
	"context"
	"log/slog"
	"time"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// retrier repeats the attempts of model calls under the provider's policy,
// or under the one the call's context carries (an agent's retry_config).
type retrier struct {
	policy retry.Config
	env    retry.Env
}

func newRetrier(policy retry.Config) *retrier {
	return &retrier{policy: retryPolicy(policy), env: retry.Env{Classify: models.ErrorClass}}
}

// do runs attempt until it succeeds or the policy gives up, returning its
// last error.
func (r *retrier) do(ctx context.Context, attempt func(ctx context.Context) error) error {
	policy := r.policy
	if p, ok := retry.FromContext(ctx); ok {
		policy = p
	}
	env := r.env
	env.OnRetry = func(n int, d time.Duration, err error) {
		slog.DebugContext(ctx, "model call retried", "attempt", n, "delay", d, "class", models.ErrorClass(err))
	}
	return retry.Do(ctx, policy, env, func(ctx context.Context, _ int) error { return attempt(ctx) })
}

// interrupted returns err, the error of the call's attempts, or, when the
// call's context ended during a wait between attempts, the error the call
// reports for that (see [call.fail]).
func (c *call) interrupted(op string, err error) error {
	if ctxErr := c.ctx.Err(); ctxErr != nil && err == ctxErr {
		return c.fail(op, ctxErr)
	}
	return err
}
