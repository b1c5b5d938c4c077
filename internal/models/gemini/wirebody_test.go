package gemini

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"google.golang.org/genai"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// sdkCapture is a server that records the requests a real SDK client
// sends it and answers each with an empty response.
type sdkCapture struct {
	srv     *httptest.Server
	clients map[bool]*genai.Client
	mu      sync.Mutex
	body    []byte
	header  http.Header
	url     string
}

func newSDKCapture(tb testing.TB) *sdkCapture {
	tb.Helper()
	c := &sdkCapture{clients: map[bool]*genai.Client{}}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		c.mu.Lock()
		c.body, c.header, c.url = b, r.Header.Clone(), r.URL.String()
		c.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{}`))
	}))
	transport := &http.Transport{}
	tb.Cleanup(func() {
		transport.CloseIdleConnections()
		c.srv.Close()
	})
	for _, vertex := range []bool{false, true} {
		cc := &genai.ClientConfig{APIKey: "k", Backend: genai.BackendGeminiAPI, HTTPClient: &http.Client{Transport: transport},
			HTTPOptions: genai.HTTPOptions{BaseURL: c.srv.URL}}
		if vertex {
			cc = &genai.ClientConfig{Backend: genai.BackendVertexAI, Project: "proj", Location: "us-central1",
				HTTPClient: &http.Client{Transport: transport}, HTTPOptions: genai.HTTPOptions{BaseURL: c.srv.URL}}
		}
		client, err := genai.NewClient(tb.Context(), cc)
		if err != nil {
			tb.Fatal(err)
		}
		c.clients[vertex] = client
	}
	return c
}

// sdkBody returns the body the SDK sends for req, or false when it sends
// none (it refused the request).
func (c *sdkCapture) sdkBody(tb testing.TB, req *v1.LlmRequest, vertex, stream bool) ([]byte, bool) {
	tb.Helper()
	rc := requestConverter{vertex: vertex}
	cfg, err := rc.config(req.GetConfig())
	if err != nil {
		return nil, false
	}
	c.mu.Lock()
	c.body = nil
	c.mu.Unlock()
	models := c.clients[vertex].Models
	if stream {
		for _, err := range models.GenerateContentStream(tb.Context(), "m", rc.contents(req), cfg) {
			if err != nil {
				break
			}
		}
	} else {
		_, _ = models.GenerateContent(tb.Context(), "m", rc.contents(req), cfg)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.body, c.body != nil
}

// directBody returns the body the direct path writes for req, or false
// when it leaves req to the SDK.
func directBody(req *v1.LlmRequest, vertex bool) ([]byte, bool) {
	rc := requestConverter{vertex: vertex}
	cfg, err := rc.config(req.GetConfig())
	if err != nil {
		return nil, false
	}
	return rc.appendBody(nil, req, cfg)
}

// checkBody fails when the direct path writes a body for req that is not
// the SDK's, byte for byte.
func checkBody(t *testing.T, c *sdkCapture, req *v1.LlmRequest, vertex bool) bool {
	t.Helper()
	direct, ok := directBody(req, vertex)
	if !ok {
		return false
	}
	for _, stream := range []bool{false, true} {
		want, sent := c.sdkBody(t, req, vertex, stream)
		if !sent {
			t.Fatalf("the SDK refused a request the direct path writes (vertex=%v):\n%s", vertex, direct)
		}
		if !bytes.Equal(direct, want) {
			t.Fatalf("body differs (vertex=%v stream=%v):\ndirect %s\nsdk    %s", vertex, stream, direct, want)
		}
	}
	return true
}

func bodySeeds(tb testing.TB) []*v1.LlmRequest {
	tb.Helper()
	schema, _ := structpb.NewStruct(map[string]any{
		"type": "object", "required": []any{"a"}, "propertyOrdering": []any{"a", "b"},
		"properties": map[string]any{
			"a": map[string]any{"type": []any{"string", "null"}, "enum": []any{"x", "y"}, "format": "enum", "default": "x<&>"},
			"b": map[string]any{"anyOf": []any{map[string]any{"type": "integer", "minimum": 1e-7}, map[string]any{"type": "string"}}},
			"c": map[string]any{"type": "array", "items": map[string]any{"type": "number", "maximum": 1e21}, "maxItems": 3},
		},
	})
	raw, _ := structpb.NewStruct(map[string]any{"type": "object", "$defs": map[string]any{"d": map[string]any{"type": "boolean"}}})
	odd, _ := structpb.NewStruct(map[string]any{"z": []any{1.5, nil, true, "\u2028<\x01>"}, "a": map[string]any{}, "é": 1e-9})
	full := benchRequest(tb, 2)
	full.Config.Tools = append(full.Config.Tools, &v1.Tool{FunctionDeclarations: []*v1.FunctionDeclaration{
		{Name: "client_tool", Parameters: schema, Response: schema}, {Name: "raw", Parameters: raw, Response: raw},
		{Name: "js", ParametersJsonSchema: structpb.NewStructValue(odd)}}}, &v1.Tool{})
	full.Config.ResponseSchema = schema
	full.Config.Temperature = proto.Float32(0.7)
	full.Config.TopP = proto.Float32(0.95)
	full.Config.TopK = proto.Float32(40)
	full.Config.Seed = proto.Int32(-3)
	full.Config.MaxOutputTokens = proto.Int32(1024)
	full.Config.CandidateCount = proto.Int32(1)
	full.Config.StopSequences = []string{"END", "<stop>"}
	full.Config.PresencePenalty = proto.Float32(1e-7)
	full.Config.FrequencyPenalty = proto.Float32(-0.1)
	full.Config.ResponseLogprobs = proto.Bool(true)
	full.Config.Logprobs = proto.Int32(3)
	full.Config.ResponseMimeType = "text/plain"
	full.Config.ResponseModalities = []string{"TEXT"}
	full.Config.ThinkingConfig = &v1.ThinkingConfig{IncludeThoughts: true, ThinkingBudget: proto.Int32(0), ThinkingLevel: "LOW"}
	full.Config.ToolConfig = &v1.ToolConfig{FunctionCallingConfig: &v1.FunctionCallingConfig{Mode: "ANY", AllowedFunctionNames: []string{"tool_0"}}}
	full.Config.SafetySettings = []*v1.SafetySetting{{Category: "HARM_CATEGORY_HARASSMENT", Threshold: "BLOCK_NONE", Method: "SEVERITY"}, nil, {}}
	full.Contents = append(full.Contents, &v1.Content{Role: "user", Parts: []*v1.Part{
		{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte{0, 1, 2, 250}, DisplayName: "d"}},
		{FileData: &v1.FileData{MimeType: "application/pdf", FileUri: "gs://b/o", DisplayName: "f"}},
		{ExecutableCode: &v1.ExecutableCode{Language: "PYTHON", Code: "print(1)"}},
		{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: "OUTCOME_OK", Output: "1\n"}},
		{Text: "x", PartMetadata: odd}, {InlineData: &v1.Blob{}}, {}, nil,
		{FunctionCall: &v1.FunctionCall{Name: "f", Args: odd}},
		{FunctionResponse: &v1.FunctionResponse{Id: "adk-x", Name: "f", Response: &structpb.Struct{}}},
	}}, nil, &v1.Content{Role: "model"})
	return []*v1.LlmRequest{
		benchRequest(tb, 1), benchRequest(tb, 3), full,
		{Contents: []*v1.Content{{Role: "model", Parts: []*v1.Part{{Thought: true, Text: "t", ThoughtSignature: []byte("s")}}}}},
		{Contents: []*v1.Content{{Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Id: "adk-1", Name: "f"}}}}}},
		{Config: &v1.GenerateContentConfig{SystemInstruction: "a\tb \"q\" \xff", Labels: map[string]string{"b": "2", "a": "<1>"}}},
		{Config: &v1.GenerateContentConfig{ResponseSchema: raw, ResponseMimeType: "application/json"}},
		{},
	}
}

// TestRequestBodyMatchesSDK checks the direct body against the SDK's for
// requests of every kind of part and config field the direct path writes.
func TestRequestBodyMatchesSDK(t *testing.T) {
	c := newSDKCapture(t)
	for i, req := range bodySeeds(t) {
		for _, vertex := range []bool{false, true} {
			if !checkBody(t, c, req, vertex) {
				t.Errorf("seed %d (vertex=%v): not written directly", i, vertex)
			}
		}
	}
}

// FuzzRequestBodyMatchesSDK checks that the direct path writes the body
// the SDK sends, byte for byte, for every request it does not leave to
// the SDK, on either backend.
func FuzzRequestBodyMatchesSDK(f *testing.F) {
	for _, req := range bodySeeds(f) {
		b, err := proto.Marshal(req)
		if err != nil {
			continue // invalid UTF-8, which only TestRequestBodyMatchesSDK can send
		}
		f.Add(b, false)
		f.Add(b, true)
	}
	c := newSDKCapture(f)
	f.Fuzz(func(t *testing.T, data []byte, vertex bool) {
		req := &v1.LlmRequest{}
		if proto.Unmarshal(data, req) != nil {
			return
		}
		checkBody(t, c, req, vertex)
	})
}
