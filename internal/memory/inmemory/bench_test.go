package inmemory_test

import (
	"testing"

	"github.com/agentsvc/agentsvc/internal/memory/memorytest"
)

func BenchmarkSearch(b *testing.B) {
	memorytest.BenchmarkSearch(b, newService)
}

func BenchmarkAddSession(b *testing.B) {
	memorytest.BenchmarkAddSession(b, newService)
}
