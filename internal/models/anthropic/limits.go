package anthropic

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

// errCallTimeout is the cause of a call's context ending at its timeout.
var errCallTimeout = errors.New("anthropic: model call timed out")

// limits are the bounds of one model call; a non-positive field is no
// bound.
type limits struct {
	// flavour words the call's error answers (see [mapError]).
	flavour   flavour
	timeout   time.Duration
	maxBytes  int64
	maxChunks int
}

func limitsOf(cfg Config, f flavour) limits {
	l := limits{flavour: f, timeout: cfg.Timeout, maxBytes: cfg.MaxResponseBytes, maxChunks: cfg.MaxChunks}
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
	budget      *modelhttp.Budget
	chunks      int
}

func (l limits) start(parent context.Context) *call {
	c := &call{limits: l, parent: parent, ctx: parent, cancel: func() {}}
	if l.timeout > 0 {
		c.ctx, c.cancel = context.WithTimeoutCause(parent, l.timeout, errCallTimeout)
	}
	if l.maxBytes > 0 {
		c.ctx, c.budget = modelhttp.WithBudget(c.ctx, l.maxBytes)
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
		if c.budget != nil && c.budget.Exceeded() {
			return fmt.Errorf("%s: %w", op, models.TooLargeError(strconv.FormatInt(c.maxBytes, 10)+" bytes"))
		}
		if errors.Is(context.Cause(c.ctx), errCallTimeout) {
			return fmt.Errorf("%s: %w", op, models.TimeoutError(c.timeout))
		}
	}
	return mapError(c.ctx, op, err, c.flavour)
}

// cappedClient returns a client that sends through hc's transport with
// the answers of each call capped at its budget (see [modelhttp]); hc
// itself is left as it is.
func cappedClient(hc *http.Client) *http.Client {
	out := &http.Client{}
	if hc != nil {
		*out = *hc
	}
	base := out.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	out.Transport = modelhttp.Transport{Base: base}
	return out
}
