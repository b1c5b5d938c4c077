package blobstore

import (
	"context"
	"fmt"
	"math/rand/v2"
	"mime"
	"time"

	"gocloud.dev/blob"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// maxSaveAttempts bounds the writes one save tries before it gives up with
// [artifacts.ErrConflict]: each failed attempt means another writer saved a
// version (or held its key) at that moment.
const maxSaveAttempts = 64

// Save stores part as the next version of the artifact; see
// [artifacts.Service.Save].
func (s *Store) Save(ctx context.Context, key artifacts.Key, part *v1.Part, customMetadata *structpb.Struct) (int64, error) {
	const op = "artifacts.save"
	ctx, cancel := s.bound(ctx)
	defer cancel()
	loc, err := locate(key)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	body, m, contentType, err := encodePart(part, customMetadata)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	// Refuse metadata past the limit before waiting for the lock; the
	// create time stored is taken again at the write.
	m.CreateTime = time.Now().UTC()
	if _, err := m.encode(); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	if err := s.limits.CheckSize(int64(len(body))); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	unlock, err := s.locks.lock(ctx, loc.prefix)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	defer unlock()

	versions, err := s.listVersions(ctx, loc)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	next := int64(0)
	if n := len(versions); n > 0 {
		next = versions[n-1] + 1
	}
	for attempt := 1; ; attempt++ {
		m.CreateTime = time.Now().UTC()
		enc, err := m.encode()
		if err != nil {
			return 0, fmt.Errorf("%s: %w", op, err)
		}
		err = s.write(ctx, loc.versionKey(next), body, &blob.WriterOptions{
			ContentType:                 contentType,
			DisableContentTypeDetection: true,
			Metadata:                    map[string]string{metaKey: enc},
			// The write fails when the version exists: another writer
			// saved it first.
			IfNotExist: true,
		})
		switch {
		case err == nil:
			return next, nil
		case attempt == maxSaveAttempts:
			return 0, fmt.Errorf("%s: %w: gave up after %d attempts, at version %d: %v", op, artifacts.ErrConflict, attempt, next, err)
		case versionTaken(err):
			s.log.DebugContext(ctx, "artifact version taken by another writer", "key", loc.versionKey(next))
			next++
		case writeInFlight(err):
			if err := sleep(ctx, backoff(attempt)); err != nil {
				return 0, fmt.Errorf("%s: %w", op, err)
			}
		default:
			return 0, fmt.Errorf("%s: write version %d: %w", op, next, err)
		}
	}
}

// write stores body at key in one Write, which lets memblob and fileblob
// take it without growing a buffer (bucket.Upload and WriteAll copy it or
// hash it).
func (s *Store) write(ctx context.Context, key string, body []byte, opts *blob.WriterOptions) error {
	w, err := s.bucket.NewWriter(ctx, key, opts)
	if err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		_ = w.Close()
		return err
	}
	return w.Close()
}

// encodePart returns the body to store for part, its metadata (less the
// create time) and the blob's content type.
func encodePart(part *v1.Part, custom *structpb.Struct) ([]byte, versionMeta, string, error) {
	if err := artifacts.ValidatePart(part); err != nil {
		return nil, versionMeta{}, "", err
	}
	var m versionMeta
	if custom != nil && len(custom.GetFields()) > 0 {
		m.CustomMetadata = custom.AsMap()
	}
	in := part.GetInlineData()
	if in == nil {
		m.Kind = kindText
		return []byte(part.GetText()), m, textContentType, nil
	}
	m.Kind, m.MimeType, m.DisplayName = kindInline, in.GetMimeType(), in.GetDisplayName()
	contentType := defaultContentType
	// The blob's content type is for other readers of the bucket; a MIME
	// type it cannot carry is kept in the metadata only.
	if _, _, err := mime.ParseMediaType(m.MimeType); err == nil {
		contentType = m.MimeType
	}
	return in.GetData(), m, contentType, nil
}

// backoff returns how long to wait before attempt+1 after a write that
// collided with one in flight: 5 ms doubling to 320 ms at most, with
// jitter.
func backoff(attempt int) time.Duration {
	d := 5 * time.Millisecond << min(attempt-1, 6)
	return d/2 + rand.N(d/2+1)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
