package retry_test

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/retry"
)

// pythonSeed42 are the first draws of Python's random.random() after
// random.seed(42).
var pythonSeed42 = []float64{0.6394267984578837, 0.025010755222666936, 0.27502931836911926, 0.22321073814882275, 0.7364712141640124}

// draws returns a uniform(lo, hi) that replays rs as Python's
// random.uniform does: lo + (hi-lo) × random().
func draws(rs []float64) func(lo, hi float64) float64 {
	i := 0
	return func(lo, hi float64) float64 {
		r := rs[i]
		i++
		return lo + (hi-lo)*r
	}
}

// TestBehaviorRetryDelaySeed42 replays the seed's example (RetryConfig
// defaults, random.seed(42), attempts 1 to 5) through the formula. google-adk
// 2.13.0's _get_retry_delay, seeded so, gives exactly these delays; the
// example output printed in the seed (0.63, 2.17, 5.94, 14.23, 43.85) cannot
// come from the formula it states: attempt 5's delay is at most 2 × 16s.
func TestBehaviorRetryDelaySeed42(t *testing.T) {
	t.Parallel()
	c := retry.Default()
	uniform := draws(pythonSeed42)
	want := []float64{1.2788535969157675, 0.10004302089066774, 2.200234546952954, 3.571371810381164, 23.567078853248397}
	for i, w := range want {
		got := c.Delay(i+1, uniform).Seconds()
		if math.Abs(got-w) > 1e-9 {
			t.Errorf("attempt %d: delay %v, want %v", i+1, got, w)
		}
	}
	if top := c.Delay(5, func(_, hi float64) float64 { return hi }); top != 32*time.Second {
		t.Errorf("attempt 5's longest delay = %v, want 32s", top)
	}
}

func TestBehaviorRetryDelay(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       retry.Config
		attempt int
		draw    float64 // random() in [0, 1)
		want    time.Duration
	}{
		{"first failure waits the initial delay", retry.Config{InitialDelay: time.Second, MaxDelay: time.Minute, BackoffFactor: 2}, 1, 0, time.Second},
		{"exponent is attempt-1", retry.Config{InitialDelay: time.Second, MaxDelay: time.Minute, BackoffFactor: 3}, 3, 0, 9 * time.Second},
		{"capped before jitter", retry.Config{InitialDelay: time.Second, MaxDelay: 5 * time.Second, BackoffFactor: 2, Jitter: 1}, 10, 1, 10 * time.Second},
		{"jitter low end floors at zero", retry.Config{InitialDelay: time.Second, MaxDelay: time.Minute, BackoffFactor: 2, Jitter: 2}, 1, 0, 0},
		{"jitter middle keeps the delay", retry.Config{InitialDelay: 2 * time.Second, MaxDelay: time.Minute, BackoffFactor: 2, Jitter: 0.5}, 2, 0.5, 4 * time.Second},
		{"attempt 0 counts as 1", retry.Config{InitialDelay: time.Second, MaxDelay: time.Minute, BackoffFactor: 2}, 0, 0, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.c.Delay(tt.attempt, draws([]float64{tt.draw})); got != tt.want {
				t.Errorf("Delay = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestBehaviorShouldRetry follows _should_retry_node: attempt_count is
// 1-based, retries stop once it reaches max_attempts, and the filter names
// exact classes.
func TestBehaviorShouldRetry(t *testing.T) {
	t.Parallel()
	c := retry.Config{MaxAttempts: 3, Exceptions: []string{"ValueError", "TimeoutError"}}
	tests := []struct {
		attempt int
		class   string
		want    bool
	}{
		{1, "ValueError", true},
		{2, "TimeoutError", true},
		{3, "ValueError", false},
		{1, "RuntimeError", false},
	}
	for _, tt := range tests {
		if got := c.ShouldRetry(tt.attempt, tt.class); got != tt.want {
			t.Errorf("ShouldRetry(%d, %s) = %v, want %v", tt.attempt, tt.class, got, tt.want)
		}
	}
	if (retry.Config{MaxAttempts: 1}).ShouldRetry(1, "X") || (retry.Config{}).ShouldRetry(1, "X") {
		t.Error("max_attempts 0 or 1 retried")
	}
	if !retry.Default().ShouldRetry(4, "AnyError") || retry.Default().ShouldRetry(5, "AnyError") {
		t.Error("the default policy does not make five attempts at any error")
	}
}

// TestDoWaitsAsTheFormulaSays runs the loop with a recording sleep: the
// waits are the formula's, and the last error comes back after
// max_attempts attempts.
func TestDoWaitsAsTheFormulaSays(t *testing.T) {
	t.Parallel()
	var waits []time.Duration
	env := retry.Env{
		Sleep:   func(_ context.Context, d time.Duration) error { waits = append(waits, d); return nil },
		Uniform: draws(pythonSeed42),
	}
	boom := errors.New("boom")
	calls := 0
	err := retry.Do(t.Context(), retry.Default(), env, func(context.Context, int) error { calls++; return boom })
	if !errors.Is(err, boom) || calls != 5 {
		t.Fatalf("Do = %v after %d calls, want boom after 5", err, calls)
	}
	want := []time.Duration{1278853596, 100043020, 2200234546, 3571371810}
	if d := cmp.Diff(want, waits); d != "" {
		t.Errorf("waits (-want +got):\n%s", d)
	}
}

func TestDoStops(t *testing.T) {
	t.Parallel()
	noSleep := func(context.Context, time.Duration) error { return nil }
	filtered := retry.Config{MaxAttempts: 5, Exceptions: []string{"ServerError"}}
	classify := func(err error) string { return err.Error() }
	tests := []struct {
		name      string
		c         retry.Config
		errs      []error
		wantCalls int
		wantErr   string
	}{
		{"success after retries", filtered, []error{errors.New("ServerError"), errors.New("ServerError"), nil}, 3, ""},
		{"unlisted class", filtered, []error{errors.New("ClientError")}, 1, "ClientError"},
		{"permanent", retry.Default(), []error{retry.Permanent(errors.New("ServerError"))}, 1, "ServerError"},
		{"no retries", retry.Config{MaxAttempts: 1}, []error{errors.New("ServerError")}, 1, "ServerError"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			calls := 0
			err := retry.Do(t.Context(), tt.c, retry.Env{Classify: classify, Sleep: noSleep}, func(_ context.Context, attempt int) error {
				calls++
				if attempt != calls {
					t.Errorf("attempt %d on call %d", attempt, calls)
				}
				return tt.errs[calls-1]
			})
			gotErr := ""
			if err != nil {
				gotErr = err.Error()
			}
			if calls != tt.wantCalls || gotErr != tt.wantErr {
				t.Errorf("Do = %q after %d calls, want %q after %d", gotErr, calls, tt.wantErr, tt.wantCalls)
			}
		})
	}
}

func TestDoEndsWithTheContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := retry.Do(ctx, retry.Default(), retry.Env{}, func(context.Context, int) error { return errors.New("x") })
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Do = %v, want context.Canceled", err)
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []retry.Config{{MaxAttempts: -1}, {InitialDelay: -1}, {MaxDelay: -1}, {BackoffFactor: math.NaN()},
		{Jitter: -0.5}, {Exceptions: []string{""}}} {
		if c.Validate() == nil {
			t.Errorf("Validate(%+v) = nil", c)
		}
	}
	if err := retry.Default().Validate(); err != nil {
		t.Errorf("Validate(Default()) = %v", err)
	}
}

func TestContext(t *testing.T) {
	t.Parallel()
	if _, ok := retry.FromContext(context.Background()); ok {
		t.Error("a bare context carries a policy")
	}
	c := retry.Config{MaxAttempts: 2}
	if got, ok := retry.FromContext(retry.NewContext(context.Background(), c)); !ok || got.MaxAttempts != 2 {
		t.Errorf("FromContext = %+v, %v", got, ok)
	}
}

func BenchmarkDelay(b *testing.B) {
	c := retry.Default()
	for i := 0; b.Loop(); i++ {
		_ = c.Delay(i%8+1, nil)
	}
}
