package artifactstest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

var deleteCases = []contractCase{
	{"Delete/AllVersions", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		key := sessionKey("gone")
		for range 3 {
			mustSave(t, svc, key, textPart("x"))
		}
		keep := sessionKey("kept")
		mustSave(t, svc, keep, textPart("k"))
		if err := svc.Delete(t.Context(), key); err != nil {
			t.Fatal(err)
		}
		_, err := svc.Load(t.Context(), key, artifacts.Latest)
		wantNotFound(t, "load after delete", err)
		_, err = svc.GetArtifactVersion(t.Context(), key, 0)
		wantNotFound(t, "version after delete", err)
		if vs, err := svc.ListVersions(t.Context(), key); err != nil || len(vs) != 0 {
			t.Errorf("versions after delete: %v, %v", vs, err)
		}
		keys, err := svc.ListKeys(t.Context(), app, user, session)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"kept"}, keys); diff != "" {
			t.Errorf("ListKeys after delete (-want +got):\n%s", diff)
		}
		// As ADK: the next save starts over at 0.
		if v := mustSave(t, svc, key, textPart("again")); v != 0 {
			t.Errorf("save after delete: version %d, want 0", v)
		}
		wantPart(t, "kept", mustLoad(t, svc, keep, artifacts.Latest), textPart("k"))
	}},
	{"Delete/Missing", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		if err := svc.Delete(t.Context(), sessionKey("never")); err != nil {
			t.Errorf("Delete of a missing artifact: %v", err)
		}
	}},
	{"Delete/UserScoped", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		mustSave(t, svc, sessionKey("user:shared"), textPart("x"))
		other := artifacts.Key{AppName: app, UserID: user, SessionID: "s2", Filename: "user:shared"}
		if err := svc.Delete(t.Context(), other); err != nil {
			t.Fatal(err)
		}
		_, err := svc.Load(t.Context(), sessionKey("user:shared"), artifacts.Latest)
		wantNotFound(t, "user artifact deleted from another session", err)
	}},
	{"Delete/NestedNameLeavesParent", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		mustSave(t, svc, sessionKey("doc"), textPart("parent"))
		mustSave(t, svc, sessionKey("doc/nested"), textPart("child"))
		if err := svc.Delete(t.Context(), sessionKey("doc/nested")); err != nil {
			t.Fatal(err)
		}
		wantPart(t, "doc", mustLoad(t, svc, sessionKey("doc"), artifacts.Latest), textPart("parent"))
		if err := svc.Delete(t.Context(), sessionKey("doc")); err != nil {
			t.Fatal(err)
		}
		keys, err := svc.ListKeys(t.Context(), app, user, session)
		if err != nil || len(keys) != 0 {
			t.Errorf("ListKeys after deleting both: %v, %v", keys, err)
		}
	}},
}
