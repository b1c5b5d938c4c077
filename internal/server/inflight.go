package server

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	gwruntime "github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// RequestAmplification is what one byte of a request body costs in memory
// while the request is served, and so what the request budget charges per
// byte. Measured on a maximum-size /run (TestRequestAmplification): the
// body as read, its protobuf decoding, the user event built and stored
// from it and the model request that carries it hold 2.2 to 4.2 bytes per
// byte of body at their peak, with a few KiB of fixed cost.
const RequestAmplification = 4

// budgetRetryDelay is the RetryInfo and Retry-After of a request refused
// for the budget: requests in flight hold it for a model call or two.
const budgetRetryDelay = time.Second

// reasonServerBusy is the ErrorInfo reason of a request refused for the
// request budget.
var reasonServerBusy = v1.ErrorReason_SERVER_BUSY.String()

// requestBudget bounds the memory of requests in flight across the process:
// each request takes its charge before its body is read or decoded and puts
// it back once it is served. It refuses at once rather than queueing, so a
// burst costs the server nothing but the refusals. A nil budget takes
// everything. It is safe for concurrent use.
type requestBudget struct {
	capacity int64
	mu       sync.Mutex
	used     int64
}

// newRequestBudget returns a budget of capacity bytes, nil (no bound) when
// capacity is not positive. Its default is applied by [newSettings].
func newRequestBudget(capacity int64) *requestBudget {
	if capacity <= 0 {
		return nil
	}
	return &requestBudget{capacity: capacity}
}

// charge returns what a body of n bytes takes: n × [RequestAmplification],
// at most the whole budget, so that a body within the size limit is still
// served when it is alone.
func (b *requestBudget) charge(n int64) int64 {
	if b == nil || n <= 0 {
		return 0
	}
	if n > b.capacity/RequestAmplification {
		return b.capacity
	}
	return n * RequestAmplification
}

// take takes n bytes, or takes nothing and reports false when fewer are
// free.
func (b *requestBudget) take(n int64) bool {
	if b == nil || n <= 0 {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.capacity {
		return false
	}
	b.used += n
	return true
}

// put gives back n bytes that take took.
func (b *requestBudget) put(n int64) {
	if b == nil || n <= 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
}

// inUse returns the bytes taken.
func (b *requestBudget) inUse() int64 {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// errServerBusy is the status of a request refused for the request budget:
// RESOURCE_EXHAUSTED (SERVER_BUSY) with a RetryInfo.
func errServerBusy() error {
	st := status.New(codes.ResourceExhausted, "the server is busy with other requests; retry after "+budgetRetryDelay.String())
	if withDetails, err := st.WithDetails(
		&errdetails.ErrorInfo{Reason: reasonServerBusy, Domain: errorDomain},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(budgetRetryDelay)},
	); err == nil {
		st = withDetails
	}
	return st.Err()
}

// errServerBusyHTTP is [errServerBusy] answered 503 (with Retry-After).
func errServerBusyHTTP() error {
	return &gwruntime.HTTPStatusError{HTTPStatus: http.StatusServiceUnavailable, Err: errServerBusy()}
}

// admit charges r's body to the budget before any handler reads it and
// returns the function that gives the charge back, to be called once the
// handler has returned. A body of known length is charged for that length
// at once; a body without one (chunked) is read whole here, charged as it
// arrives, and handed on from memory. A request the budget cannot hold is
// answered 503 with Retry-After; ok is then false. Its body is then read
// and dropped, within the size and read-time limits, without being kept:
// a server that closed the connection instead would leave the client
// writing into a reset connection, and most clients then report the reset
// rather than the answer.
func (g *guard) admit(w http.ResponseWriter, r *http.Request) (release func(), ok bool) {
	b := g.budget
	if b == nil || !hasBody(r) {
		return func() {}, true
	}
	if r.ContentLength > 0 {
		n := b.charge(r.ContentLength)
		if !b.take(n) {
			g.refuse(w, r, errServerBusyHTTP())
			return nil, false
		}
		return func() { b.put(n) }, true
	}
	body, held, err := readCharged(r.Body, b)
	if err != nil {
		b.put(held)
		g.refuse(w, r, chunkedBodyError(r, err))
		return nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return func() { b.put(held) }, true
}

// refuse answers r with err, then reads what is left of its body (bounded
// by the guard's size limit and read deadline) and drops it.
func (g *guard) refuse(w http.ResponseWriter, r *http.Request, err error) {
	g.fail(w, r, err)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	_, _ = io.Copy(io.Discard, r.Body)
}

// errOverBudget ends the read of a body the budget cannot hold.
var errOverBudget = errors.New("request budget exhausted")

// readCharged reads body to its end, taking from b what the bytes read so
// far are charged before keeping them; held is what it took, also on
// failure.
func readCharged(body io.Reader, b *requestBudget) (_ []byte, held int64, _ error) {
	var buf bytes.Buffer
	chunk := make([]byte, 32<<10)
	for {
		n, err := body.Read(chunk)
		if n > 0 {
			more := b.charge(int64(buf.Len()+n)) - held
			if !b.take(more) {
				return nil, held, errOverBudget
			}
			held += more
			buf.Write(chunk[:n])
		}
		switch {
		case errors.Is(err, io.EOF):
			return buf.Bytes(), held, nil
		case err != nil:
			return nil, held, err
		}
	}
}

// chunkedBodyError is the answer to a body that [readCharged] could not
// read: over the budget, over the size limit, too slow, or broken.
func chunkedBodyError(r *http.Request, err error) error {
	if errors.Is(err, errOverBudget) {
		return errServerBusyHTTP()
	}
	if limit, ok := bodyTooLarge(r); ok {
		return errBodyTooLarge(limit)
	}
	if timeout, ok := bodyTimedOut(r); ok {
		return errBodyTimeout(timeout)
	}
	return invalid("reading request body: " + err.Error())
}
