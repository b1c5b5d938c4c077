package plugins_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/artifacts/blobstore"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
	"github.com/agentsvc/agentsvc/internal/runtime/plugins"
)

// The contents of the first model request of SaveFilesAsArtifactsPlugin
// runs on uploadMessage, probed from google-adk 1.39.1 with a scripted
// model (model_dump in JSON mode); {inv} stands for the invocation id.
const (
	// adkUploadMemory: InMemoryArtifactService, whose memory:// URIs no
	// model reads.
	adkUploadMemory = `[{"parts": [{"text": "see files"}, {"text": "[Uploaded Artifact: \"report.pdf\"]"}, {"text": "[Uploaded Artifact: \"artifact_{inv}_2\"]"}, {"text": "[Uploaded Artifact: \"user:notes.txt\"]"}], "role": "user"}]`
	// adkUploadGCS: an artifact service whose versions live at
	// gs://bucket/<name>/<version>.
	adkUploadGCS = `[{"parts": [{"text": "see files"}, {"text": "[Uploaded Artifact: \"report.pdf\"]"}, {"file_data": {"display_name": "report.pdf", "file_uri": "gs://bucket/report.pdf/0", "mime_type": "application/pdf"}}, {"text": "[Uploaded Artifact: \"artifact_{inv}_2\"]"}, {"file_data": {"display_name": "artifact_{inv}_2", "file_uri": "gs://bucket/artifact_{inv}_2/0", "mime_type": "image/png"}}, {"text": "[Uploaded Artifact: \"user:notes.txt\"]"}, {"file_data": {"display_name": "user:notes.txt", "file_uri": "gs://bucket/user:notes.txt/0", "mime_type": "text/plain"}}], "role": "user"}]`
	// adkUploadNoService: no artifact service; the message is untouched.
	adkUploadNoService = `[{"parts": [{"text": "see files"}, {"inline_data": {"data": "UERG", "display_name": "report.pdf", "mime_type": "application/pdf"}}, {"inline_data": {"data": "UE5H", "mime_type": "image/png"}}, {"inline_data": {"data": "aGk=", "display_name": "user:notes.txt", "mime_type": "text/plain"}}], "role": "user"}]`
)

// uploadMessage is the user's message of the probes: a text and three
// files, one without a name and one for the user.
func uploadMessage() *v1.Content {
	return &v1.Content{Role: "user", Parts: []*v1.Part{
		{Text: "see files"},
		{InlineData: &v1.Blob{MimeType: "application/pdf", Data: []byte("PDF"), DisplayName: "report.pdf"}},
		{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte("PNG")}},
		{InlineData: &v1.Blob{MimeType: "text/plain", Data: []byte("hi"), DisplayName: "user:notes.txt"}},
	}}
}

// gcsLike stands for GcsArtifactService: versions at
// gs://bucket/<name>/<version>.
type gcsLike struct{ artifacts.Service }

func (g gcsLike) GetArtifactVersion(ctx context.Context, key artifacts.Key, version int64) (artifacts.Version, error) {
	v, err := g.Service.GetArtifactVersion(ctx, key, version)
	v.CanonicalURI = "gs://bucket/" + key.Filename + "/" + strconv.FormatInt(v.Version, 10)
	return v, err
}

func memoryArtifacts(t *testing.T) artifacts.Service {
	t.Helper()
	store, err := blobstore.Open(t.Context(), "memory://")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = store.Close() })
	return store
}

// contentsJSON compares as JSON with google-adk's dump of contents.
func contentsJSON(t *testing.T, contents []*v1.Content) any {
	t.Helper()
	list := &structpb.ListValue{}
	for _, c := range contents {
		parts := &structpb.ListValue{}
		for _, p := range c.GetParts() {
			parts.Values = append(parts.Values, runtime.PartValue(p))
		}
		list.Values = append(list.Values, structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			"role": structpb.NewStringValue(c.GetRole()), "parts": structpb.NewListValue(parts)}}))
	}
	return list.AsSlice()
}

func probed(t *testing.T, js, inv string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(js, "{inv}", inv)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSaveFilesAsArtifacts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		args      map[string]any
		artifacts func(t *testing.T) artifacts.Service
		want      string
	}{
		{"memory store", nil, memoryArtifacts, adkUploadMemory},
		{"gs store", nil, func(t *testing.T) artifacts.Service { return gcsLike{memoryArtifacts(t)} }, adkUploadGCS},
		{"no file reference", map[string]any{"attach_file_reference": false},
			func(t *testing.T) artifacts.Service { return gcsLike{memoryArtifacts(t)} }, adkUploadMemory},
		{"no artifact service", nil, func(*testing.T) artifacts.Service { return nil }, adkUploadNoService},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h, m, sid := harness(t, "SaveFilesAsArtifactsPlugin", tt.args, llmagent.Config{}, et.Text("a1"), et.Text("a2"))
			store := tt.artifacts(t)
			h.Runner.Artifacts = store
			events, err := h.Run(t.Context(), sid, uploadMessage(), runtime.RunConfig{})
			if err != nil {
				t.Fatal(err)
			}
			inv := events[0].GetInvocationId()
			if d := cmp.Diff(probed(t, tt.want, inv), contentsJSON(t, m.Requests()[0].Contents)); d != "" {
				t.Errorf("request contents (-adk +got):\n%s", d)
			}
			stored := h.Session(t, sid)
			if d := cmp.Diff(m.Requests()[0].Contents[0], stored.Events[0].Content, protocmp.Transform()); d != "" {
				t.Errorf("stored user message differs from the model's (-request +stored):\n%s", d)
			}
			if store == nil {
				if len(events) != 1 || len(stored.GetState().GetFields()) != 1 {
					t.Errorf("without artifacts: events %v, state %v", et.Events(events), stored.GetState())
				}
				return
			}
			// The first agent's event carries the versions, as ADK's.
			generated := "artifact_" + inv + "_2"
			wantActions := &v1.EventActions{
				StateDelta:    et.Struct(`{"save_files_as_artifacts_plugin:pending_delta": {}}`),
				ArtifactDelta: map[string]int64{"report.pdf": 0, generated: 0, "user:notes.txt": 0},
			}
			if len(events) != 2 || events[0].GetContent() != nil || events[0].GetAuthor() != "root_agent" {
				t.Fatalf("events = %v, want the agent's artifact event, then the answer", et.Events(events))
			}
			if d := cmp.Diff(wantActions, events[0].GetActions(), protocmp.Transform()); d != "" {
				t.Errorf("agent event actions (-want +got):\n%s", d)
			}
			if d := cmp.Diff(et.Struct(`{"save_files_as_artifacts_plugin:pending_delta": {}, "user_name": "Ada"}`), stored.GetState(), protocmp.Transform()); d != "" {
				t.Errorf("state (-want +got):\n%s", d)
			}
			// The whole part is saved, its display name included.
			for name, want := range map[string]*v1.Part{"report.pdf": uploadMessage().Parts[1], generated: uploadMessage().Parts[2],
				"user:notes.txt": uploadMessage().Parts[3]} {
				got, err := store.Load(t.Context(), artifacts.Key{AppName: et.AppName, UserID: et.UserID, SessionID: sid, Filename: name}, artifacts.Latest)
				if err != nil || !proto.Equal(got, want) {
					t.Errorf("artifact %s = %v, %v; want %v", name, got, err, want)
				}
			}

			// The next invocation finds nothing pending: no agent event.
			if events := h.RunText(t, sid, "again"); len(events) != 1 {
				t.Errorf("second run events = %v", et.Events(events))
			}
		})
	}
}

// TestSaveFilesAsArtifactsFailsSoft checks that a file that cannot be
// saved stays in the message as it came, the others being saved.
func TestSaveFilesAsArtifactsFailsSoft(t *testing.T) {
	t.Parallel()
	h, m, sid := harness(t, "SaveFilesAsArtifactsPlugin", nil, llmagent.Config{}, et.Text("ok"))
	h.Runner.Artifacts = memoryArtifacts(t)
	bad := &v1.Part{InlineData: &v1.Blob{MimeType: "text/plain", Data: []byte("x"), DisplayName: "../escape"}}
	msg := &v1.Content{Role: "user", Parts: []*v1.Part{bad, {InlineData: &v1.Blob{MimeType: "text/plain", Data: []byte("y"), DisplayName: "ok.txt"}}}}
	events, err := h.Run(t.Context(), sid, msg, runtime.RunConfig{})
	if err != nil {
		t.Fatal(err)
	}
	want := []*v1.Part{bad, {Text: `[Uploaded Artifact: "ok.txt"]`}}
	if d := cmp.Diff(want, m.Requests()[0].Contents[0].Parts, protocmp.Transform()); d != "" {
		t.Errorf("request parts (-want +got):\n%s", d)
	}
	if got := events[0].GetActions().GetArtifactDelta(); len(got) != 1 || got["ok.txt"] != 0 {
		t.Errorf("artifact delta = %v, want ok.txt only", got)
	}
}

// TestSaveFilesAsArtifactsLeavesOtherMessages checks that a message
// without files is left to the next plugin, and that without an artifact
// service the plugin answers with the message itself, which ends the
// plugins' turn as in ADK.
func TestSaveFilesAsArtifactsLeavesOtherMessages(t *testing.T) {
	t.Parallel()
	for _, withStore := range []bool{true, false} {
		save, err := plugins.New("SaveFilesAsArtifactsPlugin", nil)
		if err != nil {
			t.Fatal(err)
		}
		var seen []string
		next := &runtime.Plugin{Name: "next", OnUserMessage: func(_ *runtime.InvocationContext, msg *v1.Content) (*v1.Content, error) {
			seen = append(seen, msg.Parts[0].Text)
			return nil, nil
		}}
		h, _, sid := pluginHarness(t, llmagent.Config{}, []*v1.LlmResponse{et.Text("a")}, save, next)
		if withStore {
			h.Runner.Artifacts = memoryArtifacts(t)
		}
		events := h.RunText(t, sid, "no files")
		wantSeen := []string{"no files"}
		if !withStore {
			wantSeen = nil
		}
		if !cmp.Equal(seen, wantSeen) || len(events) != 1 {
			t.Errorf("with store %v: next plugin saw %v, events %v", withStore, seen, et.Events(events))
		}
	}
}
