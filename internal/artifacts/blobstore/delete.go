package blobstore

import (
	"context"
	"fmt"

	"gocloud.dev/gcerrors"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// Delete removes every version of the artifact; see
// [artifacts.Service.Delete].
func (s *Store) Delete(ctx context.Context, key artifacts.Key) error {
	const op = "artifacts.delete"
	ctx, cancel := s.bound(ctx)
	defer cancel()
	loc, err := locate(key)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	unlock, err := s.locks.lock(ctx, loc.prefix)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer unlock()
	versions, err := s.listVersions(ctx, loc)
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	// Newest first: were the delete cut short, the versions left are the
	// oldest, and the next save still numbers after them.
	for i := len(versions) - 1; i >= 0; i-- {
		err := s.bucket.Delete(ctx, loc.versionKey(versions[i]))
		if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return fmt.Errorf("%s: version %d: %w", op, versions[i], err)
		}
	}
	return nil
}
