package blobstore

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// maxKeyBytes is S3's limit on an object key.
const maxKeyBytes = 1024

// location is where an artifact's versions live.
type location struct {
	// prefix is the key of the versions folder, ending in "/".
	prefix string
}

// versionKey returns the key of version v.
func (l location) versionKey(v int64) string {
	return l.prefix + strconv.FormatInt(v, 10)
}

// locate validates key and returns where its versions live.
func locate(key artifacts.Key) (location, error) {
	if err := artifacts.ValidateKey(key); err != nil {
		return location{}, err
	}
	scope, err := scopePrefix(key.AppName, key.UserID, key.SessionID, key.UserScoped())
	if err != nil {
		return location{}, err
	}
	name := strings.TrimPrefix(key.Filename, artifacts.UserPrefix)
	seg, err := segment(name, "Artifact filename", key.Filename)
	if err != nil {
		return location{}, err
	}
	loc := location{prefix: scope + seg + "/versions/"}
	// The longest version number has 19 digits.
	if n := len(loc.prefix) + 19; n > maxKeyBytes {
		return location{}, &artifacts.InputError{Message: fmt.Sprintf(
			"The artifact's storage key would be %d bytes, over the limit of %d; use shorter ids or a shorter filename.", n, maxKeyBytes)}
	}
	return loc, nil
}

// scopePrefix returns the key prefix, ending in "/", of the artifacts of a
// session, or of the user's when user is set. The ids must be valid.
func scopePrefix(app, userID, session string, user bool) (string, error) {
	appSeg, err := segment(app, "app_name", app)
	if err != nil {
		return "", err
	}
	userSeg, err := segment(userID, "user_id", userID)
	if err != nil {
		return "", err
	}
	prefix := "apps/" + appSeg + "/users/" + userSeg + "/"
	if user {
		return prefix + "artifacts/", nil
	}
	sessionSeg, err := segment(session, "session_id", session)
	if err != nil {
		return "", err
	}
	return prefix + "sessions/" + sessionSeg + "/artifacts/", nil
}

// segment encodes s as one path segment with [artifacts.EscapeSegment]. It
// fails when the result is longer than [artifacts.MaxFilenameBytes]; field
// and original name the value in the message.
func segment(s, field, original string) (string, error) {
	seg := artifacts.EscapeSegment(s)
	if len(seg) > artifacts.MaxFilenameBytes {
		return "", &artifacts.InputError{Message: fmt.Sprintf(
			"%s %q is too long: %d bytes as stored (each '%%', '/', '\\' and control character counts three), over the limit of %d.",
			field, original, len(seg), artifacts.MaxFilenameBytes)}
	}
	return seg, nil
}

// unsegment reverses segment; ok is false for a segment it cannot have made.
func unsegment(seg string) (string, bool) {
	s, err := url.PathUnescape(seg)
	if err != nil || s == "" {
		return "", false
	}
	return s, true
}

// parseVersion returns the version that a key under a versions folder names:
// rest is the key less the folder's prefix. ok is false for anything but a
// canonical decimal number, such as another writer's temporary file.
func parseVersion(rest string) (int64, bool) {
	if rest == "" || len(rest) > 19 || (rest[0] == '0' && len(rest) > 1) {
		return 0, false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(rest, 10, 64)
	return v, err == nil
}

// parseArtifactKey splits a key under a scope prefix, less that prefix, into
// the stored name and version: "{segment}/versions/{v}".
func parseArtifactKey(rest string) (name string, v int64, ok bool) {
	seg, tail, found := strings.Cut(rest, "/versions/")
	if !found || strings.Contains(seg, "/") {
		return "", 0, false
	}
	if v, ok = parseVersion(tail); !ok {
		return "", 0, false
	}
	name, ok = unsegment(seg)
	return name, v, ok
}

// canonicalURI returns the URI of the blob at key.
func (s *Store) canonicalURI(key string) string {
	return s.base + (&url.URL{Path: key}).EscapedPath()
}
