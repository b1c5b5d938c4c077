package gemini_test

import (
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
)

// countingTransport counts the response body bytes the client read.
type countingTransport struct {
	base http.RoundTripper
	read atomic.Int64
}

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err == nil && resp.Body != nil {
		resp.Body = &countingBody{ReadCloser: resp.Body, n: &t.read}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// newCountingFake is newFake with the bytes read from the model counted.
func newCountingFake(t *testing.T, cfg gemini.Config) (*fakegemini.Server, *gemini.Provider, *countingTransport) {
	t.Helper()
	fake := fakegemini.New()
	base, err := fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	transport := &http.Transport{}
	counter := &countingTransport{base: transport}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		_ = fake.Close()
	})
	cfg.BaseURL, cfg.APIKey, cfg.Retry = base, "test-key", fastRetry
	cfg.HTTPClient = &http.Client{Transport: counter}
	p, err := gemini.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fake, p, counter
}

func wantModelError(t *testing.T, err error, status, msg string) {
	t.Helper()
	var modelErr *models.Error
	if !errors.As(err, &modelErr) || modelErr.Status != status || modelErr.HTTPStatus != 0 || (msg != "" && modelErr.Message != msg) {
		t.Fatalf("error %v, want a model error %s %q", err, status, msg)
	}
	if errors.Is(err, models.ErrUnavailable) {
		t.Errorf("error %v must not be ErrUnavailable", err)
	}
}

func TestHungModelTimesOut(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		t.Run(streamSuffix(stream)[1:], func(t *testing.T) {
			t.Parallel()
			fake, p, _ := newCountingFake(t, gemini.Config{Timeout: 100 * time.Millisecond})
			if err := fake.Enqueue(fakegemini.Item{Hang: true}); err != nil {
				t.Fatal(err)
			}
			_, err := collect(t.Context(), t, p, userText("q"), stream)
			wantModelError(t, err, models.StatusDeadlineExceeded, "model call timed out after 100ms")
			if n := len(fake.Requests()); n > 1 {
				t.Errorf("%d requests, want 1: a timed-out call is not retried", n)
			}
		})
	}
}

// endlessChunk is the chunk a model that streams forever repeats.
const endlessChunk = `{"candidates":[{"content":{"role":"model","parts":[{"text":"and on "}]}}]}`

func TestEndlessAnswerIsCutAtTheByteCap(t *testing.T) {
	t.Parallel()
	const maxBytes = 64 << 10
	for _, stream := range []bool{false, true} {
		t.Run(streamSuffix(stream)[1:], func(t *testing.T) {
			t.Parallel()
			fake, p, counter := newCountingFake(t, gemini.Config{MaxResponseBytes: maxBytes, MaxChunks: -1})
			if err := fake.Enqueue(fakegemini.Item{Chunks: []any{endlessChunk}, Forever: true}); err != nil {
				t.Fatal(err)
			}
			out, err := collect(t.Context(), t, p, userText("q"), stream)
			wantModelError(t, err, models.StatusResourceExhausted, "model response exceeded 65536 bytes")
			// One byte past the cap tells that the body goes on.
			if n := counter.read.Load(); n > maxBytes+1 {
				t.Errorf("read %d bytes of the answer, want at most %d", n, maxBytes+1)
			}
			var text int
			for _, r := range out {
				for _, part := range r.GetContent().GetParts() {
					text += len(part.GetText())
				}
			}
			if text > maxBytes {
				t.Errorf("yielded %d bytes of text, want at most %d", text, maxBytes)
			}
			if stream && len(out) == 0 {
				t.Errorf("no chunk yielded before the cap")
			}
		})
	}
}

func TestEndlessStreamIsCutAtTheChunkCap(t *testing.T) {
	t.Parallel()
	const maxChunks = 50
	fake, p, counter := newCountingFake(t, gemini.Config{MaxChunks: maxChunks})
	if err := fake.Enqueue(fakegemini.Item{Chunks: []any{endlessChunk}, Forever: true}); err != nil {
		t.Fatal(err)
	}
	out, err := collect(t.Context(), t, p, userText("q"), true)
	wantModelError(t, err, models.StatusResourceExhausted, "model response exceeded 50 chunks")
	if len(out) != maxChunks {
		t.Errorf("%d chunks yielded, want %d", len(out), maxChunks)
	}
	for _, r := range out {
		if !r.GetPartial() {
			t.Fatalf("a non-partial response %v was yielded before the failure", r)
		}
	}
	if n := counter.read.Load(); n > gemini.DefaultMaxResponseBytes+1 {
		t.Errorf("read %d bytes, want at most the default cap", n)
	}
}

func TestAnswerWithinTheCapsPasses(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		t.Run(streamSuffix(stream)[1:], func(t *testing.T) {
			t.Parallel()
			// The default echo is two chunks of a few hundred bytes.
			_, p, _ := newCountingFake(t, gemini.Config{MaxResponseBytes: 4 << 10, MaxChunks: 2, Timeout: 10 * time.Second})
			out, err := collect(t.Context(), t, p, userText("hello"), stream)
			if err != nil {
				t.Fatal(err)
			}
			if last := out[len(out)-1]; last.GetPartial() || last.GetContent().GetParts()[0].GetText() != "Echo: hello" {
				t.Errorf("last response %v, want the echo", last)
			}
		})
	}
}
