// Package retry repeats a failed operation with exponential backoff, as
// ADK 2.x's RetryConfig does for workflow nodes (workflow/_retry_config.py
// and utils/_retry_utils.py): attempt n (1-based) that fails is retried
// after initial_delay × backoff_factor^(n−1), capped at max_delay, moved by
// a uniform jitter of ±jitter × delay and floored at zero, until
// max_attempts attempts have run; an exception filter limits the retries to
// errors of the named classes. Model calls use it; so can any other step
// that is retried the same way.
package retry

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"
)

// Config is a retry policy, with ADK's RetryConfig fields. The zero value
// retries nothing; [Default] is ADK's policy for a RetryConfig whose fields
// are all unset. A Config is a value: safe to share.
type Config struct {
	// MaxAttempts counts the attempts, the first included; 0 or 1 means no
	// retry (max_attempts, ADK default 5).
	MaxAttempts int
	// InitialDelay is the wait after the first failed attempt
	// (initial_delay, ADK default 1s).
	InitialDelay time.Duration
	// MaxDelay caps the wait before jitter (max_delay, ADK default 60s).
	MaxDelay time.Duration
	// BackoffFactor multiplies the wait after each attempt (backoff_factor,
	// ADK default 2).
	BackoffFactor float64
	// Jitter moves each wait by a uniform amount within ±Jitter × wait; 0
	// means none (jitter, ADK default 1).
	Jitter float64
	// Exceptions, when not nil, retries only errors whose class name (see
	// [Env.Classify]) is listed (exceptions; nil retries every error).
	Exceptions []string
}

// Default returns ADK's policy for a RetryConfig with no field set: five
// attempts, 1s doubling up to 60s, full jitter, every error.
func Default() Config {
	return Config{MaxAttempts: 5, InitialDelay: time.Second, MaxDelay: time.Minute, BackoffFactor: 2, Jitter: 1}
}

// Validate reports the first field out of range, named as in YAML.
func (c Config) Validate() error {
	switch {
	case c.MaxAttempts < 0:
		return fmt.Errorf("max_attempts: must not be negative, got %d", c.MaxAttempts)
	case c.InitialDelay < 0:
		return fmt.Errorf("initial_delay: must not be negative, got %v", c.InitialDelay.Seconds())
	case c.MaxDelay < 0:
		return fmt.Errorf("max_delay: must not be negative, got %v", c.MaxDelay.Seconds())
	case c.BackoffFactor < 0 || math.IsNaN(c.BackoffFactor) || math.IsInf(c.BackoffFactor, 0):
		return fmt.Errorf("backoff_factor: must be a finite number, not negative, got %v", c.BackoffFactor)
	case c.Jitter < 0 || math.IsNaN(c.Jitter) || math.IsInf(c.Jitter, 0):
		return fmt.Errorf("jitter: must be a finite number, not negative, got %v", c.Jitter)
	}
	for i, name := range c.Exceptions {
		if name == "" {
			return fmt.Errorf("exceptions[%d]: must not be empty", i)
		}
	}
	return nil
}

// ShouldRetry reports whether attempt (1-based), failed with an error of
// class name, is retried: only while attempt < MaxAttempts, and only for a
// listed class when Exceptions is set (the exact class name, as ADK's
// _should_retry_node compares type(exception).__name__).
func (c Config) ShouldRetry(attempt int, class string) bool {
	if attempt >= c.MaxAttempts {
		return false
	}
	return c.Exceptions == nil || slices.Contains(c.Exceptions, class)
}

// Delay returns the wait after failed attempt (1-based), as ADK's
// _get_retry_delay computes it: InitialDelay × BackoffFactor^(attempt−1),
// capped at MaxDelay, plus uniform(−Jitter × d, Jitter × d) when Jitter is
// above zero, floored at zero. uniform(lo, hi) draws a number in [lo, hi]
// (Python's random.uniform); nil means math/rand/v2.
func (c Config) Delay(attempt int, uniform func(lo, hi float64) float64) time.Duration {
	d := c.InitialDelay.Seconds() * math.Pow(c.BackoffFactor, float64(max(0, attempt-1)))
	d = min(d, c.MaxDelay.Seconds())
	if c.Jitter > 0 {
		if uniform == nil {
			uniform = Uniform
		}
		d = max(0, d+uniform(-c.Jitter*d, c.Jitter*d))
	}
	if d >= math.MaxInt64/float64(time.Second) {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(d * float64(time.Second))
}

// Uniform draws a number in [lo, hi] from math/rand/v2, as Python's
// random.uniform: lo + (hi−lo) × random().
func Uniform(lo, hi float64) float64 { return lo + (hi-lo)*rand.Float64() }

// Env is what a retry loop needs from outside; zero fields take defaults.
type Env struct {
	// Classify names the class of an error, which [Config.Exceptions]
	// filters on. Default: every error is "Exception".
	Classify func(error) string
	// Sleep waits d or until ctx ends, returning ctx's error then. Default:
	// a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Uniform draws the jitter (see [Config.Delay]). Default: [Uniform].
	Uniform func(lo, hi float64) float64
	// OnRetry, when set, is told of each retry before its wait.
	OnRetry func(attempt int, delay time.Duration, err error)
}

// permanent marks an error that is never retried.
type permanent struct{ err error }

func (p *permanent) Error() string { return p.err.Error() }
func (p *permanent) Unwrap() error { return p.err }

// Permanent wraps err so that [Do] returns it at once, unwrapped: for a
// failure after part of the work was delivered (a stream that already
// yielded), which cannot be repeated.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanent{err}
}

// Do runs op, 1-based attempt by attempt, until it returns nil, returns an
// error c does not retry, or ctx ends during a wait (then ctx's error is
// returned). It returns op's last error.
func Do(ctx context.Context, c Config, env Env, op func(ctx context.Context, attempt int) error) error {
	for attempt := 1; ; attempt++ {
		err := op(ctx, attempt)
		if err == nil {
			return nil
		}
		if p := (*permanent)(nil); errors.As(err, &p) {
			return p.err
		}
		class := "Exception"
		if env.Classify != nil {
			class = env.Classify(err)
		}
		if !c.ShouldRetry(attempt, class) {
			return err
		}
		d := c.Delay(attempt, env.Uniform)
		if env.OnRetry != nil {
			env.OnRetry(attempt, d, err)
		}
		sleep := env.Sleep
		if sleep == nil {
			sleep = Sleep
		}
		if serr := sleep(ctx, d); serr != nil {
			return serr
		}
	}
}

// Sleep waits d or until ctx ends, returning ctx's error then.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type ctxKey struct{}

// NewContext returns ctx carrying c, the policy for the calls made under
// it (an agent's retry_config for its model calls).
func NewContext(ctx context.Context, c Config) context.Context {
	return context.WithValue(ctx, ctxKey{}, c)
}

// FromContext returns the policy [NewContext] put on ctx, if any.
func FromContext(ctx context.Context) (Config, bool) {
	c, ok := ctx.Value(ctxKey{}).(Config)
	return c, ok
}
