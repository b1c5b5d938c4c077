package gemini

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/modelhttp"
)

// Defaults of the per-call limits of [Config].
const (
	// DefaultMaxResponseBytes bounds the body of one model answer: a whole
	// response, or the sum of a stream's chunks.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultMaxChunks bounds the number of chunks of one streamed answer.
	DefaultMaxChunks = 10_000
)

// errCallTimeout is the cause of a call's context ending at its timeout.
var errCallTimeout = errors.New("gemini: model call timed out")

// limits are the bounds of one model call.
type limits struct {
	timeout   time.Duration
	maxBytes  int64
	maxChunks int
}

// limitsFrom takes the limits of cfg; zero fields get their defaults, and a
// negative value means no limit.
func limitsFrom(cfg Config) limits {
	l := limits{timeout: cfg.Timeout, maxBytes: cfg.MaxResponseBytes, maxChunks: cfg.MaxChunks}
	if l.maxBytes == 0 {
		l.maxBytes = DefaultMaxResponseBytes
	}
	if l.maxChunks == 0 {
		l.maxChunks = DefaultMaxChunks
	}
	return l
}

// call is one model call under its limits.
type call struct {
	limits
	// parent is the caller's context; ctx adds the timeout and the body cap.
	parent, ctx context.Context //nolint:containedctx // a call's contexts live as long as the call; fail tells from them who ended it.
	cancel      context.CancelFunc
	budget      *modelhttp.Budget
	chunks      int
}

// startCall returns the call's context: bounded by the timeout and carrying
// the body cap that [modelhttp.Transport] enforces. Call stop when done.
func (l limits) startCall(parent context.Context) *call {
	c := &call{limits: l, parent: parent, ctx: parent, cancel: func() {}}
	if l.timeout > 0 {
		c.ctx, c.cancel = context.WithTimeoutCause(parent, l.timeout, errCallTimeout)
	}
	if l.maxBytes > 0 {
		c.ctx, c.budget = modelhttp.WithBudget(c.ctx, l.maxBytes)
	}
	return c
}

func (c *call) stop() { c.cancel() }

// chunk counts one streamed chunk and fails once there are more than the cap.
func (c *call) chunk() error {
	c.chunks++
	if c.maxChunks > 0 && c.chunks > c.maxChunks {
		return models.TooLargeError(strconv.Itoa(c.maxChunks) + " chunks")
	}
	return nil
}

// fail returns the error the call reports for err: a [models.Error] when
// the call went past its body cap or its timeout (and not because the
// caller's context ended), else err mapped by [mapError].
func (c *call) fail(op string, err error) error {
	if c.parent.Err() == nil {
		if c.budget != nil && c.budget.Exceeded() {
			return fmt.Errorf("%s: %w", op, models.TooLargeError(strconv.FormatInt(c.maxBytes, 10)+" bytes"))
		}
		if errors.Is(context.Cause(c.ctx), errCallTimeout) {
			return fmt.Errorf("%s: %w", op, models.TimeoutError(c.timeout))
		}
	}
	return mapError(c.ctx, op, err)
}

// done returns the error of a call whose context ended, if it did, as
// [call.fail] reports it.
func (c *call) done(op string) error {
	if err := c.ctx.Err(); err != nil {
		return c.fail(op, err)
	}
	return nil
}

// instrumented returns base wrapped so that response bodies are capped,
// then tapped for key orders (see [tapTransport]).
func instrumented(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return modelhttp.Transport{Base: tapTransport{base: base}}
}
