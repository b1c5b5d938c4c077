package server

import (
	"log/slog"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/limits"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// TestNewSettings checks what a server runs with for a Config left zero,
// one with negative values and one with every value set.
func TestNewSettings(t *testing.T) {
	t.Parallel()
	log := slog.New(slog.DiscardHandler)
	defaults := settings{
		log:                     slog.Default(),
		leaseTTL:                DefaultLeaseTTL,
		busyWait:                DefaultSessionBusyWait,
		toolTimeout:             tools.DefaultClientToolTimeout,
		maxInvocationTime:       DefaultMaxInvocationTime,
		connectStart:            DefaultConnectStartTimeout,
		maxConnectStreams:       DefaultMaxConnectStreams,
		maxDepth:                limits.DefaultMaxDepth,
		maxResponseBytes:        DefaultMaxResponseBytes,
		pageBytes:               DefaultPageBytes,
		maxInflightRequestBytes: DefaultMaxInflightRequestBytes,
	}
	// but is defaults changed by f.
	but := func(f func(*settings)) settings {
		s := defaults
		f(&s)
		return s
	}
	tests := []struct {
		name string
		cfg  Config
		want settings
	}{
		{name: "zero", cfg: Config{}, want: defaults},
		{
			name: "negative",
			cfg: Config{
				LeaseTTL: -1, SessionBusyWait: -1, MaxInvocationTime: -1,
				ConnectStartTimeout: -1, MaxConnectStreams: -1, MaxDepth: -1,
				MaxResponseBytes: -1, PageBytes: -1, MaxInflightRequestBytes: -1,
				MaxConcurrentInvocationsPerUser: -1, UserRate: -1, UserBurst: -1,
				MaxSessionsPerUser: -1,
			},
			// Bounds that a negative value turns off are zero; the others
			// take their defaults.
			want: but(func(s *settings) { s.busyWait, s.maxConnectStreams, s.maxInflightRequestBytes = 0, 0, 0 }),
		},
		{
			// A negative ToolTimeout is kept: the client's tool calls
			// apply their own default to it, its callbacks, code and
			// nodes time out at once.
			name: "negative tool timeout",
			cfg:  Config{ToolTimeout: -time.Second},
			want: but(func(s *settings) { s.toolTimeout = -time.Second }),
		},
		{name: "NaN rate", cfg: Config{UserRate: math.NaN(), UserBurst: 5}, want: defaults},
		{
			name: "rate without burst",
			cfg:  Config{UserRate: 2.5},
			want: but(func(s *settings) { s.userRate, s.userBurst = 2.5, 3 }),
		},
		{
			name: "rate below one without burst",
			cfg:  Config{UserRate: 0.1},
			want: but(func(s *settings) { s.userRate, s.userBurst = 0.1, 1 }),
		},
		{
			name: "burst without rate",
			cfg:  Config{UserBurst: 5},
			want: defaults,
		},
		{
			name: "explicit",
			cfg: Config{
				Logger: log, LeaseTTL: 3 * time.Second, SessionBusyWait: time.Second,
				ToolTimeout: 7 * time.Second, MaxInvocationTime: time.Minute,
				ConnectStartTimeout: 2 * time.Second, MaxConnectStreams: 5, MaxDepth: 9,
				MaxResponseBytes: 1000, PageBytes: 100, MaxInflightRequestBytes: 1 << 20,
				MaxConcurrentInvocationsPerUser: 4, UserRate: 10, UserBurst: 20,
				MaxSessionsPerUser: 50,
			},
			want: settings{
				log: log, leaseTTL: 3 * time.Second, busyWait: time.Second,
				toolTimeout: 7 * time.Second, maxInvocationTime: time.Minute,
				connectStart: 2 * time.Second, maxConnectStreams: 5, maxDepth: 9,
				maxResponseBytes: 1000, pageBytes: 100, maxInflightRequestBytes: 1 << 20,
				maxInvocationsPerUser: 4, userRate: 10, userBurst: 20,
				maxSessionsPerUser: 50,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := newSettings(tc.cfg)
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(settings{}), cmp.Comparer(func(a, b *slog.Logger) bool { return a == b })); diff != "" {
				t.Errorf("newSettings(%+v) mismatch (-want +got):\n%s", tc.cfg, diff)
			}
		})
	}
}

// TestNewAppliesSettings checks that a server runs with its settings, and
// builds its budget, rate limiter and invocation cap from them.
func TestNewAppliesSettings(t *testing.T) {
	t.Parallel()
	s := New(Config{})
	if s.budget == nil || s.budget.capacity != DefaultMaxInflightRequestBytes {
		t.Errorf("default request budget = %+v, want %d bytes", s.budget, DefaultMaxInflightRequestBytes)
	}
	if s.userRate != nil || s.invocations.maxPerUser != 0 || s.maxSessionsPerUser != 0 {
		t.Error("a Config without per-user limits has some")
	}
	s = New(Config{MaxInflightRequestBytes: -1, UserRate: 2.5, MaxConcurrentInvocationsPerUser: 3})
	if s.budget != nil {
		t.Error("a negative MaxInflightRequestBytes left a request budget")
	}
	if s.userRate == nil || s.userRate.burst != 3 || s.invocations.maxPerUser != 3 {
		t.Errorf("per-user limits: rate %+v, invocations %d", s.userRate, s.invocations.maxPerUser)
	}
}
