package openai

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/modelhttp"
)

// Defaults of the per-call limits of [Config], the Gemini adapter's.
const (
	// DefaultMaxResponseBytes bounds the body of one answer: a whole
	// response, or the sum of a stream's events.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultMaxChunks bounds the number of chunks of one streamed answer.
	DefaultMaxChunks = 10_000
)

var errCallTimeout = errors.New("openai: model call timed out")

// call is one model call under its limits: a timeout, a cap on the bytes
// of its answers and one on a stream's chunks.
type call struct {
	parent, ctx context.Context //nolint:containedctx // a call's contexts live as long as the call; fail tells from them who ended it.
	cancel      context.CancelFunc
	timeout     time.Duration
	budget      *modelhttp.Budget
	maxBytes    int64
	maxChunks   int
	chunks      int
}

func (m *model) startCall(parent context.Context) *call {
	c := &call{parent: parent, ctx: parent, cancel: func() {}, timeout: m.cfg.Timeout, maxBytes: m.cfg.MaxResponseBytes,
		maxChunks: m.cfg.MaxChunks}
	if c.timeout > 0 {
		c.ctx, c.cancel = context.WithTimeoutCause(parent, c.timeout, errCallTimeout)
	}
	if c.maxBytes > 0 {
		c.ctx, c.budget = modelhttp.WithBudget(c.ctx, c.maxBytes)
	}
	return c
}

func (c *call) stop() { c.cancel() }

// chunk counts one streamed chunk and fails past the cap.
func (c *call) chunk() error {
	c.chunks++
	if c.maxChunks > 0 && c.chunks > c.maxChunks {
		return models.TooLargeError(strconv.Itoa(c.maxChunks) + " chunks")
	}
	return nil
}

// fail returns the error the call reports for err: the cap or timeout it
// went past (unless the caller went away), else err mapped.
func (c *call) fail(op string, err error, exception string) error {
	if c.parent.Err() == nil {
		if c.budget != nil && c.budget.Exceeded() {
			return fmt.Errorf("%s: %w", op, models.TooLargeError(strconv.FormatInt(c.maxBytes, 10)+" bytes"))
		}
		if errors.Is(context.Cause(c.ctx), errCallTimeout) {
			return fmt.Errorf("%s: %w", op, models.TimeoutError(c.timeout))
		}
	}
	return mapError(c.ctx, op, err, exception)
}
