package redis

import (
	"testing"

	"github.com/agentsvc/agentsvc/internal/memory/memorytest"
)

func BenchmarkSearch(b *testing.B) {
	memorytest.BenchmarkSearch(b, factory(testRedisEnv))
}

func BenchmarkAddSession(b *testing.B) {
	memorytest.BenchmarkAddSession(b, factory(testRedisEnv))
}

func BenchmarkClusterSearch(b *testing.B) {
	memorytest.BenchmarkSearch(b, factory(testClusterEnv))
}
