// Package artifacts stores versioned artifacts with the semantics of ADK's
// BaseArtifactService (google.adk.artifacts, 1.x).
//
// An artifact is a [v1.Part] (inline_data or text) saved under a filename.
// Each save adds a version, counted from 0. A filename that starts with
// "user:" names an artifact of the user, shared by every session of the app
// and user (the session id is ignored); any other filename names an artifact
// of one session. The package holds the contract ([Service], [Key],
// [Version]), its errors and ADK's rules for names; the storage lives in
// internal/artifacts/blobstore, so that the engine can depend on this
// package without linking a blob store SDK.
package artifacts

import (
	"context"
	"strings"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// UserPrefix marks a filename as user-scoped, as in ADK.
const UserPrefix = "user:"

// Latest asks [Service.Load] and [Service.GetArtifactVersion] for the newest
// version.
const Latest int64 = -1

// Key names an artifact.
type Key struct {
	AppName string
	UserID  string
	// SessionID scopes a session artifact. It is ignored for user-scoped
	// filenames and required for every other one.
	SessionID string
	Filename  string
}

// UserScoped reports whether the key names an artifact of the user rather
// than of a session: its filename starts with [UserPrefix].
func (k Key) UserScoped() bool { return strings.HasPrefix(k.Filename, UserPrefix) }

// Version describes one stored version of an artifact: ADK's ArtifactVersion.
type Version struct {
	// Version counts saves from 0.
	Version int64
	// CanonicalURI locates the stored payload, for example
	// "memory://apps/a/users/u/sessions/s/artifacts/f/versions/0".
	CanonicalURI string
	// CustomMetadata is what the caller saved with the version; it is never
	// nil (empty when none was saved).
	CustomMetadata *structpb.Struct
	// CreateTime is when the version was saved.
	CreateTime time.Time
	// MimeType is the inline data's MIME type as saved (possibly empty), or
	// "text/plain" for a text artifact.
	MimeType string
}

// Service stores versioned artifacts. Implementations are safe for
// concurrent use; each documents how far concurrent saves of one filename
// are safe (every successful save returns a version no other save returned).
//
// Errors: invalid names and bodies wrap an [*InputError] (errors.Is
// [ErrInvalidInput]) carrying ADK's message; a missing artifact or version is
// [ErrNotFound] where ADK returns None; a body past the store's [Limits] is
// [ErrTooLarge]. Listing a missing artifact is not an error: it is empty.
type Service interface {
	// Save stores part as the next version of the artifact and returns that
	// version: 0 for the first save, then one more than the newest stored
	// version (ADK's save_artifact). The part must carry inline_data or a
	// non-empty text. customMetadata may be nil.
	Save(ctx context.Context, key Key, part *v1.Part, customMetadata *structpb.Struct) (int64, error)

	// Load returns a version of the artifact, or the newest with [Latest]
	// (ADK's load_artifact). A missing artifact or version, and a version
	// saved with empty inline data, fail with [ErrNotFound], where ADK
	// returns None.
	Load(ctx context.Context, key Key, version int64) (*v1.Part, error)

	// ListKeys returns the filenames of a session's artifacts together with
	// the user's "user:" ones, sorted (ADK's list_artifact_keys). With an
	// empty sessionID it returns only the user's.
	ListKeys(ctx context.Context, appName, userID, sessionID string) ([]string, error)

	// ListVersions returns the artifact's versions in ascending order, empty
	// when it has none (ADK's list_versions).
	ListVersions(ctx context.Context, key Key) ([]int64, error)

	// ListArtifactVersions returns the metadata of every version in
	// ascending order, empty when there is none (ADK's
	// list_artifact_versions).
	ListArtifactVersions(ctx context.Context, key Key) ([]Version, error)

	// GetArtifactVersion returns the metadata of one version, or of the
	// newest with [Latest], failing with [ErrNotFound] when it is missing
	// (ADK's get_artifact_version).
	GetArtifactVersion(ctx context.Context, key Key, version int64) (Version, error)

	// Delete removes every version of the artifact; deleting a missing
	// artifact is not an error (ADK's delete_artifact).
	Delete(ctx context.Context, key Key) error

	// Close releases the store's resources.
	Close() error
}
