package fakegemini

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Request is one request the server received.
type Request struct {
	// Model is the model name of the path, e.g. "gemini-2.5-flash".
	Model string `json:"model"`
	// Method is "generateContent" or "streamGenerateContent".
	Method string `json:"method"`
	// Stream reports a streamGenerateContent call.
	Stream bool `json:"stream"`
	// Path is the URL path.
	Path string `json:"path"`
	// Header holds the request headers without credentials (the API key
	// header and Authorization).
	Header http.Header `json:"header"`
	// HasAPIKey reports whether an API key came with the request.
	HasAPIKey bool `json:"hasApiKey"`
	// Body is the parsed JSON body, parsed anew for every
	// [Server.Requests] so that callers may change it freely.
	Body map[string]any `json:"body"`
	// Answer says where the answer came from: "queue", "rule", "default" or
	// "fault".
	Answer string `json:"answer"`
	// Time is when the request arrived.
	Time time.Time `json:"time"`

	raw []byte
}

// Decode unmarshals the request body into v, e.g. a struct mirroring the
// GenerateContentRequest JSON.
func (r Request) Decode(v any) error {
	raw := r.raw
	if raw == nil {
		// A request read back from the control API has only its Body.
		b, err := json.Marshal(r.Body)
		if err != nil {
			return fmt.Errorf("fakegemini.request.decode: %w", err)
		}
		raw = b
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("fakegemini.request.decode: %w", err)
	}
	return nil
}

// requestLog keeps the most recent requests in a ring.
type requestLog struct {
	max   int
	items []Request
	next  int // where the next request goes once items is full
}

func (l *requestLog) add(r Request) {
	switch {
	case l.max <= 0:
	case len(l.items) < l.max:
		l.items = append(l.items, r)
	default:
		l.items[l.next] = r
		l.next = (l.next + 1) % l.max
	}
}

// snapshot returns the requests oldest first, without their parsed bodies
// (see [parseBodies]).
func (l *requestLog) snapshot() []Request {
	out := make([]Request, 0, len(l.items))
	out = append(out, l.items[l.next:]...)
	return append(out, l.items[:l.next]...)
}

// parseBodies fills Body from the raw bytes and copies the headers: the log
// keeps only the raw body, much smaller than its parsed form, and gives each
// caller values of its own.
func parseBodies(reqs []Request) {
	for i := range reqs {
		// The body parsed when the request arrived: it cannot fail now.
		_ = json.Unmarshal(reqs[i].raw, &reqs[i].Body)
		reqs[i].Header = reqs[i].Header.Clone()
	}
}

func (l *requestLog) reset() {
	l.items, l.next = nil, 0
}
