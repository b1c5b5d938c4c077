package gemini_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// bodyKey is the context key of the body a [bodyTransport] answers with.
type bodyKey struct{}

// fuzzAnswer is the answer a [bodyTransport] gives.
type fuzzAnswer struct {
	status int
	body   []byte
}

// bodyTransport answers every request with the status and body its
// context holds, without a network: fuzzing reaches the SDK's decoder and
// the adapter's conversion at the speed of a function call.
type bodyTransport struct{}

func (bodyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	a, _ := req.Context().Value(bodyKey{}).(fuzzAnswer)
	ct := "application/json"
	if strings.Contains(req.URL.RawQuery, "alt=sse") {
		ct = "text/event-stream"
	}
	return &http.Response{
		StatusCode: a.status, Status: http.StatusText(a.status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {ct}}, Body: io.NopCloser(bytes.NewReader(a.body)),
		ContentLength: int64(len(a.body)), Request: req,
	}, nil
}

// fuzzStatuses are the HTTP statuses a fuzzed answer comes with.
var fuzzStatuses = []int{http.StatusOK, http.StatusBadRequest, http.StatusTooManyRequests, http.StatusInternalServerError}

// FuzzGenerateContent answers a generateContent call (JSON) or a
// streamGenerateContent call (server-sent events) with a fuzzed body.
// Invariants: no panic; the call ends; an error is a model error (a
// [*models.Error] or [models.ErrUnavailable]) or a failure to read the
// answer, never a response; a stream yields partial responses and at most
// one final aggregate, last.
func FuzzGenerateContent(f *testing.F) {
	chunk := `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"},{"text":", world"}]}}]}`
	calls := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"a","args":{"x":1,"b":{"z":[{"k2":2,"k1":1}]}}}},{"functionCall":{"name":"b"}}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":9,"totalTokenCount":13},"modelVersion":"gemini-2.5-flash-001"}`
	thought := `{"candidates":[{"content":{"role":"model","parts":[{"text":"think.","thought":true,"thoughtSignature":"c2ln"}]}}]}`
	blocked := `{"promptFeedback":{"blockReason":"SAFETY"},"candidates":[{"finishReason":"MAX_TOKENS","finishMessage":"m"}]}`
	for _, seed := range []struct {
		status uint8
		stream bool
		body   string
	}{
		{0, false, calls},
		{0, false, chunk},
		{0, false, blocked},
		{0, false, `{"candidates":[{"content":{"parts":[{"inlineData":{"mimeType":"image/png","data":"AAAA"}},{"executableCode":{"language":"PYTHON","code":"1"}},{"functionResponse":{"name":"f","response":{"a":1}}}]},"groundingMetadata":{"webSearchQueries":["q"]}}]}`},
		{0, true, "data: " + thought + "\r\n\r\ndata: " + chunk + "\r\n\r\ndata: " + calls + "\r\n\r\n"},
		{0, true, "data: " + chunk + "\n\n" + "data: {\"candidates\":[{\"finishReason\":\"SAFETY\"}]}\n\n"},
		{0, true, "data: {\"error\":{\"code\":429,\"message\":\"quota\",\"status\":\"RESOURCE_EXHAUSTED\"}}\n\n"},
		{0, true, "data: " + chunk},
		{0, true, ""},
		{1, false, `{"error":{"code":400,"message":"Invalid JSON payload","status":"INVALID_ARGUMENT"}}`},
		{2, true, `{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}`},
		{3, false, "upstream connect error"},
		{0, false, `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"a","args":`},
	} {
		f.Add(seed.status, seed.stream, []byte(seed.body))
	}
	p, err := gemini.New(f.Context(), gemini.Config{APIKey: "test-key", BaseURL: "http://gemini.invalid/",
		HTTPClient: &http.Client{Transport: bodyTransport{}}, Retry: retry.Config{MaxAttempts: 1}})
	if err != nil {
		f.Fatal(err)
	}
	m, err := p.Model(f.Context(), "gemini-2.5-flash")
	if err != nil {
		f.Fatal(err)
	}
	req := userText("hi")
	f.Fuzz(func(t *testing.T, status uint8, stream bool, body []byte) {
		a := fuzzAnswer{status: fuzzStatuses[int(status)%len(fuzzStatuses)], body: body}
		ctx, cancel := context.WithTimeout(context.WithValue(t.Context(), bodyKey{}, a), 10*time.Second)
		defer cancel()
		var got []*v1.LlmResponse
		for resp, err := range m.GenerateContent(ctx, req, stream) {
			if err != nil {
				checkModelError(t, a, err)
				return
			}
			got = append(got, resp)
		}
		if ctx.Err() != nil {
			t.Fatalf("the call did not end in time: %v", ctx.Err())
		}
		if a.status != http.StatusOK && len(got) > 0 {
			t.Fatalf("HTTP %d answered %d responses, want an error", a.status, len(got))
		}
		if !stream {
			if len(got) != 1 {
				t.Fatalf("generateContent yielded %d responses, want 1", len(got))
			}
			return
		}
		for i, resp := range got[:max(len(got)-1, 0)] {
			if !resp.GetPartial() {
				t.Fatalf("stream response %d of %d is final: %v", i, len(got), resp)
			}
		}
	})
}

// checkModelError fails t unless err reports a model's failure: an API
// error with the answer's status, or a body the adapter could not read.
func checkModelError(t *testing.T, a fuzzAnswer, err error) {
	t.Helper()
	var merr *models.Error
	switch {
	case errors.As(err, &merr):
		if a.status != http.StatusOK && merr.HTTPStatus != a.status {
			t.Fatalf("HTTP %d became %v", a.status, err)
		}
	case errors.Is(err, models.ErrUnavailable):
	default:
		t.Fatalf("HTTP %d became %v (%T), not a model error", a.status, err, errors.Unwrap(err))
	}
}
