package artifactstest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

var listCases = []contractCase{
	{"ListKeys/SessionAndUserNamesSorted", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		for _, name := range []string{"b.txt", "user:z", "a.txt", "B.txt", "user:c", "dir/x", "b.txt"} {
			mustSave(t, svc, sessionKey(name), textPart(name))
		}
		mustSave(t, svc, artifacts.Key{AppName: app, UserID: user, SessionID: "s2", Filename: "other-session"}, textPart("x"))
		mustSave(t, svc, artifacts.Key{AppName: app, UserID: "bob", SessionID: session, Filename: "user:bobs"}, textPart("x"))
		mustSave(t, svc, artifacts.Key{AppName: "app2", UserID: user, SessionID: session, Filename: "other-app"}, textPart("x"))

		got, err := svc.ListKeys(t.Context(), app, user, session)
		if err != nil {
			t.Fatal(err)
		}
		// Python's sorted(): by code point, upper case first.
		want := []string{"B.txt", "a.txt", "b.txt", "dir/x", "user:c", "user:z"}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ListKeys (-want +got):\n%s", diff)
		}

		got, err = svc.ListKeys(t.Context(), app, user, "")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"user:c", "user:z"}, got); diff != "" {
			t.Errorf("ListKeys without a session (-want +got):\n%s", diff)
		}
	}},
	{"ListKeys/Empty", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		got, err := svc.ListKeys(t.Context(), app, user, session)
		if err != nil || len(got) != 0 {
			t.Errorf("ListKeys of an empty store: %v, %v; want none", got, err)
		}
	}},
	{"ListKeys/ValidatesIds", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		_, err := svc.ListKeys(t.Context(), app, "..", session)
		wantInput(t, "user id ..", err, "user_id '..' must not contain traversal segments.")
		_, err = svc.ListKeys(t.Context(), app, user, "a/../b")
		wantInput(t, "session id a/../b", err, "session_id 'a/../b' must not contain traversal segments.")
		_, err = svc.ListKeys(t.Context(), "", user, session)
		wantInput(t, "empty app", err, "app_name must not be empty.")
	}},
	{"ListVersions/Ascending", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		key := sessionKey("many")
		var want []int64
		// Past 10, where byte order and number order part.
		for i := range int64(12) {
			mustSave(t, svc, key, textPart("x"))
			want = append(want, i)
		}
		got, err := svc.ListVersions(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ListVersions (-want +got):\n%s", diff)
		}
		wantPart(t, "latest of 12", mustLoad(t, svc, key, artifacts.Latest), textPart("x"))
		if v := mustSave(t, svc, key, textPart("y")); v != 12 {
			t.Errorf("13th save: version %d, want 12", v)
		}
	}},
	{"ListVersions/Missing", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		got, err := svc.ListVersions(t.Context(), sessionKey("none"))
		if err != nil || len(got) != 0 {
			t.Errorf("ListVersions of a missing artifact: %v, %v; want none", got, err)
		}
		infos, err := svc.ListArtifactVersions(t.Context(), sessionKey("none"))
		if err != nil || len(infos) != 0 {
			t.Errorf("ListArtifactVersions of a missing artifact: %v, %v; want none", infos, err)
		}
	}},
	{"ListVersions/NamesDoNotNest", func(t *testing.T, f Factory) {
		// "a/b" is an artifact of its own: listing "a" never shows its
		// versions, as in ADK's stores.
		svc := fresh(t, f)
		mustSave(t, svc, sessionKey("a"), textPart("a0"))
		for range 3 {
			mustSave(t, svc, sessionKey("a/b"), textPart("ab"))
		}
		mustSave(t, svc, sessionKey("a/versions/7"), textPart("tricky"))
		got, err := svc.ListVersions(t.Context(), sessionKey("a"))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]int64{0}, got); diff != "" {
			t.Errorf("versions of a (-want +got):\n%s", diff)
		}
		keys, err := svc.ListKeys(t.Context(), app, user, session)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"a", "a/b", "a/versions/7"}, keys, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("ListKeys (-want +got):\n%s", diff)
		}
		wantPart(t, "a", mustLoad(t, svc, sessionKey("a"), artifacts.Latest), textPart("a0"))
	}},
}
