package config

import (
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/retry"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// retryPolicyOf loads an app whose root agent's YAML is root and returns
// the retry policy of its agent.
func retryPolicyOf(t *testing.T, root string) (*retry.Config, error) {
	t.Helper()
	apps, err := LoadAll(fstest.MapFS{"s/root_agent.yaml": {Data: []byte(root)}})
	if err != nil {
		return nil, err
	}
	app, _, err := Build(apps[0])
	if err != nil {
		return nil, err
	}
	return app.Tree.Root().(*llmagent.Agent).Config().Retry, nil
}

func TestRetryConfig(t *testing.T) {
	t.Parallel()
	const head = "name: a\nmodel: m\n"
	tests := []struct {
		name, yaml string
		want       *retry.Config
	}{
		{"none", "", nil},
		{"empty takes ADK's defaults", "retry_config: {}\n", &retry.Config{MaxAttempts: 5, InitialDelay: time.Second, MaxDelay: time.Minute, BackoffFactor: 2, Jitter: 1}},
		{"every field", "retry_config:\n  max_attempts: 4\n  initial_delay: 2\n  max_delay: 30\n  backoff_factor: 3\n  jitter: 0.5\n" +
			"  exceptions: [ServerError, _ResourceExhaustedError]\n",
			&retry.Config{MaxAttempts: 4, InitialDelay: 2 * time.Second, MaxDelay: 30 * time.Second, BackoffFactor: 3, Jitter: 0.5,
				Exceptions: []string{"ServerError", "_ResourceExhaustedError"}}},
		{"no retries", "retry_config:\n  max_attempts: 0\n  initial_delay: 0.25\n",
			&retry.Config{MaxAttempts: 0, InitialDelay: 250 * time.Millisecond, MaxDelay: time.Minute, BackoffFactor: 2, Jitter: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := retryPolicyOf(t, head+tt.yaml)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("policy (-want +got):\n%s", d)
			}
		})
	}
}

func TestRetryConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, yaml, want string }{
		{"unknown field", "name: a\nmodel: m\nretry_config:\n  attempts: 3\n", "s/root_agent.yaml: retry_config.attempts: unknown field"},
		{"negative attempts", "name: a\nmodel: m\nretry_config:\n  max_attempts: -1\n", "retry_config.max_attempts: must not be negative, got -1"},
		{"too many attempts", "name: a\nmodel: m\nretry_config:\n  max_attempts: 1000\n", "retry_config.max_attempts: must be at most 100, got 1000"},
		{"negative delay", "name: a\nmodel: m\nretry_config:\n  initial_delay: -1\n", "retry_config.initial_delay: must be between 0 and 3600 seconds"},
		{"huge delay", "name: a\nmodel: m\nretry_config:\n  max_delay: 1e9\n", "retry_config.max_delay: must be between 0 and 3600 seconds"},
		{"negative jitter", "name: a\nmodel: m\nretry_config:\n  jitter: -0.1\n", "retry_config.jitter: must be a finite number"},
		{"negative backoff", "name: a\nmodel: m\nretry_config:\n  backoff_factor: -2\n", "retry_config.backoff_factor: must be a finite number"},
		{"empty exception", "name: a\nmodel: m\nretry_config:\n  exceptions: ['']\n", "retry_config.exceptions[0]: must not be empty"},
		{"workflow agent", "agent_class: LoopAgent\nname: l\nretry_config: {}\n", "retry_config: only an LlmAgent's model calls are retried"},
		{"not a number", "name: a\nmodel: m\nretry_config:\n  jitter: lots\n", "s/root_agent.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := retryPolicyOf(t, tt.yaml)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
