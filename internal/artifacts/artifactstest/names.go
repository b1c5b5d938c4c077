package artifactstest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

var nameCases = []contractCase{
	{"Names/Rejected", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		for _, tc := range []struct {
			name string
			key  artifacts.Key
			msg  string // ADK's text; empty for checks ADK lacks
		}{
			{"parent", sessionKey("../secret"), "Artifact filename '../secret' must not contain parent traversal."},
			{"inner parent", sessionKey("a/../../b"), "Artifact filename 'a/../../b' must not contain parent traversal."},
			{"windows parent", sessionKey(`a\..\b`), `Artifact filename 'a\\..\\b' must not contain parent traversal.`},
			{"user parent", sessionKey("user:../x"), "Artifact filename 'user:../x' must not contain parent traversal."},
			{"absolute", sessionKey("/etc/passwd"), "Rooted or drive-qualified artifact filename '/etc/passwd' is not permitted; provide a path relative to the storage scope."},
			{"backslash root", sessionKey(`\share`), `Rooted or drive-qualified artifact filename '\\share' is not permitted; provide a path relative to the storage scope.`},
			{"drive", sessionKey("C:x"), "Rooted or drive-qualified artifact filename 'C:x' is not permitted; provide a path relative to the storage scope."},
			{"padded root", sessionKey("user: /x"), "Rooted or drive-qualified artifact filename 'user: /x' is not permitted; provide a path relative to the storage scope."},
			{"null byte", sessionKey("a\x00b"), "filename must not contain null bytes."},
			{"empty", sessionKey(""), "filename must not be empty."},
			{"prefix only", sessionKey("user:"), "filename must not be empty."},
			{"too long", sessionKey(strings.Repeat("x", artifacts.MaxFilenameBytes+1)), ""},
			{"too long once encoded", sessionKey(strings.Repeat("a/", 100)), ""},
			{"empty app", artifacts.Key{UserID: user, SessionID: session, Filename: "f"}, "app_name must not be empty."},
			{"app traversal", artifacts.Key{AppName: "..", UserID: user, SessionID: session, Filename: "f"}, "app_name '..' must not contain traversal segments."},
			{"absolute app", artifacts.Key{AppName: "/x", UserID: user, SessionID: session, Filename: "f"}, "app_name '/x' must not be an absolute path or start with a slash."},
			{"empty user", artifacts.Key{AppName: app, SessionID: session, Filename: "f"}, "user_id must not be empty."},
			{"user traversal", artifacts.Key{AppName: app, UserID: "a/../b", SessionID: session, Filename: "f"}, "user_id 'a/../b' must not contain traversal segments."},
			{"user null", artifacts.Key{AppName: app, UserID: "a\x00", SessionID: session, Filename: "f"}, "user_id must not contain null bytes."},
			{"drive user", artifacts.Key{AppName: app, UserID: "c:x", SessionID: session, Filename: "f"}, "user_id 'c:x' must not be drive-qualified."},
			{"session dot", artifacts.Key{AppName: app, UserID: user, SessionID: ".", Filename: "f"}, "session_id '.' must not contain traversal segments."},
			{"too long user", artifacts.Key{AppName: app, UserID: strings.Repeat("u", 300), SessionID: session, Filename: "f"}, ""},
		} {
			_, err := svc.Save(t.Context(), tc.key, textPart("x"), nil)
			wantInput(t, "Save "+tc.name, err, tc.msg)
			_, err = svc.Load(t.Context(), tc.key, artifacts.Latest)
			wantInput(t, "Load "+tc.name, err, tc.msg)
			_, err = svc.ListVersions(t.Context(), tc.key)
			wantInput(t, "ListVersions "+tc.name, err, tc.msg)
			err = svc.Delete(t.Context(), tc.key)
			wantInput(t, "Delete "+tc.name, err, tc.msg)
		}
		keys, err := svc.ListKeys(t.Context(), app, user, session)
		if err != nil || len(keys) != 0 {
			t.Errorf("after refused saves: keys %v, %v; want none", keys, err)
		}
	}},
	{"Names/AcceptedAndKeptApart", func(t *testing.T, f Factory) {
		// Every accepted name is an artifact of its own, in its own scope,
		// listed back as saved.
		svc := fresh(t, f)
		names := []string{
			"a", "a/b", "a%2Fb", `a\b`, "a b", " padded ", ".", "...", ".hidden", "x..y",
			"x..", "résumé.pdf", "名前.txt", "tab\there", "percent%", "user:a/b", "user:.", "ab:c",
			strings.Repeat("n", artifacts.MaxFilenameBytes),
		}
		for i, name := range names {
			if v := mustSave(t, svc, sessionKey(name), textPart(name)); v != 0 {
				t.Errorf("%q: first version %d (save %d)", name, v, i)
			}
		}
		for _, name := range names {
			wantPart(t, name, mustLoad(t, svc, sessionKey(name), artifacts.Latest), textPart(name))
		}
		keys, err := svc.ListKeys(t.Context(), app, user, session)
		if err != nil {
			t.Fatal(err)
		}
		want := append([]string(nil), names...)
		sortStrings(want)
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Errorf("ListKeys (-want +got):\n%s", diff)
		}
		// Nothing reached another session's or user's scope.
		keys, err = svc.ListKeys(t.Context(), app, user, "s2")
		if diff := cmp.Diff([]string{"user:.", "user:a/b"}, keys); err != nil || diff != "" {
			t.Errorf("ListKeys of another session: %v (-want +got):\n%s", err, diff)
		}
		keys, err = svc.ListKeys(t.Context(), app, "bob", session)
		if err != nil || len(keys) != 0 {
			t.Errorf("ListKeys of another user = %v, %v; want none", keys, err)
		}
	}},
	{"Names/OddIds", func(t *testing.T, f Factory) {
		// ADK allows an app name with interior slashes (Vertex resource
		// names); it must neither nest nor collide.
		svc := fresh(t, f)
		k1 := artifacts.Key{AppName: "projects/p/apps/a", UserID: "u", SessionID: "s", Filename: "f"}
		k2 := artifacts.Key{AppName: "projects", UserID: "u", SessionID: "s", Filename: "f"}
		mustSave(t, svc, k1, textPart("nested app"))
		_, err := svc.Load(t.Context(), k2, artifacts.Latest)
		if !errors.Is(err, artifacts.ErrNotFound) {
			t.Errorf("load from a prefix of the app name: %v, want ErrNotFound", err)
		}
		wantPart(t, "nested app", mustLoad(t, svc, k1, artifacts.Latest), textPart("nested app"))
	}},
}
