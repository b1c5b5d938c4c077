package gemini

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/genai"
)

// directCaller sends generateContent and streamGenerateContent requests
// whose body the adapter wrote itself (see [requestConverter.appendBody]),
// as the SDK sends them: the same URL, headers and HTTP client (whose
// transport carries Vertex AI's OAuth2 credentials), and reads the answers
// as the SDK reads them, with the SDK's own errors. It is safe for
// concurrent use.
type directCaller struct {
	hc      *http.Client
	base    *url.URL
	version string
	vertex  bool
	// project and location prefix Vertex AI model paths.
	project, location string
	// header is what the SDK sends with every request, captured from it
	// (see [captureHeader]): its version, the configured headers, the
	// content type and the API key.
	header http.Header
	// sdk is a client of the same backend over a loopback transport: it
	// reads the answers [decodeResponse] leaves to it.
	sdk *genai.Client
	// urls caches the URLs of up to maxURLs models and methods.
	mu   sync.Mutex
	urls map[urlKey]string
}

const maxURLs = 256

type urlKey struct{ name, method string }

// newDirectCaller returns a caller for client, whose config cc was made
// from; nil when the SDK's request could not be captured, which leaves
// every call to the SDK.
func newDirectCaller(ctx context.Context, client *genai.Client, cc genai.ClientConfig) *directCaller {
	live := client.ClientConfig()
	if live.HTTPOptions.BaseURLResourceScope != "" || live.HTTPOptions.ExtraBody != nil ||
		live.HTTPOptions.ExtrasRequestProvider != nil || live.HTTPOptions.Timeout != nil || live.HTTPOptions.RetryOptions != nil {
		return nil
	}
	base, err := url.Parse(live.HTTPOptions.BaseURL)
	if err != nil {
		return nil
	}
	cc.HTTPClient = &http.Client{Transport: loopback{}}
	sdk, err := genai.NewClient(ctx, &cc)
	if err != nil {
		return nil
	}
	header := captureHeader(ctx, sdk)
	if header == nil {
		return nil
	}
	return &directCaller{hc: live.HTTPClient, base: base, version: live.HTTPOptions.APIVersion,
		vertex: live.Backend == genai.BackendVertexAI, project: live.Project, location: live.Location,
		header: header, sdk: sdk}
}

// loopback answers the requests of the caller's own SDK client: with the
// answer its context carries (see [directCaller.replay]), or by recording
// the request's header for [captureHeader].
type loopback struct{}

type loopbackKey struct{}

// loopbackCall is the exchange of one loopback request: the answer's
// body and header, or the request's header.
type loopbackCall struct {
	answer []byte
	header http.Header
}

func (loopback) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_ = req.Body.Close()
	}
	call, _ := req.Context().Value(loopbackKey{}).(*loopbackCall)
	if call == nil {
		return nil, errors.New("gemini: no loopback answer")
	}
	if call.answer == nil {
		call.header = req.Header.Clone()
		return nil, errors.New("gemini: header captured")
	}
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: call.header,
		Body: io.NopCloser(bytes.NewReader(call.answer)), Request: req}, nil
}

// captureHeader returns the header the SDK sends with a generateContent
// request, less its timeout, or nil.
func captureHeader(ctx context.Context, sdk *genai.Client) http.Header {
	call := &loopbackCall{}
	ctx = context.WithValue(context.WithoutCancel(ctx), loopbackKey{}, call)
	noContinuation := false
	_, _ = sdk.Models.GenerateContent(ctx, "m", genai.Text("."), &genai.GenerateContentConfig{AutomaticContinuation: &noContinuation})
	if call.header != nil {
		call.header.Del("X-Server-Timeout")
	}
	return call.header
}

// replay reads a successful answer with its header through the SDK, which
// reads it as if it had received it itself.
func (d *directCaller) replay(ctx context.Context, header http.Header, body []byte) (*genai.GenerateContentResponse, error) {
	ctx = context.WithValue(ctx, loopbackKey{}, &loopbackCall{answer: append([]byte{}, body...), header: header})
	noContinuation := false
	return d.sdk.Models.GenerateContent(ctx, "m", genai.Text("."), &genai.GenerateContentConfig{AutomaticContinuation: &noContinuation})
}

// replayEvent reads one event of a stream through the SDK's stream. The
// event ends with "\r\n\n": the SDK splits at the blank line and drops the
// one CR, which gives back the event as it was, whatever it ends with.
func (d *directCaller) replayEvent(ctx context.Context, header http.Header, event []byte) (*genai.GenerateContentResponse, error) {
	body := append(append(make([]byte, 0, len(event)+3), event...), "\r\n\n"...)
	ctx = context.WithValue(ctx, loopbackKey{}, &loopbackCall{answer: body, header: header})
	noContinuation := false
	for chunk, err := range d.sdk.Models.GenerateContentStream(ctx, "m", genai.Text("."), &genai.GenerateContentConfig{AutomaticContinuation: &noContinuation}) {
		return chunk, err
	}
	return nil, errors.New("gemini: the event read as nothing")
}

// usable reports whether the SDK would send a request for model name as
// the caller does; other names (which the SDK refuses) go to the SDK.
func usable(name string) bool {
	return name != "" && !strings.Contains(name, "?") && !strings.Contains(name, "&") && !strings.Contains(name, "..")
}

// url returns the URL of method on model name, as the SDK builds it.
func (d *directCaller) url(name, method string) string {
	key := urlKey{name, method}
	d.mu.Lock()
	defer d.mu.Unlock()
	if u, ok := d.urls[key]; ok {
		return u
	}
	u := d.buildURL(name, method)
	if d.urls == nil {
		d.urls = map[urlKey]string{}
	}
	if len(d.urls) < maxURLs {
		d.urls[key] = u
	}
	return u
}

func (d *directCaller) buildURL(name, method string) string {
	path := name
	if d.vertex {
		switch {
		case strings.HasPrefix(name, "projects/") || strings.HasPrefix(name, "models/") || strings.HasPrefix(name, "publishers/"):
		case strings.Contains(name, "/"):
			publisher, model, _ := strings.Cut(name, "/")
			path = "publishers/" + publisher + "/models/" + model
		default:
			path = "publishers/google/models/" + name
		}
	} else if !strings.HasPrefix(name, "models/") && !strings.HasPrefix(name, "tunedModels/") {
		path = "models/" + name
	}
	path += ":" + method
	p, query, _ := strings.Cut(path, "?")
	var u *url.URL
	if d.vertex {
		if d.project != "" && d.location != "" && !strings.HasPrefix(p, "projects/") {
			p = "projects/" + d.project + "/locations/" + d.location + "/" + p
		}
		u = d.base.JoinPath(d.version, p)
	} else {
		if !strings.Contains(p, "/"+d.version+"/") {
			p = d.version + "/" + p
		}
		u = d.base.JoinPath(p)
	}
	u.RawQuery = query
	return u.String()
}

// send posts body to method on model name and returns the answer, or the
// error the SDK returns for a request that failed or was refused.
func (d *directCaller) send(ctx context.Context, name, method string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.url(name, method), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = d.header.Clone()
	if t := d.timeout(ctx); t > 0 {
		req.Header.Set("x-server-timeout", strconv.FormatInt(int64(math.Ceil(t.Seconds())), 10))
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("doRequest: error sending request: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		return nil, apiError(resp)
	}
	return resp, nil
}

// timeout is the time the SDK tells the server it has: the shorter of the
// HTTP client's timeout and the context's.
func (d *directCaller) timeout(ctx context.Context) time.Duration {
	t := d.hc.Timeout
	if deadline, ok := ctx.Deadline(); ok {
		if left := time.Until(deadline); t == 0 || left < t {
			t = left
		}
	}
	return t
}

// apiError reads an error answer as the SDK does.
func apiError(resp *http.Response) error {
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("newAPIError: error reading response body: %w. Response: %v", err, string(body))
	}
	if len(body) == 0 {
		return genai.APIError{Code: resp.StatusCode, Status: resp.Status}
	}
	var e errorAnswer
	if json.Unmarshal(body, &e) == nil && e.Error != nil {
		return *e.Error
	}
	return genai.APIError{Code: resp.StatusCode, Status: resp.Status, Message: string(body)}
}

// errorAnswer is the JSON of an error answer.
type errorAnswer struct {
	Error *genai.APIError `json:"error,omitempty"`
}

// generate makes one generateContent call.
func (d *directCaller) generate(ctx context.Context, name string, body []byte) (*genai.GenerateContentResponse, error) {
	resp, err := d.send(ctx, name, "generateContent", body)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if out, ok := decodeResponse(answer); ok {
		return out, nil
	}
	return d.replay(ctx, resp.Header, answer)
}

// stream makes one streamGenerateContent call. Like the SDK's stream it
// yields an error for a malformed event; unlike it, it then ends, as the
// adapter stops at the first error anyway.
func (d *directCaller) stream(ctx context.Context, name string, body []byte) iter.Seq2[*genai.GenerateContentResponse, error] {
	return func(yield func(*genai.GenerateContentResponse, error) bool) {
		resp, err := d.send(ctx, name, "streamGenerateContent?alt=sse", body)
		if err != nil {
			yield(nil, err)
			return
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		// The SDK's buffer: 1KB growing up to 256MB.
		sc.Buffer(make([]byte, 1024), 268435456)
		sc.Split(scanEvents)
		for sc.Scan() {
			line := sc.Bytes()
			if len(line) == 0 {
				continue
			}
			chunk, err := d.event(ctx, resp.Header, line)
			if err == nil && len(chunk.Candidates) > 0 && chunk.Candidates[0] == nil {
				// The SDK's stream reads the first candidate's finish
				// reason and panics on a null candidate; recoverStream
				// turns that into errUnreadableAnswer, as it does there.
				_ = chunk.Candidates[0].FinishReason
			}
			if !yield(chunk, err) || err != nil {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(nil, err)
		}
	}
}

// event reads one server-sent event as the SDK does.
func (d *directCaller) event(ctx context.Context, header http.Header, line []byte) (*genai.GenerateContentResponse, error) {
	prefix, data, _ := bytes.Cut(line, []byte(":"))
	if string(prefix) == "data" {
		if out, ok := decodeResponse(data); ok {
			return out, nil
		}
	}
	// The SDK's stream reads an event it is given alone as it reads it in
	// a stream, unless it is too long to come in its first read and holds
	// a blank line of CRLFs, where the SDK would split it: such an event is
	// read here as the SDK reads it.
	if len(line) < 1000 || !bytes.Contains(line, []byte("\r\n\r\n")) {
		return d.replayEvent(ctx, header, line)
	}
	if string(prefix) != "data" {
		// An error object counts even when the rest of the line does not
		// decode, as in the SDK.
		var e errorAnswer
		_ = json.Unmarshal(line, &e)
		if e.Error != nil {
			return nil, *e.Error
		}
		return nil, fmt.Errorf("iterateResponseStream: invalid stream chunk: %s:%s", string(prefix), string(data))
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("iterateResponseStream: error unmarshalling data %s:%s. error: %w", string(prefix), string(data), err)
	}
	if raw == nil {
		// "data: null" reads as an empty response in a stream.
		return &genai.GenerateContentResponse{}, nil
	}
	if raw["error"] != nil {
		var e errorAnswer
		if json.Unmarshal(data, &e) == nil && e.Error != nil {
			return nil, *e.Error
		}
	}
	return d.replay(ctx, header, data)
}

// scanEvents splits a stream into events as the SDK does: at blank lines.
func scanEvents(data []byte, atEOF bool) (advance int, token []byte, err error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.Index(data, []byte("\n\n")); i >= 0 {
		return i + 2, dropCR(data[:i]), nil
	}
	if i := bytes.Index(data, []byte("\r\n\r\n")); i >= 0 {
		return i + 4, dropCR(data[:i]), nil
	}
	if atEOF {
		return len(data), dropCR(data), nil
	}
	return 0, nil, nil
}

func dropCR(data []byte) []byte {
	if len(data) > 0 && data[len(data)-1] == '\r' {
		return data[:len(data)-1]
	}
	return data
}
