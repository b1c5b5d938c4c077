package gemini

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/retry"
)

type exchangeKey struct{}

// exchange is the answer an [exchangeTransport] gives, and the request it
// got.
type exchange struct {
	status int
	body   []byte

	url    string
	header http.Header
	sent   []byte
}

// exchangeTransport answers with the status and body of the exchange its
// context holds, and records the request there.
type exchangeTransport struct{}

func (exchangeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	x, _ := req.Context().Value(exchangeKey{}).(*exchange)
	x.url, x.header = req.URL.String(), req.Header.Clone()
	x.sent, _ = io.ReadAll(req.Body)
	return &http.Response{
		StatusCode: x.status, Status: strconv.Itoa(x.status) + " " + http.StatusText(x.status), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(x.body)),
		ContentLength: int64(len(x.body)), Request: req,
	}, nil
}

// pathPair is a model on the direct path and the same model on the SDK's.
type pathPair struct {
	direct, sdk models.Model
}

func newPathPair(tb testing.TB, vertex bool) pathPair {
	tb.Helper()
	cfg := Config{APIKey: "test-key", BaseURL: "http://gemini.invalid/", Headers: http.Header{"X-Extra": {"1"}},
		HTTPClient: &http.Client{Transport: exchangeTransport{}}, Retry: retry.Config{MaxAttempts: 1}}
	if vertex {
		cfg.APIKey, cfg.Backend, cfg.Project, cfg.Location = "", BackendVertexAI, "proj", "us-central1"
	}
	var pair pathPair
	for _, direct := range []bool{true, false} {
		p, err := New(tb.Context(), cfg)
		if err != nil {
			tb.Fatal(err)
		}
		if p.direct == nil {
			tb.Fatal("no direct path")
		}
		if !direct {
			p.direct = nil
		}
		m, err := p.Model(tb.Context(), "gemini-2.5-flash")
		if err != nil {
			tb.Fatal(err)
		}
		if direct {
			pair.direct = m
		} else {
			pair.sdk = m
		}
	}
	return pair
}

// outcome is what a call yielded, and what it sent.
type outcome struct {
	responses []*v1.LlmResponse
	err       string
	x         *exchange
}

var clientCallID = regexp.MustCompile(`adk-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

func run(t *testing.T, m models.Model, req *v1.LlmRequest, status int, body []byte, stream bool) outcome {
	t.Helper()
	x := &exchange{status: status, body: body}
	ctx, cancel := context.WithTimeout(context.WithValue(t.Context(), exchangeKey{}, x), 100*time.Second)
	defer cancel()
	var o outcome
	for resp, err := range m.GenerateContent(ctx, req, stream) {
		if err != nil {
			o.err = err.Error()
			break
		}
		// Calls without an id get a random one.
		for _, p := range resp.GetContent().GetParts() {
			if fc := p.GetFunctionCall(); fc != nil {
				fc.Id = clientCallID.ReplaceAllString(fc.GetId(), "adk-*")
			}
		}
		o.responses = append(o.responses, resp)
	}
	o.x = x
	return o
}

// checkSamePaths fails when the direct path and the SDK's send different
// requests or yield different responses or errors for the same answer.
func checkSamePaths(t *testing.T, pair pathPair, req *v1.LlmRequest, status int, body []byte, stream bool) {
	t.Helper()
	want := run(t, pair.sdk, req, status, body, stream)
	got := run(t, pair.direct, req, status, body, stream)
	if got.x.url != want.x.url || !bytes.Equal(got.x.sent, want.x.sent) {
		t.Fatalf("request differs:\ndirect %s %s\nsdk    %s %s", got.x.url, got.x.sent, want.x.url, want.x.sent)
	}
	if !equalHeaders(got.x.header, want.x.header) {
		t.Fatalf("headers differ:\ndirect %v\nsdk    %v", got.x.header, want.x.header)
	}
	if got.err != want.err {
		t.Fatalf("error differs (status %d, stream %v, body %q):\ndirect %s\nsdk    %s", status, stream, body, got.err, want.err)
	}
	if len(got.responses) != len(want.responses) {
		t.Fatalf("%d responses, the SDK's path %d (body %q)", len(got.responses), len(want.responses), body)
	}
	for i := range got.responses {
		if !proto.Equal(got.responses[i], want.responses[i]) {
			t.Fatalf("response %d differs (stream %v, body %q):\ndirect %v\nsdk    %v", i, stream, body, got.responses[i], want.responses[i])
		}
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if strings.Join(v, "\x00") != strings.Join(b[k], "\x00") {
			return false
		}
	}
	return true
}

// responseSeeds are answers of every kind: those the direct path reads and
// those it leaves to the SDK.
func responseSeeds() []string {
	chunk := `{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"},{"text":", world"}]}}]}`
	calls := `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"a","args":{"x":1,"b":{"z":[{"k2":2,"k1":1}]},"n":null,"s":"\u00e9\n"}}},{"functionCall":{"name":"b"}}]},"finishReason":"STOP","index":0,"avgLogprobs":-0.25}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":9,"totalTokenCount":13,"thoughtsTokenCount":2,"cachedContentTokenCount":1,"toolUsePromptTokenCount":3,"promptTokensDetails":[{"modality":"TEXT","tokenCount":4}],"trafficType":"ON_DEMAND"},"modelVersion":"gemini-2.5-flash-001","responseId":"r1","createTime":"2026-01-02T03:04:05.123456Z"}`
	thought := `{"candidates":[{"content":{"role":"model","parts":[{"text":"think.","thought":true,"thoughtSignature":"c2ln"}]}}]}`
	blocked := `{"promptFeedback":{"blockReason":"SAFETY","blockReasonMessage":"no"},"candidates":[{"finishReason":"MAX_TOKENS","finishMessage":"m"}]}`
	rich := `{"candidates":[{"content":{"role":"model","parts":[{"inlineData":{"mimeType":"image/png","data":"AAAA","displayName":"d"}},{"fileData":{"mimeType":"a/b","fileUri":"gs://x"}},{"executableCode":{"language":"PYTHON","code":"1"}},{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1"}},{"functionResponse":{"name":"f","response":{"a":1}}},{"text":"t","unknownField":{"x":1}}]},` +
		`"finishReason":"STOP","groundingMetadata":{"webSearchQueries":["q"],"groundingChunks":[{"web":{"uri":"u","title":"t"}}],"unknown":1},"citationMetadata":{"citations":[{"startIndex":1,"endIndex":2,"uri":"u"}],"citationSources":[{"uri":"v"}]},` +
		`"safetyRatings":[{"category":"HARM_CATEGORY_HARASSMENT","probability":"NEGLIGIBLE"}],"logprobsResult":{"topCandidates":[],"chosenCandidates":[{"token":"a","logProbability":-0.5}]},"avgLogprobs":-0.5}],"unknownTop":true}`
	odd := []string{
		`{}`, `null`, `[]`, `{"candidates":null}`, `{"candidates":[null]}`, `{"candidates":5}`, `{"candidates":[{"content":null}]}`,
		`{"candidates":[{"content":{"parts":[null]}}]}`, `{"candidates":[{"Content":{"parts":[{"text":"x"}]},"finishReason":"STOP"}]}`,
		`{"candidates":[{"content":{"parts":[{"TEXT":"x","text":"y"}]}}]}`, `{"candidates":[{"content":{"parts":[{"text":"a"},{"text":"b"}],"parts":[{"text":"c"}]}}]}`,
		`{"usageMetadata":{"promptTokenCount":1.0,"totalTokenCount":1e2}}`, `{"usageMetadata":{"promptTokenCount":4294967296}}`,
		`{"candidates":[{"content":{"parts":[{"thoughtSignature":"!!"}]}}]}`, `{"candidates":[{"content":{"parts":[{"text":"\ud800x\u0000"}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":1e400}}}]}}]}`, `{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":1,"a":2}}}]}}]}`,
		`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":[1]}}]}}]}`, `{"modelVersion":"v","modelVersion":7}`,
		`{"candidates":[{"finishReason":"STOP"}]}`, `{"createTime":"yesterday"}`, `{"error":{"code":400,"message":"m","status":"INVALID_ARGUMENT"}}`,
		"{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"\xff\"}]}}]}", `{"candidates":[{"content":{"parts":[{"text":"a"}]}}]} x`,
	}
	out := []string{chunk, calls, thought, blocked, rich, "", "upstream connect error"}
	return append(out, odd...)
}

// streamSeeds are server-sent event streams.
func streamSeeds() []string {
	s := responseSeeds()
	chunk, calls, thought := s[0], s[1], s[2]
	return []string{
		"data: " + thought + "\r\n\r\ndata: " + chunk + "\r\n\r\ndata: " + calls + "\r\n\r\n",
		"data: " + chunk + "\n\n" + "data: {\"candidates\":[{\"finishReason\":\"SAFETY\"}]}\n\n",
		"data: {\"error\":{\"code\":429,\"message\":\"quota\",\"status\":\"RESOURCE_EXHAUSTED\"}}\n\n",
		"data: " + chunk, "", "data: null\n\n", "data: {\"candidates\":[null]}\n\n", "data: {\n\n",
		"event: x\n\n", "{\"error\":{\"code\":500}}\n\n", "data:" + s[4] + "\n\ndata: " + s[3] + "\n\n",
		"data: {\"error\":{\"code\":\"x\"}}\n\n", "\n\n\n\ndata: " + chunk + "\n\n",
		"0\n", "x\r\r\n\n", "data: " + chunk + "\r\r\n\n", "data: {}\r\n\r\n{}\n\n", "data: " + chunk + "\n",
	}
}

// corpusBodies returns the bodies of the FuzzGenerateContent corpus.
func corpusBodies(tb testing.TB) []string {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzGenerateContent", "*"))
	var out []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		for line := range strings.Lines(string(b)) {
			if q, ok := strings.CutPrefix(strings.TrimSpace(line), "[]byte("); ok {
				if s, err := strconv.Unquote(strings.TrimSuffix(q, ")")); err == nil {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

var pathStatuses = []int{http.StatusOK, http.StatusBadRequest, http.StatusTooManyRequests, http.StatusInternalServerError}

// TestResponsesMatchSDK checks that the direct path and the SDK's yield
// the same for answers of every kind, whole and streamed, on both
// backends.
func TestResponsesMatchSDK(t *testing.T) {
	req := bodySeeds(t)[0]
	for _, vertex := range []bool{false, true} {
		pair := newPathPair(t, vertex)
		for _, body := range append(responseSeeds(), corpusBodies(t)...) {
			for _, status := range pathStatuses {
				checkSamePaths(t, pair, req, status, []byte(body), false)
			}
			checkSamePaths(t, pair, req, http.StatusOK, []byte(body), true)
		}
		for _, body := range streamSeeds() {
			checkSamePaths(t, pair, req, http.StatusOK, []byte(body), true)
		}
	}
}

// FuzzResponseMatchesSDK checks that the direct path and the SDK's yield
// the same responses or errors for any answer, whole or streamed, on
// either backend.
func FuzzResponseMatchesSDK(f *testing.F) {
	for _, body := range append(responseSeeds(), corpusBodies(f)...) {
		f.Add(uint8(0), false, []byte(body), false)
	}
	for _, body := range streamSeeds() {
		f.Add(uint8(0), true, []byte(body), true)
	}
	pairs := map[bool]pathPair{false: newPathPair(f, false), true: newPathPair(f, true)}
	req := bodySeeds(f)[1]
	f.Fuzz(func(t *testing.T, status uint8, stream bool, body []byte, vertex bool) {
		checkSamePaths(t, pairs[vertex], req, pathStatuses[int(status)%len(pathStatuses)], body, stream)
	})
}

// TestModelURLsMatchSDK checks the URLs of model names of every shape.
func TestModelURLsMatchSDK(t *testing.T) {
	body := []byte(responseSeeds()[0])
	for _, vertex := range []bool{false, true} {
		pair := newPathPair(t, vertex)
		for _, name := range []string{"gemini-2.5-flash", "models/x", "tunedModels/y", "publishers/p/models/z",
			"projects/p/locations/l/publishers/google/models/m", "org/model", "a/b/c", "x:y", "a/v1beta/b", "a/v1beta1/b",
			"sp ace", "%41", "é", "a?b", "a&b", "a/../b"} {
			req := &v1.LlmRequest{Model: name, Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}}}
			for _, stream := range []bool{false, true} {
				checkSamePaths(t, pair, req, http.StatusOK, body, stream)
			}
		}
	}
}
