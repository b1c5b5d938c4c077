package memory_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
	"github.com/agentsvc/agentsvc/internal/sessions/sessionstest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func newService(t *testing.T) sessions.Service {
	s := memory.New()
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestContract(t *testing.T) {
	t.Parallel()
	sessionstest.Run(t, newService)
}

func TestContractLimits(t *testing.T) {
	t.Parallel()
	sessionstest.RunLimits(t, func(t *testing.T, l sessions.Limits) sessions.Service {
		s := memory.New(memory.WithLimits(l))
		t.Cleanup(func() { _ = s.Close() })
		return s
	})
}
