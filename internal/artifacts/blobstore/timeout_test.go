package blobstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
)

// TestOperationsAreBounded: an operation ends by the store's timeout,
// whatever the caller's context allows (memblob checks it when writing).
func TestOperationsAreBounded(t *testing.T) {
	store, err := blobstore.Open(t.Context(), "memory://", blobstore.WithTimeout(time.Nanosecond))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	time.Sleep(time.Millisecond)
	key := artifacts.Key{AppName: "a", UserID: "u", SessionID: "s", Filename: "f.txt"}
	if _, err := store.Save(t.Context(), key, &v1.Part{Text: "x"}, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Save past the timeout: %v", err)
	}
}
