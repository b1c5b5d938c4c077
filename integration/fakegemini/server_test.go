package fakegemini_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"go.uber.org/goleak"

	"github.com/agentsvc/agentsvc/integration/fakegemini"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// client talks to one fake server over real HTTP.
type client struct {
	t    *testing.T
	base string
	http *http.Client
}

func newServer(t *testing.T, opts ...fakegemini.Option) (*fakegemini.Server, *client) {
	t.Helper()
	fake := fakegemini.New(opts...)
	srv := httptest.NewServer(fake.Handler())
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	return fake, &client{t: t, base: srv.URL, http: &http.Client{Transport: transport}}
}

// do sends a request and returns the status and body.
func (c *client) do(ctx context.Context, method, path, body string) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Goog-Api-Key", "secret")
	resp, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// generate calls generateContent and decodes the answer.
func (c *client) generate(model, userText string, tools bool) (int, map[string]any) {
	c.t.Helper()
	status, b := c.do(c.t.Context(), http.MethodPost, "/v1beta/models/"+model+":generateContent", requestBody(userText, tools))
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		c.t.Fatalf("answer %s: %v", b, err)
	}
	return status, out
}

// stream calls streamGenerateContent with alt=sse and returns the chunks.
func (c *client) stream(model, userText string) []map[string]any {
	c.t.Helper()
	status, b := c.do(c.t.Context(), http.MethodPost, "/v1beta/models/"+model+":streamGenerateContent?alt=sse", requestBody(userText, false))
	if status != http.StatusOK {
		c.t.Fatalf("stream status %d: %s", status, b)
	}
	var chunks []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Split(splitEvents)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			c.t.Fatalf("event %q without data prefix", sc.Text())
		}
		var chunk map[string]any
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			c.t.Fatalf("chunk %q: %v", data, err)
		}
		chunks = append(chunks, chunk)
	}
	return chunks
}

// splitEvents splits server-sent events terminated by "\r\n\r\n".
func splitEvents(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.Index(data, []byte("\r\n\r\n")); i >= 0 {
		return i + 4, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return 0, nil, fmt.Errorf("unterminated event %q", data)
	}
	return 0, nil, nil
}

func requestBody(userText string, tools bool) string {
	body := map[string]any{"contents": []any{
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": "earlier"}}},
		map[string]any{"role": "model", "parts": []any{map[string]any{"text": "ok"}}},
		map[string]any{"role": "user", "parts": []any{map[string]any{"text": userText}}},
	}}
	if tools {
		body["tools"] = []any{map[string]any{"functionDeclarations": []any{map[string]any{"name": "f"}}}}
	}
	b, _ := json.Marshal(body)
	return string(b)
}

// text returns the concatenated text of the first candidate.
func text(resp map[string]any) string {
	var sb strings.Builder
	cands, _ := resp["candidates"].([]any)
	if len(cands) == 0 {
		return ""
	}
	content, _ := cands[0].(map[string]any)["content"].(map[string]any)
	parts, _ := content["parts"].([]any)
	for _, p := range parts {
		t, _ := p.(map[string]any)["text"].(string)
		sb.WriteString(t)
	}
	return sb.String()
}

func TestAnswerOrder(t *testing.T) {
	t.Parallel()
	fake, c := newServer(t)
	yes := true
	mustDo(t, fake.AddRule(
		fakegemini.Rule{Contains: "weather", Tools: &yes, Item: fakegemini.Reply(fakegemini.Text("rule: weather with tools"))},
		fakegemini.Rule{Contains: "weather", Item: fakegemini.Reply(fakegemini.Text("rule: weather"))},
		fakegemini.Rule{Item: fakegemini.Item{Model: "pro", Response: fakegemini.Text("rule: pro")}},
	))
	mustDo(t, fake.Enqueue(
		fakegemini.Reply(fakegemini.Text("global 1")),
		fakegemini.Item{Model: "models/flash", Response: fakegemini.Text("flash 1")},
		fakegemini.Reply(fakegemini.Text("global 2")),
	))
	tests := []struct {
		model, text string
		tools       bool
		want        string
	}{
		{model: "flash", text: "hi", want: "flash 1"},
		{model: "flash", text: "hi", want: "global 1"},
		{model: "other", text: "weather", tools: true, want: "global 2"},
		{model: "other", text: "the weather", tools: true, want: "rule: weather with tools"},
		{model: "other", text: "the weather", want: "rule: weather"},
		{model: "pro", text: "hi", want: "rule: pro"},
		{model: "flash", text: "hello you", want: "Echo: hello you"},
	}
	// Sequential on purpose: the queue order is what is tested.
	for i, tt := range tests {
		status, resp := c.generate(tt.model, tt.text, tt.tools)
		if status != http.StatusOK || text(resp) != tt.want {
			t.Errorf("request %d (%s %q): status %d text %q, want %q", i, tt.model, tt.text, status, text(resp), tt.want)
		}
	}
	reqs := fake.Requests()
	var answers []string
	for _, r := range reqs {
		answers = append(answers, r.Answer)
	}
	wantAnswers := []string{"queue", "queue", "queue", "rule", "rule", "rule", "default"}
	if diff := cmp.Diff(wantAnswers, answers); diff != "" {
		t.Errorf("answers (-want +got):\n%s", diff)
	}
	first := reqs[0]
	if first.Model != "flash" || first.Method != "generateContent" || first.Stream || !first.HasAPIKey {
		t.Errorf("first request %+v", first)
	}
	if first.Header.Get("X-Goog-Api-Key") != "" {
		t.Errorf("api key recorded in headers")
	}
	var body struct {
		Contents []struct {
			Role  string
			Parts []struct{ Text string }
		}
	}
	mustDo(t, first.Decode(&body))
	if len(body.Contents) != 3 || body.Contents[2].Parts[0].Text != "hi" {
		t.Errorf("decoded body %+v", body)
	}
}

func TestStreamingAndMerging(t *testing.T) {
	t.Parallel()
	fake, c := newServer(t)
	mustDo(t, fake.Enqueue(
		fakegemini.TextChunks("a", "b", "c"),
		fakegemini.Stream(
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"think ","thought":true}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"more","thought":true},{"text":"x"}]}}]}`,
			`{"candidates":[{"content":{"role":"model","parts":[{"text":"y"},{"functionCall":{"name":"f","args":{}}}]},"finishReason":"STOP"}],"usageMetadata":{"totalTokenCount":7}}`,
		),
		fakegemini.Reply(fakegemini.Text("whole")),
	))
	if got := c.stream("m", "q"); len(got) != 3 || text(got[0]) != "a" || text(got[2]) != "c" {
		t.Errorf("stream chunks %v, want a, b, c", got)
	}
	_, merged := c.generate("m", "q", false)
	want := map[string]any{
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []any{
				map[string]any{"text": "think more", "thought": true},
				map[string]any{"text": "xy"},
				map[string]any{"functionCall": map[string]any{"name": "f", "args": map[string]any{}}},
			}},
			"finishReason": "STOP",
		}},
		"usageMetadata": map[string]any{"totalTokenCount": float64(7)},
	}
	if diff := cmp.Diff(want, merged); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	if got := c.stream("m", "q"); len(got) != 1 || text(got[0]) != "whole" {
		t.Errorf("whole response streamed as %v, want one chunk", got)
	}
	if got := c.stream("m", "one two"); len(got) != 2 || text(got[0])+text(got[1]) != "Echo: one two" {
		t.Errorf("default stream %v, want the echo in two chunks", got)
	}
}

func TestFaults(t *testing.T) {
	t.Parallel()
	fake, c := newServer(t)
	fake.FailNext(2, http.StatusServiceUnavailable, "overloaded")
	mustDo(t, fake.Enqueue(fakegemini.Fail(http.StatusTooManyRequests, "slow down")))
	tests := []struct {
		status int
		want   string
	}{
		{503, `{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}`},
		{503, `{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}`},
		{429, `{"error":{"code":429,"message":"slow down","status":"RESOURCE_EXHAUSTED"}}`},
		{200, ""},
	}
	for i, tt := range tests {
		status, b := c.do(t.Context(), http.MethodPost, "/v1beta/models/m:generateContent", requestBody("q", false))
		if status != tt.status {
			t.Errorf("request %d: status %d, want %d", i, status, tt.status)
		}
		if tt.want != "" && strings.TrimSpace(string(b)) != tt.want {
			t.Errorf("request %d: body %s, want %s", i, b, tt.want)
		}
	}
	status, _ := c.do(t.Context(), http.MethodPost, "/v1beta/models/m:countTokens", "{}")
	if status != http.StatusNotFound {
		t.Errorf("unknown method: status %d, want 404", status)
	}
	status, _ = c.do(t.Context(), http.MethodPost, "/v1beta/models/m:generateContent", "{not json")
	if status != http.StatusBadRequest {
		t.Errorf("bad JSON: status %d, want 400", status)
	}
}

func TestLatencyDoesNotBlockOthers(t *testing.T) {
	t.Parallel()
	fake, c := newServer(t)
	fake.SetLatency(200 * time.Millisecond)
	const n = 20
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			status, _ := c.do(t.Context(), http.MethodPost, "/v1beta/models/m:generateContent", requestBody("q", false))
			if status != http.StatusOK {
				t.Errorf("status %d", status)
			}
		})
	}
	wg.Wait()
	// Serialised, 20 requests would take 4s.
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("%d concurrent requests took %v, want them to wait in parallel", n, d)
	}
	if got := len(fake.Requests()); got != n {
		t.Errorf("recorded %d requests, want %d", got, n)
	}

	// A client that gives up stops waiting.
	fake.SetLatency(time.Hour)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1beta/models/m:generateContent", strings.NewReader("{}"))
	if resp, err := c.http.Do(req); err == nil {
		resp.Body.Close()
		t.Errorf("request with an hour of latency answered %d", resp.StatusCode)
	}
}

func TestRecordLimit(t *testing.T) {
	t.Parallel()
	fake, c := newServer(t, fakegemini.WithMaxRecorded(3))
	for i := range 5 {
		c.generate("m", fmt.Sprint("q", i), false)
	}
	var got []string
	for _, r := range fake.Requests() {
		contents := r.Body["contents"].([]any)
		last := contents[len(contents)-1].(map[string]any)["parts"].([]any)[0].(map[string]any)["text"].(string)
		got = append(got, last)
	}
	if diff := cmp.Diff([]string{"q2", "q3", "q4"}, got); diff != "" {
		t.Errorf("kept requests (-want +got):\n%s", diff)
	}
}

func TestInvalidItems(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		item fakegemini.Item
	}{
		{name: "nothing", item: fakegemini.Item{}},
		{name: "two answers", item: fakegemini.Item{Response: fakegemini.Text("a"), Error: &fakegemini.APIError{Code: 500}}},
		{name: "not an object", item: fakegemini.Reply(`[1]`)},
		{name: "invalid JSON", item: fakegemini.Reply(`{"a":`)},
		{name: "empty chunks", item: fakegemini.Item{Chunks: []any{}}},
		{name: "error code not an error", item: fakegemini.Fail(200, "ok")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := fakegemini.New()
			if err := fake.Enqueue(tt.item); err == nil {
				t.Errorf("Enqueue(%+v) succeeded, want an error", tt.item)
			}
			if err := fake.AddRule(fakegemini.Rule{Item: tt.item}); err == nil {
				t.Errorf("AddRule(%+v) succeeded, want an error", tt.item)
			}
		})
	}
}

func TestStartAndClose(t *testing.T) {
	t.Parallel()
	fake := fakegemini.New()
	base, err := fake.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fake.Start("127.0.0.1:0"); err == nil {
		t.Errorf("second Start succeeded")
	}
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	resp, err := (&http.Client{Transport: transport}).Post(base+"/v1beta/models/m:generateContent", "application/json", strings.NewReader(requestBody("ping", false)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "Echo: ping") {
		t.Errorf("answer %s, want the echo", b)
	}
	if err := fake.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := fake.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
