package blobstore

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"time"

	"gocloud.dev/blob"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// metaKey is the blob metadata entry that holds a version's [versionMeta].
const metaKey = "artifact"

// Kinds of part a version holds.
const (
	kindInline = "inline"
	kindText   = "text"
)

// Content types of blobs whose part gives none.
const (
	textContentType    = "text/plain; charset=utf-8"
	defaultContentType = "application/octet-stream"
	// textMimeType is the MIME type ADK reports for a text artifact.
	textMimeType = "text/plain"
)

// versionMeta is what a version's blob carries besides the body, stored as
// base64url-encoded JSON in one metadata entry: S3 allows metadata values
// of US-ASCII only, and base64url passes its escaping unchanged.
type versionMeta struct {
	Kind           string         `json:"kind"`
	MimeType       string         `json:"mimeType,omitempty"`
	DisplayName    string         `json:"displayName,omitempty"`
	CreateTime     time.Time      `json:"createTime"`
	CustomMetadata map[string]any `json:"customMetadata,omitempty"`

	// version is the version the blob holds, from its key.
	version int64
}

// encode returns the metadata entry's value, failing with
// [artifacts.ErrTooLarge] past [artifacts.MaxMetadataBytes].
func (m *versionMeta) encode() (string, error) {
	raw, err := json.Marshal(m)
	if err != nil {
		return "", &artifacts.InputError{Message: fmt.Sprintf("custom_metadata is not JSON: %v", err)}
	}
	if len(raw) > artifacts.MaxMetadataBytes {
		return "", fmt.Errorf("%w: the artifact's metadata (custom metadata, MIME type and display name) is %d bytes JSON-encoded, over the limit of %d bytes",
			artifacts.ErrTooLarge, len(raw), artifacts.MaxMetadataBytes)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// readMeta returns the metadata of a version from its blob's attributes. A
// blob that another program wrote, without the entry (or with one that does
// not decode), is read as inline data of its content type, with its other
// metadata as custom metadata, as ADK's GcsArtifactService reads blobs.
func (s *Store) readMeta(key string, attrs *blob.Attributes) versionMeta {
	if enc, ok := attrs.Metadata[metaKey]; ok {
		var m versionMeta
		raw, err := base64.RawURLEncoding.DecodeString(enc)
		if err == nil {
			err = json.Unmarshal(raw, &m)
		}
		if err == nil && (m.Kind == kindInline || m.Kind == kindText) {
			return m
		}
		s.log.Warn("artifact metadata does not decode; reading the blob as plain data", "key", key, "error", err)
	}
	m := versionMeta{Kind: kindInline, MimeType: attrs.ContentType, CreateTime: attrs.CreateTime}
	if m.CreateTime.IsZero() {
		m.CreateTime = attrs.ModTime
	}
	if len(attrs.Metadata) > 0 {
		m.CustomMetadata = make(map[string]any, len(attrs.Metadata))
		for k, v := range attrs.Metadata {
			if k != metaKey {
				m.CustomMetadata[k] = v
			}
		}
	}
	return m
}

// version builds the description of version v stored at key.
func (s *Store) version(v int64, key string, m versionMeta) artifacts.Version {
	custom, err := structpb.NewStruct(m.CustomMetadata)
	if err != nil {
		// JSON decoding yields only values a Struct holds.
		s.log.Warn("artifact custom metadata does not fit a Struct", "key", key, "error", err)
		custom = &structpb.Struct{}
	}
	mime := m.MimeType
	if m.Kind == kindText {
		mime = textMimeType
	}
	return artifacts.Version{
		Version:        v,
		CanonicalURI:   s.canonicalURI(key),
		CustomMetadata: custom,
		CreateTime:     m.CreateTime,
		MimeType:       mime,
	}
}
