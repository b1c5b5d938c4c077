package gemini

import (
	"net/http"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/retry"
)

// Backend selects the API a [Provider] talks to.
type Backend string

const (
	// BackendGeminiAPI is the Gemini Developer API, authenticated with an API
	// key. It is the default.
	BackendGeminiAPI Backend = "gemini-api"
	// BackendVertexAI is Vertex AI, addressed by project and location and
	// authenticated with Application Default Credentials or an API key.
	BackendVertexAI Backend = "vertex"
)

// Config configures a [Provider]. The zero value is not usable: the Gemini
// API needs an API key, Vertex AI a project and location (or a BaseURL).
type Config struct {
	// APIKey authenticates with the Gemini API, or with Vertex AI in express
	// mode. When it is empty and BaseURL is set, requests carry a placeholder
	// key, which is what a local server speaking the Gemini REST API needs.
	APIKey string
	// Backend is the API to call; empty means [BackendGeminiAPI].
	Backend Backend
	// Project is the Google Cloud project of the Vertex AI backend.
	Project string
	// Location is the Google Cloud region of the Vertex AI backend.
	Location string
	// BaseURL replaces the API endpoint, e.g. "http://127.0.0.1:8090/".
	BaseURL string
	// HTTPClient sends the requests; nil means a client of the SDK (which,
	// for Vertex AI without an API key, carries default credentials).
	HTTPClient *http.Client
	// Headers are added to every request.
	Headers http.Header
	// Timeout bounds each call (one GenerateContent, its retries and the
	// whole of a streamed answer included); past it the call fails with a
	// [models.Error] of status DEADLINE_EXCEEDED. Zero means the context
	// alone bounds it.
	Timeout time.Duration
	// MaxResponseBytes caps the body of one answer: a whole response, or
	// the sum of a stream's chunks. It is enforced as the bytes arrive, so
	// a model that streams without end costs at most this much memory; past
	// it the call fails with a [models.Error] of status RESOURCE_EXHAUSTED.
	// Zero means [DefaultMaxResponseBytes], negative no cap.
	MaxResponseBytes int64
	// MaxChunks caps the number of chunks of one streamed answer, failing
	// the call as MaxResponseBytes does. Zero means [DefaultMaxChunks],
	// negative no cap.
	MaxChunks int
	// Retry is the policy of model calls that fail before any answer came
	// (see package retry); a context carrying another policy
	// ([retry.NewContext], an agent's retry_config) overrides it. A zero
	// MaxAttempts means [DefaultRetry].
	Retry retry.Config
	// LegacyStreaming shapes streamed answers as ADK does with its
	// PROGRESSIVE_SSE_STREAMING feature off (ADK_DISABLE_PROGRESSIVE_SSE_STREAMING):
	// text is merged from each chunk's first part only, other chunks are
	// passed on whole and not partial, and the final response holds the
	// text alone. Default: progressive, ADK's default.
	LegacyStreaming bool
	// Now is the clock context caches expire by (see ADK's
	// context_cache_config); nil means time.Now.
	Now func() time.Time
}

// DefaultRetry is the policy when [Config] sets none: three attempts,
// 250ms doubling up to 4s with ±40% jitter, on 429, 5xx and unreachable
// models (see [models.ErrorClass]).
var DefaultRetry = retry.Config{
	MaxAttempts:   3,
	InitialDelay:  250 * time.Millisecond,
	MaxDelay:      4 * time.Second,
	BackoffFactor: 2,
	Jitter:        0.4,
	Exceptions:    models.TransientClasses,
}

// retryPolicy returns r, or [DefaultRetry] when r sets no attempts.
func retryPolicy(r retry.Config) retry.Config {
	if r.MaxAttempts == 0 {
		return DefaultRetry
	}
	return r
}

// ConfigFromEnv builds a Config from environment variables read with getenv
// (os.Getenv in production): GOOGLE_API_KEY, else GEMINI_API_KEY, for the
// Gemini API; GOOGLE_GENAI_USE_VERTEXAI ("1" or "true", any case, as ADK
// reads it) with
// GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION for Vertex AI; and
// GOOGLE_GEMINI_BASE_URL to replace the endpoint. It reports whether
// credentials were found: an API key, or a project and location for Vertex
// AI. A base URL alone is not a credential, but [New] accepts it.
func ConfigFromEnv(getenv func(string) string) (Config, bool) {
	cfg := Config{
		APIKey:  strings.TrimSpace(getenv("GOOGLE_API_KEY")),
		BaseURL: strings.TrimSpace(getenv("GOOGLE_GEMINI_BASE_URL")),
		Backend: BackendGeminiAPI,
	}
	if cfg.APIKey == "" {
		cfg.APIKey = strings.TrimSpace(getenv("GEMINI_API_KEY"))
	}
	if features.EnvEnabled(getenv("GOOGLE_GENAI_USE_VERTEXAI")) {
		cfg.Backend = BackendVertexAI
		cfg.Project = strings.TrimSpace(getenv("GOOGLE_CLOUD_PROJECT"))
		cfg.Location = strings.TrimSpace(getenv("GOOGLE_CLOUD_LOCATION"))
		return cfg, cfg.APIKey != "" || (cfg.Project != "" && cfg.Location != "")
	}
	return cfg, cfg.APIKey != ""
}
