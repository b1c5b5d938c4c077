package gemini_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
)

// BenchmarkGenerateContent measures one unary call through the adapter and
// the SDK over loopback HTTP, against a server answering with fixed bytes:
// the request conversion, the SDK's request and response handling, and
// the HTTP exchange. The request is a first turn with one tool declared.
// "bounded" runs under the service's limits (a timeout and the body cap),
// "unbounded" without them, which shows what the limits cost.
func BenchmarkGenerateContent(b *testing.B) {
	b.Run("bounded", func(b *testing.B) {
		benchmarkGenerateContent(b, gemini.Config{Timeout: 2 * time.Minute})
	})
	b.Run("unbounded", func(b *testing.B) {
		benchmarkGenerateContent(b, gemini.Config{MaxResponseBytes: -1, MaxChunks: -1})
	})
}

// BenchmarkGenerateContentStream measures one streamed call as
// BenchmarkGenerateContent measures a unary one, the server answering with
// three events: two text chunks and a last one with the finish reason and
// usage.
func BenchmarkGenerateContentStream(b *testing.B) {
	answer := []byte(`data: {"candidates":[{"content":{"role":"model","parts":[{"text":"It is sunny"}]}}],"modelVersion":"gemini-2.5-flash"}` + "\r\n\r\n" +
		`data: {"candidates":[{"content":{"role":"model","parts":[{"text":" in Paris."}]}}],"modelVersion":"gemini-2.5-flash"}` + "\r\n\r\n" +
		`data: {"candidates":[{"content":{"role":"model","parts":[{"text":""}]},"finishReason":"STOP"}],` +
		`"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":6,"totalTokenCount":18},"modelVersion":"gemini-2.5-flash"}` + "\r\n\r\n")
	benchmarkCall(b, gemini.Config{Timeout: 2 * time.Minute}, answer, true)
}

func benchmarkGenerateContent(b *testing.B, cfg gemini.Config) {
	answer := []byte(`{"candidates":[{"content":{"role":"model","parts":[{"text":"It is sunny in Paris."}]},` +
		`"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":6,"totalTokenCount":18},` +
		`"modelVersion":"gemini-2.5-flash"}`)
	benchmarkCall(b, cfg, answer, false)
}

// benchmarkCall measures calls answered with answer.
func benchmarkCall(b *testing.B, cfg gemini.Config, answer []byte, stream bool) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(answer)
	}))
	defer srv.Close()
	transport := &http.Transport{MaxIdleConnsPerHost: 16}
	defer transport.CloseIdleConnections()
	cfg.BaseURL, cfg.APIKey, cfg.HTTPClient = srv.URL, "bench-key", &http.Client{Transport: transport}
	p, err := gemini.New(b.Context(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	m, err := p.Model(b.Context(), "gemini-2.5-flash")
	if err != nil {
		b.Fatal(err)
	}
	req := &v1.LlmRequest{
		Model:    "gemini-2.5-flash",
		Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: "What is the weather in Paris?"}}}},
		Config: &v1.GenerateContentConfig{
			SystemInstruction: "Answer briefly.\n\nYou are an agent. Your internal name is \"bench_agent\".",
			Tools: []*v1.Tool{{FunctionDeclarations: []*v1.FunctionDeclaration{{Name: "get_weather",
				Description: "Returns the weather.",
				Parameters:  mustStruct(b, `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)}}}},
			Labels: map[string]string{"adk_agent_name": "bench_agent"},
		},
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, err := range m.GenerateContent(b.Context(), req, stream) {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
