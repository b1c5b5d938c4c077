package blobstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"gocloud.dev/blob"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// ListKeys returns the filenames of a session's and its user's artifacts;
// see [artifacts.Service.ListKeys].
func (s *Store) ListKeys(ctx context.Context, appName, userID, sessionID string) ([]string, error) {
	const op = "artifacts.list_keys"
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := artifacts.ValidateScope(appName, userID, sessionID); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	var names []string
	if sessionID != "" {
		prefix, err := scopePrefix(appName, userID, sessionID, false)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		if names, err = s.listNames(ctx, prefix, "", names); err != nil {
			return nil, fmt.Errorf("%s: %w", op, err)
		}
	}
	prefix, err := scopePrefix(appName, userID, "", true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if names, err = s.listNames(ctx, prefix, artifacts.UserPrefix, names); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	slices.Sort(names)
	return names, nil
}

// listNames appends to names, each after namePrefix, the names of the
// artifacts under a scope prefix that have a version. Keys that no save
// wrote, such as fileblob's temporary files, are skipped.
func (s *Store) listNames(ctx context.Context, prefix, namePrefix string, names []string) ([]string, error) {
	seen := map[string]bool{}
	err := s.list(ctx, prefix, func(key string) {
		name, _, ok := parseArtifactKey(key[len(prefix):])
		if ok && !seen[name] {
			seen[name] = true
			names = append(names, namePrefix+name)
		}
	})
	return names, err
}

// ListVersions returns the artifact's versions in ascending order; see
// [artifacts.Service.ListVersions].
func (s *Store) ListVersions(ctx context.Context, key artifacts.Key) ([]int64, error) {
	const op = "artifacts.list_versions"
	ctx, cancel := s.bound(ctx)
	defer cancel()
	loc, err := locate(key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	versions, err := s.listVersions(ctx, loc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	return versions, nil
}

// ListArtifactVersions returns the metadata of every version; see
// [artifacts.Service.ListArtifactVersions].
func (s *Store) ListArtifactVersions(ctx context.Context, key artifacts.Key) ([]artifacts.Version, error) {
	const op = "artifacts.list_artifact_versions"
	ctx, cancel := s.bound(ctx)
	defer cancel()
	loc, err := locate(key)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	versions, err := s.listVersions(ctx, loc)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	out := make([]artifacts.Version, 0, len(versions))
	for _, v := range versions {
		blobKey, m, err := s.resolve(ctx, loc, v)
		switch {
		case errors.Is(err, artifacts.ErrNotFound):
			continue // deleted since the listing
		case err != nil:
			return nil, fmt.Errorf("%s: %w", op, err)
		}
		out = append(out, s.version(v, blobKey, m))
	}
	return out, nil
}

// listVersions returns the versions stored at loc in ascending order.
func (s *Store) listVersions(ctx context.Context, loc location) ([]int64, error) {
	var versions []int64
	err := s.list(ctx, loc.prefix, func(key string) {
		if v, ok := parseVersion(key[len(loc.prefix):]); ok {
			versions = append(versions, v)
		}
	})
	if err != nil {
		return nil, err
	}
	// Keys list in byte order: "10" before "9".
	slices.Sort(versions)
	return versions, nil
}

// list calls f with the key of every blob under prefix.
func (s *Store) list(ctx context.Context, prefix string, f func(key string)) error {
	it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
	for {
		obj, err := it.Next(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("list %s: %w", prefix, err)
		}
		if !obj.IsDir {
			f(obj.Key)
		}
	}
}
