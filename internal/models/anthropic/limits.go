package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/agentsvc/agentsvc/internal/models"
)

// errBodyTooLarge is what reading an answer past its cap returns to the
// SDK; the call then reports a [models.Error].
var errBodyTooLarge = errors.New("anthropic: response body too large")

// errCallTimeout is the cause of a call's context ending at its timeout.
var errCallTimeout = errors.New("anthropic: model call timed out")

// limits are the bounds of one model call; a non-positive field is no
// bound.
type limits struct {
	timeout   time.Duration
	maxBytes  int64
	maxChunks int
}

func limitsOf(cfg Config) limits {
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
	// parent is the caller's context; ctx adds the timeout and the body
	// budget.
	parent, ctx context.Context //nolint:containedctx // both live as long as the call; fail tells from them who ended it.
	cancel      context.CancelFunc
	budget      *budget
	chunks      int
}

// budget is what is left of a call's body cap. The SDK reads an answer on
// the calling goroutine, so it needs no lock.
type budget struct {
	left     int64
	exceeded bool
}

type budgetKey struct{}

func (l limits) start(parent context.Context) *call {
	c := &call{limits: l, parent: parent, ctx: parent, cancel: func() {}}
	if l.timeout > 0 {
		c.ctx, c.cancel = context.WithTimeoutCause(parent, l.timeout, errCallTimeout)
	}
	if l.maxBytes > 0 {
		c.budget = &budget{left: l.maxBytes}
		c.ctx = context.WithValue(c.ctx, budgetKey{}, c.budget)
	}
	return c
}

// chunk counts one streamed event and fails past the cap.
func (c *call) chunk() error {
	c.chunks++
	if c.maxChunks > 0 && c.chunks > c.maxChunks {
		return models.TooLargeError(strconv.Itoa(c.maxChunks) + " chunks")
	}
	return nil
}

// fail returns the error the call reports for err: a [models.Error] when
// the call went past its body cap or timeout (and its caller is still
// there), else err mapped by [mapError].
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

// capBodies is SDK middleware that cuts an answer at the budget its
// request's context carries, before the SDK buffers or decodes it.
func capBodies(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
	resp, err := next(req)
	if b, ok := req.Context().Value(budgetKey{}).(*budget); ok && err == nil && resp.Body != nil {
		resp.Body = &cappedBody{ReadCloser: resp.Body, budget: b}
	}
	return resp, err
}

// cappedBody reads a body while its budget lasts.
type cappedBody struct {
	io.ReadCloser
	budget *budget
}

func (r *cappedBody) Read(p []byte) (int, error) {
	if r.budget.exceeded {
		return 0, errBodyTooLarge
	}
	// One byte over what is left tells a body at the cap from a longer one.
	if int64(len(p)) > r.budget.left+1 {
		p = p[:r.budget.left+1]
	}
	n, err := r.ReadCloser.Read(p)
	if int64(n) <= r.budget.left {
		r.budget.left -= int64(n)
		return n, err
	}
	n, r.budget.left = int(r.budget.left), 0
	r.budget.exceeded = true
	return n, errBodyTooLarge
}
