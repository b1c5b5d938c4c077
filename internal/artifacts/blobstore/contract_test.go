package blobstore_test

import (
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/artifactstest"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
)

// closeOnCleanup closes s when the test ends.
func closeOnCleanup(t testing.TB, s *blobstore.Store) *blobstore.Store {
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return s
}

// openStore opens the store at url, failing the test on error.
func openStore(t testing.TB, url string, opts ...blobstore.Option) *blobstore.Store {
	t.Helper()
	s, err := blobstore.Open(t.Context(), url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return closeOnCleanup(t, s)
}

func TestMemoryContract(t *testing.T) {
	t.Parallel()
	artifactstest.Run(t, func(t *testing.T, l artifacts.Limits) artifacts.Service {
		return openStore(t, "memory://", blobstore.WithLimits(l))
	})
}

func TestMemorySharedContract(t *testing.T) {
	t.Parallel()
	artifactstest.RunShared(t, func(t *testing.T, n int) []artifacts.Service {
		shared := memblob.OpenBucket(nil)
		svcs := make([]artifacts.Service, n)
		for i := range svcs {
			// Stores of their own over one bucket, as processes over one
			// store: no lock in common.
			svcs[i] = closeOnCleanup(t, blobstore.New(blob.PrefixedBucket(shared, ""), "memory://"))
		}
		return svcs
	})
}

func TestFileContract(t *testing.T) {
	t.Parallel()
	artifactstest.Run(t, func(t *testing.T, l artifacts.Limits) artifacts.Service {
		return openStore(t, "file://"+t.TempDir(), blobstore.WithLimits(l))
	})
	// Not RunShared: fileblob's conditional write is not atomic across
	// stores (see the package documentation).
}
