// Package blobstore is the artifact store: one implementation of
// [artifacts.Service] over gocloud.dev/blob, for every bucket that library
// opens — memory:// (memblob), file:///dir (fileblob), s3://bucket (s3blob,
// also for S3-compatible servers) and gs://bucket (gcsblob).
//
// # Layout
//
// Version v of an artifact is one blob holding the body's bytes, at
//
//	apps/{app}/users/{user}/sessions/{session}/artifacts/{filename}/versions/{v}
//	apps/{app}/users/{user}/artifacts/{name}/versions/{v}   ("user:{name}")
//
// the tree of ADK's FileArtifactService and of the canonical URIs of its
// InMemoryArtifactService. Each id and filename is one path segment: '%',
// '/' and '\' are percent-encoded, so "a/b" is an artifact of its own, never
// one nested under "a", and no name reaches outside its scope. The blob's
// content type is the MIME type; the kind of part, the MIME type as saved,
// the display name, the create time and the custom metadata ride in one
// blob metadata entry. Blobs are never rewritten, so a reader sees a version
// whole or not at all.
//
// # Concurrent saves
//
// A save lists the artifact's versions and writes the next one with a
// conditional write that fails when the blob exists (WriterOptions.IfNotExist:
// S3's If-None-Match: *, GCS's DoesNotExist precondition, memblob's check
// under its lock), moving on to the next number when it loses. Saves of one
// artifact through one [Store] are also serialised in process. So:
//
//   - memory://, s3:// and gs://: concurrent saves, from any number of
//     Stores and processes, each get a distinct version and none is lost
//     (for S3-compatible servers, as far as they honour If-None-Match).
//   - file://: concurrent saves through one Store are safe. fileblob checks
//     for an existing file and then renames over it, which is not atomic, so
//     two processes (or two Stores) saving the same artifact in the same
//     directory at the same moment can lose a version.
//
// Delete removes the versions it lists; a save racing a delete of the same
// artifact in another process may leave its version behind.
package blobstore

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"gocloud.dev/blob"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

var _ artifacts.Service = (*Store)(nil)

// Store is an [artifacts.Service] on a gocloud.dev/blob bucket. It is safe
// for concurrent use; see the package documentation for what concurrent
// saves guarantee on each kind of bucket.
type Store struct {
	bucket  *blob.Bucket
	base    string
	limits  artifacts.Limits
	log     *slog.Logger
	locks   keyLocks
	timeout time.Duration
}

// DefaultTimeout bounds each operation of a Store (all its requests to the
// bucket) unless [WithTimeout] says otherwise.
const DefaultTimeout = 30 * time.Second

// WithTimeout bounds each operation; zero or less keeps [DefaultTimeout].
func WithTimeout(d time.Duration) Option {
	return optionFunc(func(s *Store) {
		if d > 0 {
			s.timeout = d
		}
	})
}

// bound is an operation's context: the caller's, ended after the timeout.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// Option configures a [Store].
type Option interface{ apply(*Store) }

type optionFunc func(*Store)

func (f optionFunc) apply(s *Store) { f(s) }

// WithLimits bounds what one save may store; the default is the zero
// [artifacts.Limits] (16 MiB bodies).
func WithLimits(l artifacts.Limits) Option {
	return optionFunc(func(s *Store) { s.limits = l.Resolved() })
}

// WithLogger sets the logger; the default is slog.Default().
func WithLogger(l *slog.Logger) Option {
	return optionFunc(func(s *Store) { s.log = l })
}

// New returns a Store on bucket, which it owns: Close closes it. base
// prefixes the canonical URIs of versions (for example "s3://bucket/"); it
// should name where the bucket's keys start.
func New(bucket *blob.Bucket, base string, opts ...Option) *Store {
	s := &Store{
		bucket:  bucket,
		base:    base,
		limits:  artifacts.Limits{}.Resolved(),
		log:     slog.Default(),
		timeout: DefaultTimeout,
	}
	for _, o := range opts {
		o.apply(s)
	}
	return s
}

// Close closes the bucket.
func (s *Store) Close() error {
	if err := s.bucket.Close(); err != nil {
		return fmt.Errorf("artifacts.close: %w", err)
	}
	return nil
}
