package gemini_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// TestResponseMapping checks the mapping of ADK's LlmResponse.create.
func TestResponseMapping(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		vertex bool
		resp   string
		want   *v1.LlmResponse
	}{
		{
			name:   "finish reason without content is an error with the finish message",
			vertex: true,
			resp:   `{"candidates":[{"finishReason":"SAFETY","finishMessage":"unsafe"}]}`,
			want:   &v1.LlmResponse{ErrorCode: "SAFETY", ErrorMessage: "unsafe", FinishReason: "SAFETY"},
		},
		{
			// The SDK drops the Gemini API's finish message, as Python's does.
			name: "finish reason without content is an error",
			resp: `{"candidates":[{"finishReason":"SAFETY","finishMessage":"unsafe"}]}`,
			want: &v1.LlmResponse{ErrorCode: "SAFETY", FinishReason: "SAFETY"},
		},
		{
			name: "content with a non-STOP finish reason is content",
			resp: `{"candidates":[{"content":{"role":"model","parts":[{"text":"cut"}]},"finishReason":"MAX_TOKENS"}]}`,
			want: &v1.LlmResponse{Content: modelContent(&v1.Part{Text: "cut"}), FinishReason: "MAX_TOKENS"},
		},
		{
			name: "STOP without content is a response without content",
			resp: `{"candidates":[{"finishReason":"STOP"}],"modelVersion":"v"}`,
			want: &v1.LlmResponse{FinishReason: "STOP", ModelVersion: "v"},
		},
		{
			name: "grounding metadata is kept",
			resp: `{"candidates":[{"content":{"role":"model","parts":[{"text":"a"}]},"finishReason":"STOP","groundingMetadata":{"webSearchQueries":["q"]}}]}`,
			want: &v1.LlmResponse{Content: modelContent(&v1.Part{Text: "a"}), FinishReason: "STOP", GroundingMetadata: mustStruct(t, `{"webSearchQueries":["q"]}`)},
		},
		{
			name: "code execution parts",
			resp: `{"candidates":[{"content":{"role":"model","parts":[{"executableCode":{"language":"PYTHON","code":"print(1)"}},{"codeExecutionResult":{"outcome":"OUTCOME_OK","output":"1"}}]},"finishReason":"STOP"}]}`,
			want: &v1.LlmResponse{Content: modelContent(
				&v1.Part{ExecutableCode: &v1.ExecutableCode{Language: "PYTHON", Code: "print(1)"}},
				&v1.Part{CodeExecutionResult: &v1.CodeExecutionResult{Outcome: "OUTCOME_OK", Output: "1"}},
			), FinishReason: "STOP"},
		},
		{
			name: "prompt feedback without candidates",
			resp: `{"promptFeedback":{"blockReason":"PROHIBITED_CONTENT","blockReasonMessage":"no"}}`,
			want: &v1.LlmResponse{ErrorCode: "PROHIBITED_CONTENT", ErrorMessage: "no"},
		},
		{
			name: "nothing at all",
			resp: `{}`,
			want: &v1.LlmResponse{ErrorCode: "UNKNOWN_ERROR", ErrorMessage: "Unknown error."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, p := newFake(t, backendConfig(tt.vertex))
			if err := fake.Enqueue(fakegemini.Reply(tt.resp)); err != nil {
				t.Fatal(err)
			}
			got, err := collect(t.Context(), t, p, userText("q"), false)
			if err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			if diff := cmp.Diff([]*v1.LlmResponse{tt.want}, got, protocmp.Transform()); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHTTPErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		fail            int // requests to fail
		code            int
		retry           retry.Config
		wantErr         *models.Error // nil: the call succeeds
		wantUnavailable bool
		wantRequests    int
	}{
		{
			name: "500 retried then failing", fail: 5, code: http.StatusInternalServerError,
			wantErr: &models.Error{HTTPStatus: 500, Status: "INTERNAL", Message: "boom"}, wantUnavailable: true, wantRequests: 3,
		},
		{
			name: "503 retried then succeeding", fail: 2, code: http.StatusServiceUnavailable, wantRequests: 3,
		},
		{
			name: "429 retried then failing", fail: 5, code: http.StatusTooManyRequests,
			wantErr: &models.Error{HTTPStatus: 429, Status: "RESOURCE_EXHAUSTED", Message: "boom"}, wantUnavailable: true, wantRequests: 3,
		},
		{
			name: "400 not retried", fail: 5, code: http.StatusBadRequest,
			wantErr: &models.Error{HTTPStatus: 400, Status: "INVALID_ARGUMENT", Message: "boom"}, wantRequests: 1,
		},
		{
			name: "retries disabled", fail: 5, code: http.StatusInternalServerError, retry: retry.Config{MaxAttempts: 1},
			wantErr: &models.Error{HTTPStatus: 500, Status: "INTERNAL", Message: "boom"}, wantUnavailable: true, wantRequests: 1,
		},
	}
	for _, tt := range tests {
		for _, stream := range []bool{false, true} {
			t.Run(tt.name+streamSuffix(stream), func(t *testing.T) {
				t.Parallel()
				fake, p := newFake(t, gemini.Config{Retry: tt.retry})
				fake.FailNext(tt.fail, tt.code, "boom")
				got, err := collect(t.Context(), t, p, userText("q"), stream)
				if n := len(fake.Requests()); n != tt.wantRequests {
					t.Errorf("server got %d requests, want %d", n, tt.wantRequests)
				}
				if tt.wantErr == nil {
					if err != nil || len(got) == 0 || got[len(got)-1].GetContent().GetParts()[0].GetText() != "Echo: q" {
						t.Fatalf("GenerateContent = %v, %v; want the echo", got, err)
					}
					return
				}
				var modelErr *models.Error
				if !errors.As(err, &modelErr) {
					t.Fatalf("error %v is not a *models.Error", err)
				}
				if diff := cmp.Diff(tt.wantErr, modelErr, cmpopts.IgnoreFields(models.Error{}, "Body")); diff != "" {
					t.Errorf("error (-want +got):\n%s", diff)
				}
				if tt.wantErr.HTTPStatus > 0 && !json.Valid(modelErr.Body) {
					t.Errorf("error body %q, want the answer's JSON", modelErr.Body)
				}
				if errors.Is(err, models.ErrUnavailable) != tt.wantUnavailable {
					t.Errorf("errors.Is(%v, ErrUnavailable) = %v, want %v", err, !tt.wantUnavailable, tt.wantUnavailable)
				}
				if len(got) != 0 {
					t.Errorf("got responses %v before the error", got)
				}
			})
		}
	}
}

func streamSuffix(stream bool) string {
	if stream {
		return "/stream"
	}
	return "/unary"
}

func TestMidStreamError(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t, gemini.Config{})
	err := fake.Enqueue(fakegemini.Stream(
		`{"candidates":[{"content":{"role":"model","parts":[{"text":"par"}]}}]}`,
		`{"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}`,
	))
	if err != nil {
		t.Fatal(err)
	}
	got, err := collect(t.Context(), t, p, userText("q"), true)
	if len(got) != 1 || !got[0].GetPartial() {
		t.Errorf("got %v, want one partial response before the error", got)
	}
	if !errors.Is(err, models.ErrUnavailable) {
		t.Errorf("error %v, want ErrUnavailable", err)
	}
}

func TestTransportError(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	transport := &http.Transport{}
	t.Cleanup(transport.CloseIdleConnections)
	p, err := gemini.New(t.Context(), gemini.Config{
		APIKey: "k", BaseURL: "http://" + addr, HTTPClient: &http.Client{Transport: transport}, Retry: fastRetry,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, stream := range []bool{false, true} {
		_, err := collect(t.Context(), t, p, userText("q"), stream)
		if !errors.Is(err, models.ErrUnavailable) {
			t.Errorf("stream %v: error %v, want ErrUnavailable", stream, err)
		}
		var modelErr *models.Error
		if errors.As(err, &modelErr) {
			t.Errorf("stream %v: transport error reported as API error %v", stream, modelErr)
		}
	}
}

func TestContextCancellation(t *testing.T) {
	t.Parallel()
	for _, stream := range []bool{false, true} {
		t.Run(streamSuffix(stream)[1:], func(t *testing.T) {
			t.Parallel()
			fake, p := newFake(t, gemini.Config{})
			fake.SetLatency(10 * time.Second)
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := collect(ctx, t, p, userText("q"), stream)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v, want context.DeadlineExceeded", err)
			}
			if errors.Is(err, models.ErrUnavailable) {
				t.Errorf("error %v must not be ErrUnavailable", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("call returned after %v, want promptly", d)
			}
		})
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  gemini.Config
	}{
		{name: "unknown backend", cfg: gemini.Config{APIKey: "k", Backend: "openai"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if _, err := gemini.New(t.Context(), tt.cfg); err == nil {
				t.Errorf("New(%+v) succeeded, want an error", tt.cfg)
			}
		})
	}
	p, err := gemini.New(t.Context(), gemini.Config{APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Model(t.Context(), ""); !errors.Is(err, gemini.ErrNoModelName) {
		t.Errorf("Model(\"\") error %v, want ErrNoModelName", err)
	}
	m, err := p.Model(t.Context(), "gemini-2.5-pro")
	if err != nil || m.Name() != "gemini-2.5-pro" {
		t.Errorf("Model = %v, %v; want gemini-2.5-pro", m, err)
	}
}

func TestConfigTimeout(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t, gemini.Config{Timeout: 50 * time.Millisecond})
	fake.SetLatency(10 * time.Second)
	start := time.Now()
	_, err := collect(t.Context(), t, p, userText("q"), false)
	var modelErr *models.Error
	if !errors.As(err, &modelErr) || modelErr.Status != models.StatusDeadlineExceeded {
		t.Errorf("error %v, want a model error DEADLINE_EXCEEDED", err)
	}
	if errors.Is(err, models.ErrUnavailable) {
		t.Errorf("error %v must not be ErrUnavailable: a timed-out call is not retried", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("call returned after %v, want about the timeout", d)
	}
}

// TestUnreadableAnswer: a successful answer the SDK cannot read is the
// model's failure, INVALID_RESPONSE with HTTP status 502, never an
// error the service would report as its own.
func TestUnreadableAnswer(t *testing.T) {
	t.Parallel()
	answers := map[string]string{
		"candidates not a list": `{"candidates":"x"}`,
		"args not an object":    `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":"x"}}]}}]}`,
	}
	for name, answer := range answers {
		for _, stream := range []bool{false, true} {
			t.Run(name+streamSuffix(stream), func(t *testing.T) {
				t.Parallel()
				fake, p := newFake(t, gemini.Config{})
				if err := fake.Enqueue(fakegemini.Item{Response: json.RawMessage(answer)}); err != nil {
					t.Fatal(err)
				}
				_, err := collect(t.Context(), t, p, userText("q"), stream)
				var modelErr *models.Error
				if !errors.As(err, &modelErr) || modelErr.Status != models.StatusInvalidResponse || modelErr.HTTPStatus != http.StatusBadGateway {
					t.Fatalf("error %v, want a model error INVALID_RESPONSE 502", err)
				}
			})
		}
	}
}
