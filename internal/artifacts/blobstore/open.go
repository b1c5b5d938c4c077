package blobstore

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"gocloud.dev/blob"
	// The bucket kinds Open knows, by URL scheme.
	_ "gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/gcsblob"
	"gocloud.dev/blob/memblob"
	_ "gocloud.dev/blob/s3blob"
)

// Open opens the Store at rawURL:
//
//   - memory:// — in the process, empty at start (memblob; mem:// works
//     too).
//   - file:///dir — under a directory, created when missing (fileblob; the
//     URL's create_dir and no_tmp_dir default to set, so that a write never
//     renames across file systems).
//   - s3://bucket?region=R — S3; for an S3-compatible server add
//     endpoint=http://host:port and use_path_style=true (s3blob). Credentials
//     come from the AWS SDK's usual sources, such as AWS_ACCESS_KEY_ID and
//     AWS_SECRET_ACCESS_KEY.
//   - gs://bucket — Google Cloud Storage with Application Default
//     Credentials (gcsblob).
//
// Any of them takes prefix=p/ to keep the artifacts under a key prefix. The
// other query parameters are gocloud.dev's for that scheme.
func Open(ctx context.Context, rawURL string, opts ...Option) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("artifacts.open: %w", err)
	}
	if u.Scheme == "file" {
		q := u.Query()
		for _, p := range []string{"create_dir", "no_tmp_dir"} {
			if !q.Has(p) {
				q.Set(p, "true")
			}
		}
		u.RawQuery = q.Encode()
	}
	open := *u
	if u.Scheme == "memory" {
		open.Scheme = memblob.Scheme // "mem"
	}
	bucket, err := blob.OpenBucket(ctx, open.String())
	if err != nil {
		return nil, fmt.Errorf("artifacts.open %s://: %w", u.Scheme, err)
	}
	return New(bucket, canonicalBase(u), opts...), nil
}

// canonicalBase returns what prefixes the keys of the bucket at u in the
// canonical URIs of versions: the URL less its query, with the key prefix.
func canonicalBase(u *url.URL) string {
	base := u.Scheme + "://"
	switch u.Scheme {
	case "memory":
	case "file":
		base += strings.TrimSuffix(u.EscapedPath(), "/") + "/"
	default:
		base += u.Host + "/"
	}
	if p := u.Query().Get("prefix"); p != "" {
		base += (&url.URL{Path: p}).EscapedPath()
	}
	return base
}
