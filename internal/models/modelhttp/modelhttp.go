// Package modelhttp is the HTTP plumbing the model adapters share: a cap
// on the bytes of one call's answers, enforced as they arrive, and the test
// that tells a model that could not be reached from one that answered.
package modelhttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"syscall"
)

// ErrBodyTooLarge is what reading an answer past its call's cap returns to
// the SDK reading it.
var ErrBodyTooLarge = errors.New("model response body too large")

// Budget is the cap of one call's answers: each attempt of the call may
// read up to the cap. An SDK reads an attempt's body on the calling
// goroutine, so no lock is needed.
type Budget struct {
	max      int64
	exceeded bool
}

// Exceeded reports whether an answer went past the cap.
func (b *Budget) Exceeded() bool { return b.exceeded }

type budgetKey struct{}

// WithBudget returns ctx carrying a cap of max bytes for the answers of
// the requests made with it (see [Transport]), and the cap.
func WithBudget(ctx context.Context, max int64) (context.Context, *Budget) {
	b := &Budget{max: max}
	return context.WithValue(ctx, budgetKey{}, b), b
}

// Transport cuts the response body of a request whose context carries a
// [Budget] at the cap, before the SDK buffers or parses it: past it,
// reading fails with [ErrBodyTooLarge] and the connection is dropped.
type Transport struct {
	Base http.RoundTripper
}

// RoundTrip sends req through the base transport and caps its answer.
func (t Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.Base.RoundTrip(req)
	if b, ok := req.Context().Value(budgetKey{}).(*Budget); ok && err == nil && resp.Body != nil {
		resp.Body = &limitedBody{ReadCloser: resp.Body, budget: b, left: b.max}
	}
	return resp, err
}

// CloseIdleConnections closes the idle connections of the base transport.
func (t Transport) CloseIdleConnections() {
	if c, ok := t.Base.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// limitedBody reads at most budget.max bytes of a body.
type limitedBody struct {
	io.ReadCloser
	budget *Budget
	left   int64
}

func (r *limitedBody) Read(p []byte) (int, error) {
	if r.budget.exceeded {
		return 0, ErrBodyTooLarge
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
	return n, ErrBodyTooLarge
}

// IsTransportError reports whether err is a failure to reach a model or a
// connection lost while reading its answer.
func IsTransportError(err error) bool {
	var netErr net.Error
	return errors.As(err, &netErr) ||
		errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, net.ErrClosed)
}
