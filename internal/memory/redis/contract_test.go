package redis

import (
	"testing"

	"github.com/agentsvc/agentsvc/internal/memory/memorytest"
)

func TestContract(t *testing.T) {
	t.Parallel()
	testURL(t, testRedisEnv)
	memorytest.Run(t, factory(testRedisEnv))
}

func TestClusterContract(t *testing.T) {
	t.Parallel()
	testURL(t, testClusterEnv)
	memorytest.Run(t, factory(testClusterEnv))
}
