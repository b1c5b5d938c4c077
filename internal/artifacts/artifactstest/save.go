package artifactstest

import (
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// noBody is ADK's error for a part with neither inline_data nor text.
const noBody = "Artifact must have either inline_data or text."

var saveCases = []contractCase{
	{"Save/VersionsCountFromZero", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		key := sessionKey("report.txt")
		for want := range int64(4) {
			if got := mustSave(t, svc, key, textPart("draft")); got != want {
				t.Errorf("save %d returned version %d", want, got)
			}
		}
	}},
	{"Save/EachArtifactCountsOnItsOwn", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		mustSave(t, svc, sessionKey("a"), textPart("1"))
		mustSave(t, svc, sessionKey("a"), textPart("2"))
		if v := mustSave(t, svc, sessionKey("b"), textPart("1")); v != 0 {
			t.Errorf("first save of b: version %d, want 0", v)
		}
		other := sessionKey("a")
		other.SessionID = "s2"
		if v := mustSave(t, svc, other, textPart("1")); v != 0 {
			t.Errorf("first save of a in another session: version %d, want 0", v)
		}
	}},
	{"Save/RejectsPartsWithoutBody", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		for _, tc := range []struct {
			name string
			part *v1.Part
		}{
			{"nil", nil},
			{"empty", &v1.Part{}},
			{"empty text", textPart("")},
			{"function call", &v1.Part{FunctionCall: &v1.FunctionCall{Name: "f"}}},
			{"file data", &v1.Part{FileData: &v1.FileData{FileUri: "gs://b/o", MimeType: "image/png"}}},
		} {
			_, err := svc.Save(t.Context(), sessionKey("x"), tc.part, nil)
			wantInput(t, tc.name, err, noBody)
		}
		if vs, err := svc.ListVersions(t.Context(), sessionKey("x")); err != nil || len(vs) != 0 {
			t.Errorf("after refused saves: versions %v, %v; want none", vs, err)
		}
	}},
	{"Save/SessionRequiredForSessionScope", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		key := artifacts.Key{AppName: app, UserID: user, Filename: "notes"}
		_, err := svc.Save(t.Context(), key, textPart("x"), nil)
		wantInput(t, "save without a session", err, "Session ID must be provided for session-scoped artifacts.")
		_, err = svc.Load(t.Context(), key, artifacts.Latest)
		wantInput(t, "load without a session", err, "Session ID must be provided for session-scoped artifacts.")
		key.Filename = "user:notes"
		if v := mustSave(t, svc, key, textPart("x")); v != 0 {
			t.Errorf("user-scoped save without a session: version %d, want 0", v)
		}
	}},
	{"Save/CancelledContext", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		ctx, cancel := contextCancelled(t)
		defer cancel()
		if _, err := svc.Save(ctx, sessionKey("x"), textPart("x"), nil); err == nil {
			t.Error("Save with a cancelled context succeeded")
		}
	}},
}
