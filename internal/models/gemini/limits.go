package gemini

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/agentsvc/agentsvc/internal/models"
)

// Defaults of the per-call limits of [Config].
const (
	// DefaultMaxResponseBytes bounds the body of one model answer: a whole
	// response, or the sum of a stream's chunks.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultMaxChunks bounds the number of chunks of one streamed answer.
	DefaultMaxChunks = 10_000
)

// errBodyTooLarge is what reading a response body past its cap returns to
// the SDK; the call then reports a [models.Error].
var errBodyTooLarge = errors.New("gemini: response body too large")

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
	budget      *bodyBudget
	chunks      int
}

// startCall returns the call's context: bounded by the timeout and carrying
// the body cap that [limitTransport] enforces. Call stop when done.
func (l limits) startCall(parent context.Context) *call {
	c := &call{limits: l, parent: parent, ctx: parent, cancel: func() {}}
	if l.timeout > 0 {
		c.ctx, c.cancel = context.WithTimeoutCause(parent, l.timeout, errCallTimeout)
	}
	if l.maxBytes > 0 {
		c.budget = &bodyBudget{max: l.maxBytes}
		c.ctx = context.WithValue(c.ctx, budgetKey{}, c.budget)
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
		if c.budget != nil && c.budget.exceeded {
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

// bodyBudget is the cap of one call's response bodies. Each attempt of the
// call may read up to max bytes; the SDK reads an attempt's body on the
// calling goroutine, so no lock is needed.
type bodyBudget struct {
	max      int64
	exceeded bool
}

type budgetKey struct{}

// limitTransport cuts the response body of a request whose context carries
// a [bodyBudget] at the budget, before the SDK buffers or parses it: past
// it, reading fails with errBodyTooLarge and the connection is dropped.
type limitTransport struct {
	base http.RoundTripper
}

func (t limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if b, ok := req.Context().Value(budgetKey{}).(*bodyBudget); ok && err == nil && resp.Body != nil {
		resp.Body = &limitedBody{ReadCloser: resp.Body, budget: b, left: b.max}
	}
	return resp, err
}

// CloseIdleConnections closes the idle connections of the base transport.
func (t limitTransport) CloseIdleConnections() {
	if c, ok := t.base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// limitedBody reads at most budget.max bytes of a body.
type limitedBody struct {
	io.ReadCloser
	budget *bodyBudget
	left   int64
}

func (r *limitedBody) Read(p []byte) (int, error) {
	if r.budget.exceeded {
		return 0, errBodyTooLarge
	}
	// One byte more than is left tells a body at the cap from a longer one.
	if int64(len(p)) > r.left+1 {
		p = p[:r.left+1]
	}
	n, err := r.ReadCloser.Read(p)
	if int64(n) <= r.left {
		r.left -= int64(n)
		return n, err
	}
	n, r.left = int(r.left), 0
	r.budget.exceeded = true
	return n, errBodyTooLarge
}

// instrumented returns base wrapped so that response bodies are capped,
// then tapped for key orders (see [tapTransport]).
func instrumented(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return limitTransport{base: tapTransport{base: base}}
}
