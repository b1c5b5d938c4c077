package artifacts

import (
	"fmt"
	"math"
)

// Defaults of [Limits].
const (
	// DefaultMaxSize is the default cap on an artifact body, in bytes.
	DefaultMaxSize = 16 << 20
	// MaxFilenameBytes caps a filename (less any "user:" prefix) as a store
	// writes it: one path segment, within what file systems allow.
	MaxFilenameBytes = 255
	// MaxMetadataBytes caps a version's metadata (custom metadata, MIME type
	// and display name, JSON-encoded), so that it fits the user metadata
	// that S3 allows an object (2 KB).
	MaxMetadataBytes = 1024
)

// Limits bound what one save may store. The zero value applies the
// defaults.
type Limits struct {
	// MaxSize caps the body: inline_data's bytes or text's UTF-8 bytes.
	// Zero means [DefaultMaxSize]; negative means no cap.
	MaxSize int64
}

// Resolved returns l with a zero field set to the default and a negative one
// to no cap (the largest value).
func (l Limits) Resolved() Limits {
	switch {
	case l.MaxSize == 0:
		l.MaxSize = DefaultMaxSize
	case l.MaxSize < 0:
		l.MaxSize = math.MaxInt64
	}
	return l
}

// CheckSize returns an error wrapping [ErrTooLarge] when a body of size
// bytes is past l, which must be resolved.
func (l Limits) CheckSize(size int64) error {
	if size > l.MaxSize {
		return fmt.Errorf("%w: the artifact is %d bytes, over the limit of %d bytes", ErrTooLarge, size, l.MaxSize)
	}
	return nil
}
