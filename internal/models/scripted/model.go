// Package scripted is a deterministic model for tests and benchmarks, like
// ADK's MockModel: it answers each call with the next scripted step and
// records the requests it receives.
package scripted

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
)

// ErrExhausted is returned (wrapped) by a call that finds no scripted step
// left.
var ErrExhausted = errors.New("scripted model has no responses left")

// Step is one scripted answer, built with [Response], [Stream] or [Fail].
type Step struct {
	once   iter.Seq2[*v1.LlmResponse, error] // answer to a non-streamed call
	stream iter.Seq2[*v1.LlmResponse, error] // answer to a streamed call
}

// Response is a step answering r, streamed or not; a streamed call gets it as
// the only, final response. r is yielded as given, not copied: do not reuse
// one response in several steps if the consumer changes it.
func Response(r *v1.LlmResponse) Step {
	seq := func(yield func(*v1.LlmResponse, error) bool) { yield(r, nil) }
	return Step{once: seq, stream: seq}
}

// Stream is a step answering a streamed call with copies of chunks marked
// partial and then their aggregate, built as the Gemini adapter builds it
// (consecutive text of the same kind merged, other parts in order, the last
// finish reason, a finish reason other than STOP as the error code), and a
// non-streamed call with the aggregate alone. Unlike the adapter it gives no
// ids to calls without one. The chunks are copied here, so the caller may
// reuse them.
func Stream(chunks ...*v1.LlmResponse) Step {
	partials := make([]*v1.LlmResponse, len(chunks))
	for i, c := range chunks {
		partials[i] = proto.CloneOf(c)
		partials[i].Partial = proto.Bool(true)
	}
	final := aggregate(chunks)
	// As the Gemini adapter's: ADK's aggregate of a streamed call says
	// partial=False and carries no model version.
	streamed := proto.CloneOf(final)
	streamed.Partial = proto.Bool(false)
	streamed.ModelVersion = ""
	return Step{
		once: func(yield func(*v1.LlmResponse, error) bool) { yield(final, nil) },
		stream: func(yield func(*v1.LlmResponse, error) bool) {
			for _, p := range partials {
				if !yield(p, nil) {
					return
				}
			}
			yield(streamed, nil)
		},
	}
}

// Fail is a step failing with err, e.g. a [*models.Error].
func Fail(err error) Step {
	seq := func(yield func(*v1.LlmResponse, error) bool) { yield(nil, err) }
	return Step{once: seq, stream: seq}
}

// Model is a scripted [models.Model]. Each call takes the next step of its
// queue when it is made (not when its result is iterated) and records a
// clone of the request. It is safe for concurrent use; concurrent calls take
// steps in the order they lock the queue.
type Model struct {
	name     string
	noRecord atomic.Bool
	mu       sync.Mutex
	steps    []Step
	head     int
	calls    int
	requests []*v1.LlmRequest
}

var _ models.Model = (*Model)(nil)

// New returns a model called name answering with responses, in order.
func New(name string, responses ...*v1.LlmResponse) *Model {
	m := &Model{name: name}
	for _, r := range responses {
		m.steps = append(m.steps, Response(r))
	}
	return m
}

// Name returns the model name.
func (m *Model) Name() string { return m.name }

// Push appends steps to the queue.
func (m *Model) Push(steps ...Step) *Model {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.steps = append(m.steps, steps...)
	return m
}

// Enqueue appends responses to the queue, one step each.
func (m *Model) Enqueue(responses ...*v1.LlmResponse) *Model {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range responses {
		m.steps = append(m.steps, Response(r))
	}
	return m
}

// SetRecording turns request recording on (the default) or off; off, a
// call allocates nothing.
func (m *Model) SetRecording(on bool) { m.noRecord.Store(!on) }

// Requests returns the recorded requests, oldest first. They are clones made
// at call time: later changes by the caller do not show.
func (m *Model) Requests() []*v1.LlmRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]*v1.LlmRequest(nil), m.requests...)
}

// Calls returns the number of calls made.
func (m *Model) Calls() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls
}

// Remaining returns the number of steps not yet used.
func (m *Model) Remaining() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.steps) - m.head
}

// Errors of a call whose context had ended, made once so that a call
// allocates nothing.
var (
	errCanceled         = fmt.Errorf("scripted.generate_content: %w", context.Canceled)
	errDeadlineExceeded = fmt.Errorf("scripted.generate_content: %w", context.DeadlineExceeded)
	seqCanceled         = func(yield func(*v1.LlmResponse, error) bool) { yield(nil, errCanceled) }
	seqDeadlineExceeded = func(yield func(*v1.LlmResponse, error) bool) { yield(nil, errDeadlineExceeded) }
)

// GenerateContent takes the next step and returns its answer for stream. It
// fails with [ErrExhausted] when no step is left, and with the context's
// error when ctx has ended (the step is then not taken).
func (m *Model) GenerateContent(ctx context.Context, req *v1.LlmRequest, stream bool) iter.Seq2[*v1.LlmResponse, error] {
	switch ctx.Err() {
	case nil:
	case context.DeadlineExceeded:
		return seqDeadlineExceeded
	default:
		return seqCanceled
	}
	var rec *v1.LlmRequest
	if !m.noRecord.Load() {
		rec = proto.CloneOf(req)
		clearClientIDs(rec)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if rec != nil {
		m.requests = append(m.requests, rec)
	}
	if m.head == len(m.steps) {
		return exhausted(m.name, m.calls)
	}
	s := m.steps[m.head]
	m.steps[m.head] = Step{}
	m.head++
	if m.head == len(m.steps) {
		m.steps, m.head = m.steps[:0], 0
	}
	seq := s.once
	if stream {
		seq = s.stream
	}
	if seq == nil {
		err := fmt.Errorf("scripted.generate_content: model %q, call %d: %w", m.name, m.calls, errZeroStep)
		return func(yield func(*v1.LlmResponse, error) bool) { yield(nil, err) }
	}
	return seq
}

// errZeroStep reports a Step{} pushed instead of one built by a constructor.
var errZeroStep = errors.New("zero Step; build steps with Response, Stream or Fail")

// exhausted is the answer of a call finding the queue empty.
func exhausted(name string, calls int) iter.Seq2[*v1.LlmResponse, error] {
	err := fmt.Errorf("scripted.generate_content: model %q, call %d: %w", name, calls, ErrExhausted)
	return func(yield func(*v1.LlmResponse, error) bool) { yield(nil, err) }
}

// clearClientIDs removes engine-made call ids from a recorded request, as
// every model leaves them out of what it sends (see [models.IsClientID]).
func clearClientIDs(req *v1.LlmRequest) {
	for _, c := range req.GetContents() {
		for _, p := range c.GetParts() {
			if fc := p.GetFunctionCall(); fc != nil {
				fc.Id = models.ModelID(fc.Id)
			}
			if fr := p.GetFunctionResponse(); fr != nil {
				fr.Id = models.ModelID(fr.Id)
			}
		}
	}
}
