package blobstore_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/artifactstest"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
)

// testS3Env names the variable that holds the test server's bucket URL.
const testS3Env = "AGENTSVC_TEST_S3"

// testS3URL returns the test bucket's URL. Without one the test skips,
// except in CI, where the S3 tests must run and the test fails instead.
func testS3URL(t testing.TB) string {
	t.Helper()
	url := os.Getenv(testS3Env)
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set; CI runs the S3 tests against a real server (scripts/with-s3.sh)", testS3Env)
		}
		t.Skipf("%s is not set; run under scripts/with-s3.sh", testS3Env)
	}
	return url
}

// s3Prefix returns the test bucket's URL with a key prefix of its own, so
// that tests run in parallel on one bucket, and removes the prefix's keys
// after the test.
func s3Prefix(t testing.TB) string {
	t.Helper()
	b := make([]byte, 6)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	prefix := "test-" + hex.EncodeToString(b) + "/"
	url := testS3URL(t) + "&prefix=" + prefix
	t.Cleanup(func() { dropPrefix(t, url) })
	return url
}

// dropPrefix deletes every blob of the bucket at url.
func dropPrefix(t testing.TB, url string) {
	// Cleanups run after t's context is cancelled.
	ctx := context.WithoutCancel(t.Context())
	bucket, err := blob.OpenBucket(ctx, url)
	if err != nil {
		t.Logf("deleting test keys: %v", err)
		return
	}
	defer bucket.Close()
	it := bucket.List(nil)
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Logf("deleting test keys: %v", err)
			return
		}
		if err := bucket.Delete(ctx, obj.Key); err != nil {
			t.Logf("deleting %s: %v", obj.Key, err)
		}
	}
}

func TestS3Contract(t *testing.T) {
	t.Parallel()
	testS3URL(t)
	artifactstest.Run(t, func(t *testing.T, l artifacts.Limits) artifacts.Service {
		return openStore(t, s3Prefix(t), blobstore.WithLimits(l))
	})
}

func TestS3SharedContract(t *testing.T) {
	t.Parallel()
	testS3URL(t)
	artifactstest.RunShared(t, func(t *testing.T, n int) []artifacts.Service {
		url := s3Prefix(t)
		svcs := make([]artifacts.Service, n)
		for i := range svcs {
			svcs[i] = openStore(t, url)
		}
		return svcs
	})
}

// TestS3ServerHonoursConditionalWrites checks what the store's version
// allocation relies on: the server refuses a write with If-None-Match: *
// to an existing key.
func TestS3ServerHonoursConditionalWrites(t *testing.T) {
	t.Parallel()
	bucket, err := blob.OpenBucket(t.Context(), s3Prefix(t))
	if err != nil {
		t.Fatal(err)
	}
	defer bucket.Close()
	opts := &blob.WriterOptions{ContentType: "text/plain", IfNotExist: true}
	if err := bucket.WriteAll(t.Context(), "k", []byte("first"), opts); err != nil {
		t.Fatal(err)
	}
	err = bucket.WriteAll(t.Context(), "k", []byte("second"), opts)
	if gcerrors.Code(err) != gcerrors.FailedPrecondition {
		t.Fatalf("second conditional write: %v, want FailedPrecondition", err)
	}
	got, err := bucket.ReadAll(t.Context(), "k")
	if err != nil || string(got) != "first" {
		t.Errorf("after the refused write: %q, %v; want %q", got, err, "first")
	}
}
