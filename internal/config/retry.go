package config

import (
	"fmt"
	"math"
	"time"

	"github.com/agentsvc/agentsvc/internal/retry"
)

// Bounds of an agent's retry_config.
const (
	maxRetryAttempts   = 100
	maxRetryDelay      = time.Hour
	maxRetryExceptions = 32
	maxExceptionName   = 128
)

// RetrySettings are an LlmAgent's retry_config: ADK 2.x's RetryConfig
// fields, applied to the agent's model calls. Unset fields take ADK's
// defaults (see [retry.Default]); delays are in seconds.
type RetrySettings struct {
	MaxAttempts   *int           `yaml:"max_attempts"`
	InitialDelay  *float64       `yaml:"initial_delay"`
	MaxDelay      *float64       `yaml:"max_delay"`
	BackoffFactor *float64       `yaml:"backoff_factor"`
	Jitter        *float64       `yaml:"jitter"`
	Exceptions    []string       `yaml:"exceptions"`
	Extra         map[string]any `yaml:",inline"`
}

// policy validates s and returns its policy, naming the first wrong field.
func (s *RetrySettings) policy() (retry.Config, error) {
	const field = "retry_config"
	for k := range s.Extra {
		return retry.Config{}, fmt.Errorf("%s.%s: unknown field", field, k)
	}
	c := retry.Default()
	if s.MaxAttempts != nil {
		if *s.MaxAttempts > maxRetryAttempts {
			return retry.Config{}, fmt.Errorf("%s.max_attempts: must be at most %d, got %d", field, maxRetryAttempts, *s.MaxAttempts)
		}
		c.MaxAttempts = *s.MaxAttempts
	}
	for _, d := range []struct {
		name string
		in   *float64
		out  *time.Duration
	}{{"initial_delay", s.InitialDelay, &c.InitialDelay}, {"max_delay", s.MaxDelay, &c.MaxDelay}} {
		if d.in == nil {
			continue
		}
		if math.IsNaN(*d.in) || *d.in < 0 || *d.in > maxRetryDelay.Seconds() {
			return retry.Config{}, fmt.Errorf("%s.%s: must be between 0 and %v seconds, got %v", field, d.name, maxRetryDelay.Seconds(), *d.in)
		}
		*d.out = time.Duration(*d.in * float64(time.Second))
	}
	if s.BackoffFactor != nil {
		c.BackoffFactor = *s.BackoffFactor
	}
	if s.Jitter != nil {
		c.Jitter = *s.Jitter
	}
	if s.Exceptions != nil {
		if len(s.Exceptions) > maxRetryExceptions {
			return retry.Config{}, fmt.Errorf("%s.exceptions: at most %d names, got %d", field, maxRetryExceptions, len(s.Exceptions))
		}
		for i, name := range s.Exceptions {
			if len(name) > maxExceptionName {
				return retry.Config{}, fmt.Errorf("%s.exceptions[%d]: longer than %d bytes", field, i, maxExceptionName)
			}
		}
		c.Exceptions = append([]string{}, s.Exceptions...)
	}
	if err := c.Validate(); err != nil {
		return retry.Config{}, fmt.Errorf("%s.%w", field, err)
	}
	return c, nil
}
