package gemini

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/retry"
)

func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		env       map[string]string
		want      Config
		wantCreds bool
	}{
		{name: "nothing", want: Config{Backend: BackendGeminiAPI}},
		{
			name:      "google key wins over gemini key",
			env:       map[string]string{"GOOGLE_API_KEY": "g", "GEMINI_API_KEY": "m"},
			want:      Config{Backend: BackendGeminiAPI, APIKey: "g"},
			wantCreds: true,
		},
		{
			name:      "gemini key",
			env:       map[string]string{"GEMINI_API_KEY": " m "},
			want:      Config{Backend: BackendGeminiAPI, APIKey: "m"},
			wantCreds: true,
		},
		{
			name: "base url alone is no credential",
			env:  map[string]string{"GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:8090"},
			want: Config{Backend: BackendGeminiAPI, BaseURL: "http://127.0.0.1:8090"},
		},
		{
			name:      "vertex with project and location",
			env:       map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "TRUE", "GOOGLE_CLOUD_PROJECT": "p", "GOOGLE_CLOUD_LOCATION": "l"},
			want:      Config{Backend: BackendVertexAI, Project: "p", Location: "l"},
			wantCreds: true,
		},
		{
			name: "vertex without location",
			env:  map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "1", "GOOGLE_CLOUD_PROJECT": "p"},
			want: Config{Backend: BackendVertexAI, Project: "p"},
		},
		{
			name:      "vertex express mode with a key",
			env:       map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "1", "GOOGLE_API_KEY": "k"},
			want:      Config{Backend: BackendVertexAI, APIKey: "k"},
			wantCreds: true,
		},
		{
			name:      "vertex flag false",
			env:       map[string]string{"GOOGLE_GENAI_USE_VERTEXAI": "0", "GOOGLE_API_KEY": "k", "GOOGLE_CLOUD_PROJECT": "p"},
			want:      Config{Backend: BackendGeminiAPI, APIKey: "k"},
			wantCreds: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, creds := ConfigFromEnv(func(k string) string { return tt.env[k] })
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
			if creds != tt.wantCreds {
				t.Errorf("credentials %v, want %v", creds, tt.wantCreds)
			}
		})
	}
}

func TestRetryPolicy(t *testing.T) {
	t.Parallel()
	if d := cmp.Diff(DefaultRetry, retryPolicy(retry.Config{})); d != "" {
		t.Errorf("zero policy (-want +got):\n%s", d)
	}
	one := retry.Config{MaxAttempts: 1}
	if d := cmp.Diff(one, retryPolicy(one)); d != "" {
		t.Errorf("set policy (-want +got):\n%s", d)
	}
	if err := DefaultRetry.Validate(); err != nil {
		t.Errorf("DefaultRetry: %v", err)
	}
}
