package plugins

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// newSaveFilesAsArtifacts is ADK's SaveFilesAsArtifactsPlugin: each
// inline_data part of the user's message is saved as an artifact, named by
// its display_name ("user:" names are the user's, others the session's) or
// "artifact_<invocation id>_<part index>", and stands in the stored message
// as the text [Uploaded Artifact: "<name>"], followed, when
// attach_file_reference is true (the default) and the store gives the
// version a gs://, https:// or http:// URI, by a file_data part pointing
// there. The saved versions reach the artifact_delta of the event of the
// first agent to start. A part that fails to save stays as it was; without
// an artifact service the message is left alone, with a warning.
func newSaveFilesAsArtifacts(a *arguments) (*runtime.Plugin, error) {
	name, err := a.string("name", "save_files_as_artifacts_plugin")
	if err != nil {
		return nil, err
	}
	attach, err := a.bool("attach_file_reference", true)
	if err != nil {
		return nil, err
	}
	p := &saveFiles{pendingKey: name + ":pending_delta", attach: attach}
	return &runtime.Plugin{Name: name, OnUserMessage: p.onUserMessage, BeforeAgent: p.beforeAgent}, nil
}

type saveFiles struct {
	// pendingKey is the state key that holds the saved versions until an
	// agent's event can carry them, as in ADK.
	pendingKey string
	attach     bool
}

func (p *saveFiles) onUserMessage(ictx *runtime.InvocationContext, msg *v1.Content) (*v1.Content, error) {
	ctx := ictx.Context()
	if !ictx.HasArtifacts() {
		slog.WarnContext(ctx, "Artifact service is not set. SaveFilesAsArtifactsPlugin will not be enabled.")
		// ADK returns the message itself, which ends the plugins' turn at
		// it.
		return msg, nil
	}
	if len(msg.GetParts()) == 0 {
		return nil, nil
	}
	parts := make([]*v1.Part, 0, len(msg.Parts))
	saved := map[string]*structpb.Value{}
	for i, part := range msg.Parts {
		blob := part.GetInlineData()
		if blob == nil {
			parts = append(parts, part)
			continue
		}
		filename := blob.GetDisplayName()
		if filename == "" {
			filename = "artifact_" + ictx.InvocationID + "_" + strconv.Itoa(i)
			slog.InfoContext(ctx, "No display_name found, using generated filename", "filename", filename)
		}
		version, err := ictx.SaveArtifact(nil, filename, proto.CloneOf(part))
		if err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return nil, err
			}
			slog.ErrorContext(ctx, "Failed to save artifact for part", "part", i, "err", err)
			parts = append(parts, part)
			continue
		}
		parts = append(parts, &v1.Part{Text: `[Uploaded Artifact: "` + filename + `"]`})
		if p.attach {
			if ref := fileReference(ictx, filename, version, blob.GetMimeType()); ref != nil {
				parts = append(parts, ref)
			}
		}
		saved[filename] = structpb.NewNumberValue(float64(version))
		slog.InfoContext(ctx, "Successfully saved artifact", "filename", filename)
	}
	if len(saved) == 0 {
		return nil, nil
	}
	// ADK keeps the versions in the session state of the invocation, not
	// in a delta: they are never stored as they are.
	pending := map[string]*structpb.Value{}
	if old, ok := ictx.StateValue(p.pendingKey); ok {
		for k, v := range old.GetStructValue().GetFields() {
			pending[k] = v
		}
	}
	for k, v := range saved {
		pending[k] = v
	}
	ictx.SetSessionState(p.pendingKey, structpb.NewStructValue(&structpb.Struct{Fields: pending}))
	return &v1.Content{Role: msg.Role, Parts: parts}, nil
}

// beforeAgent moves the pending versions into the agent's event's
// artifact_delta and empties them, a state change that gives the agent an
// event of its own, as in ADK.
func (p *saveFiles) beforeAgent(_ runtime.Agent, cctx *runtime.CallbackContext) (*v1.Content, error) {
	pending, _ := cctx.State().Get(p.pendingKey)
	if !pyfmt.Truthy(pending) {
		return nil, nil
	}
	if delta := pending.GetStructValue(); delta != nil {
		for k, v := range delta.GetFields() {
			if n, ok := v.GetKind().(*structpb.Value_NumberValue); ok {
				if cctx.Actions.ArtifactDelta == nil {
					cctx.Actions.ArtifactDelta = map[string]int64{}
				}
				cctx.Actions.ArtifactDelta[k] = int64(n.NumberValue)
			}
		}
	} else {
		slog.WarnContext(cctx.Context(), "Incompatible pending_delta type", "key", p.pendingKey)
	}
	cctx.State().Set(p.pendingKey, structpb.NewStructValue(&structpb.Struct{}))
	return nil, nil
}

// fileReference is the file_data part that points the model at a saved
// version, or nil when the store gives it no URI a model can read.
func fileReference(ictx *runtime.InvocationContext, filename string, version int64, mimeType string) *v1.Part {
	ver, err := ictx.ArtifactVersion(filename, version)
	if err != nil {
		slog.WarnContext(ictx.Context(), "Failed to resolve artifact version", "filename", filename, "err", err)
		return nil
	}
	if ver == nil || !modelAccessible(ver.CanonicalURI) {
		return nil
	}
	if mimeType == "" {
		mimeType = ver.MimeType
	}
	return &v1.Part{FileData: &v1.FileData{FileUri: ver.CanonicalURI, MimeType: mimeType, DisplayName: filename}}
}

// modelAccessible reports whether uri's scheme is one the model connectors
// read (gs, https, http), the scheme taken as Python's urlsplit takes it.
func modelAccessible(uri string) bool {
	uri = strings.TrimLeftFunc(uri, func(r rune) bool { return r <= ' ' })
	uri = strings.NewReplacer("\t", "", "\r", "", "\n", "").Replace(uri)
	i := strings.IndexByte(uri, ':')
	if i <= 0 || !isASCIILetter(uri[0]) {
		return false
	}
	for _, c := range []byte(uri[:i]) {
		if !isASCIILetter(c) && !('0' <= c && c <= '9') && c != '+' && c != '-' && c != '.' {
			return false
		}
	}
	switch strings.ToLower(uri[:i]) {
	case "gs", "https", "http":
		return true
	}
	return false
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
