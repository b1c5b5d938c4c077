package gemini

import (
	"net/http"
	"strings"
	"time"
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
	// Retry controls retries of transient failures; the zero value means
	// [DefaultRetry].
	Retry RetryConfig
	// Now is the clock context caches expire by (see ADK's
	// context_cache_config); nil means time.Now.
	Now func() time.Time
}

// RetryConfig controls how a failed HTTP attempt is repeated. Attempts that
// fail with a transport error or with one of StatusCodes are retried with
// exponential backoff until MaxAttempts is reached or the context ends. Zero
// fields take the value of [DefaultRetry].
type RetryConfig struct {
	// MaxAttempts is the number of attempts including the first one; 1
	// disables retries.
	MaxAttempts int
	// InitialDelay is the wait before the first retry.
	InitialDelay time.Duration
	// MaxDelay caps the wait between attempts.
	MaxDelay time.Duration
	// Multiplier grows the wait after each attempt.
	Multiplier float64
	// Jitter is the upper bound of a random duration added to every wait; a
	// negative value disables jitter.
	Jitter time.Duration
	// StatusCodes are the HTTP statuses worth retrying.
	StatusCodes []int
}

// DefaultRetry is the retry policy used for zero [RetryConfig] fields: three
// attempts, 250ms doubling up to 4s, up to 100ms of jitter, on 429 and the
// transient 5xx statuses.
var DefaultRetry = RetryConfig{
	MaxAttempts:  3,
	InitialDelay: 250 * time.Millisecond,
	MaxDelay:     4 * time.Second,
	Multiplier:   2,
	Jitter:       100 * time.Millisecond,
	StatusCodes:  []int{http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout},
}

// withDefaults returns r with its zero fields taken from [DefaultRetry].
func (r RetryConfig) withDefaults() RetryConfig {
	if r.MaxAttempts <= 0 {
		r.MaxAttempts = DefaultRetry.MaxAttempts
	}
	if r.InitialDelay <= 0 {
		r.InitialDelay = DefaultRetry.InitialDelay
	}
	if r.MaxDelay <= 0 {
		r.MaxDelay = DefaultRetry.MaxDelay
	}
	if r.Multiplier <= 0 {
		r.Multiplier = DefaultRetry.Multiplier
	}
	switch {
	case r.Jitter < 0:
		r.Jitter = 0
	case r.Jitter == 0:
		r.Jitter = DefaultRetry.Jitter
	}
	if len(r.StatusCodes) == 0 {
		r.StatusCodes = DefaultRetry.StatusCodes
	}
	return r
}

// ConfigFromEnv builds a Config from environment variables read with getenv
// (os.Getenv in production): GOOGLE_API_KEY, else GEMINI_API_KEY, for the
// Gemini API; GOOGLE_GENAI_USE_VERTEXAI ("1" or "true") with
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
	switch strings.ToLower(strings.TrimSpace(getenv("GOOGLE_GENAI_USE_VERTEXAI"))) {
	case "1", "true":
		cfg.Backend = BackendVertexAI
		cfg.Project = strings.TrimSpace(getenv("GOOGLE_CLOUD_PROJECT"))
		cfg.Location = strings.TrimSpace(getenv("GOOGLE_CLOUD_LOCATION"))
		return cfg, cfg.APIKey != "" || (cfg.Project != "" && cfg.Location != "")
	}
	return cfg, cfg.APIKey != ""
}
