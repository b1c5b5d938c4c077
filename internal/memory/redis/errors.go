package redis

import (
	"context"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	"github.com/agentsvc/agentsvc/internal/memory"
)

// unavailableReplies are server replies that mean "not now" rather than "bad
// request": loading a dataset, a replica during failover, no quorum, out of
// memory, a script running too long.
var unavailableReplies = []string{"LOADING", "READONLY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN", "BUSY", "OOM"}

// classify turns a go-redis error into the store's: cancellation stays a
// context error, server refusals and network failures wrap
// [memory.ErrUnavailable], and anything else (a bug) keeps its text.
func classify(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		return fmt.Errorf("%s: %w", op, err)
	}
	var reply goredis.Error
	if errors.As(err, &reply) {
		for _, prefix := range unavailableReplies {
			if goredis.HasErrorPrefix(err, prefix) {
				return fmt.Errorf("%s: %w: %w", op, memory.ErrUnavailable, err)
			}
		}
		return fmt.Errorf("%s: redis: %w", op, err)
	}
	return fmt.Errorf("%s: %w: %w", op, memory.ErrUnavailable, err)
}
