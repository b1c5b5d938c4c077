package openai

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

// Defaults of the per-call limits of [Config], the Gemini adapter's.
const (
	// DefaultMaxResponseBytes bounds the body of one answer: a whole
	// response, or the sum of a stream's events.
	DefaultMaxResponseBytes = 8 << 20
	// DefaultMaxChunks bounds the number of chunks of one streamed answer.
	DefaultMaxChunks = 10_000
)

var (
	errBodyTooLarge = errors.New("openai: response body too large")
	errCallTimeout  = errors.New("openai: model call timed out")
)

// call is one model call under its limits: a timeout, a cap on the bytes
// of its answers and one on a stream's chunks.
type call struct {
	parent, ctx context.Context //nolint:containedctx // a call's contexts live as long as the call; fail tells from them who ended it.
	cancel      context.CancelFunc
	timeout     time.Duration
	budget      *bodyBudget
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
		c.budget = &bodyBudget{max: c.maxBytes}
		c.ctx = context.WithValue(c.ctx, budgetKey{}, c.budget)
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
		if c.budget != nil && c.budget.exceeded {
			return fmt.Errorf("%s: %w", op, models.TooLargeError(strconv.FormatInt(c.maxBytes, 10)+" bytes"))
		}
		if errors.Is(context.Cause(c.ctx), errCallTimeout) {
			return fmt.Errorf("%s: %w", op, models.TimeoutError(c.timeout))
		}
	}
	return mapError(c.ctx, op, err, exception)
}

// bodyBudget caps the bytes of one call's answers, each attempt's alone.
type bodyBudget struct {
	max      int64
	exceeded bool
}

type budgetKey struct{}

// limitTransport cuts a response body at its call's budget before the SDK
// reads it whole.
type limitTransport struct{ base http.RoundTripper }

func (t limitTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if b, ok := req.Context().Value(budgetKey{}).(*bodyBudget); ok && err == nil && resp.Body != nil {
		resp.Body = &limitedBody{ReadCloser: resp.Body, budget: b, left: b.max}
	}
	return resp, err
}

type limitedBody struct {
	io.ReadCloser
	budget *bodyBudget
	left   int64
}

func (r *limitedBody) Read(p []byte) (int, error) {
	if r.budget.exceeded {
		return 0, errBodyTooLarge
	}
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
