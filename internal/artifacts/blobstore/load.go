package blobstore

import (
	"context"
	"fmt"
	"io"

	"gocloud.dev/gcerrors"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// Load returns a version of the artifact; see [artifacts.Service.Load].
func (s *Store) Load(ctx context.Context, key artifacts.Key, version int64) (*v1.Part, error) {
	const op = "artifacts.load"
	ctx, cancel := s.bound(ctx)
	defer cancel()
	loc, err := locate(key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	blobKey, m, err := s.resolve(ctx, loc, version)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	data, err := s.read(ctx, blobKey)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	// ADK returns None for a version saved with empty data.
	if len(data) == 0 {
		return nil, fmt.Errorf("%s: %w: the version is empty", op, artifacts.ErrNotFound)
	}
	if m.Kind == kindText {
		return &v1.Part{Text: string(data)}, nil
	}
	return &v1.Part{InlineData: &v1.Blob{MimeType: m.MimeType, Data: data, DisplayName: m.DisplayName}}, nil
}

// read returns the body of the blob at key, read into a buffer of its size.
func (s *Store) read(ctx context.Context, key string) ([]byte, error) {
	r, err := s.bucket.NewReader(ctx, key, nil)
	if err != nil {
		return nil, notFound(err)
	}
	defer r.Close()
	data := make([]byte, r.Size())
	if _, err := io.ReadFull(r, data); err != nil {
		return nil, fmt.Errorf("read %d bytes: %w", len(data), err)
	}
	return data, nil
}

// GetArtifactVersion returns the metadata of a version; see
// [artifacts.Service.GetArtifactVersion].
func (s *Store) GetArtifactVersion(ctx context.Context, key artifacts.Key, version int64) (artifacts.Version, error) {
	const op = "artifacts.get_version"
	ctx, cancel := s.bound(ctx)
	defer cancel()
	loc, err := locate(key)
	if err != nil {
		return artifacts.Version{}, fmt.Errorf("%s: %w", op, err)
	}
	blobKey, m, err := s.resolve(ctx, loc, version)
	if err != nil {
		return artifacts.Version{}, fmt.Errorf("%s: %w", op, err)
	}
	return s.version(m.version, blobKey, m), nil
}

// resolve returns the key and metadata of a version, the newest with
// [artifacts.Latest], failing with [artifacts.ErrNotFound] when it is
// missing.
func (s *Store) resolve(ctx context.Context, loc location, version int64) (string, versionMeta, error) {
	if version == artifacts.Latest {
		v, err := s.latest(ctx, loc)
		if err != nil {
			return "", versionMeta{}, err
		}
		version = v
	}
	if version < 0 {
		return "", versionMeta{}, fmt.Errorf("%w: version %d", artifacts.ErrNotFound, version)
	}
	blobKey := loc.versionKey(version)
	attrs, err := s.bucket.Attributes(ctx, blobKey)
	if err != nil {
		return "", versionMeta{}, notFound(err)
	}
	m := s.readMeta(blobKey, attrs)
	m.version = version
	return blobKey, m, nil
}

// latest returns the newest version, failing with [artifacts.ErrNotFound]
// when there is none.
func (s *Store) latest(ctx context.Context, loc location) (int64, error) {
	versions, err := s.listVersions(ctx, loc)
	if err != nil {
		return 0, err
	}
	if len(versions) == 0 {
		return 0, fmt.Errorf("%w: no versions", artifacts.ErrNotFound)
	}
	return versions[len(versions)-1], nil
}

// notFound returns err wrapping [artifacts.ErrNotFound] when the bucket
// reports a missing blob, and err otherwise.
func notFound(err error) error {
	if gcerrors.Code(err) == gcerrors.NotFound {
		return fmt.Errorf("%w: %v", artifacts.ErrNotFound, err)
	}
	return err
}
