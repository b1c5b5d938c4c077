package inmemory_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/memory/inmemory"
	"github.com/agentsvc/agentsvc/internal/memory/memorytest"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

func newService(tb testing.TB, l memory.Limits) memory.Service {
	s := inmemory.New(inmemory.WithLimits(l))
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("Close: %v", err)
		}
	})
	return s
}

func TestContract(t *testing.T) {
	t.Parallel()
	memorytest.Run(t, newService)
}
