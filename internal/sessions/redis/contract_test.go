package redis

import (
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/sessionstest"
)

func TestContract(t *testing.T) {
	t.Parallel()
	testURL(t)
	sessionstest.Run(t, func(t *testing.T) sessions.Service {
		return newTestService(t, Options{})
	})
}

func TestContractWithTTL(t *testing.T) {
	t.Parallel()
	testURL(t)
	sessionstest.Run(t, func(t *testing.T) sessions.Service {
		return newTestService(t, Options{TTL: time.Hour})
	})
}

func TestContractLimits(t *testing.T) {
	t.Parallel()
	testURL(t)
	sessionstest.RunLimits(t, func(t *testing.T, l sessions.Limits) sessions.Service {
		return newTestService(t, Options{Limits: l})
	})
}
