package artifactstest

import (
	"bytes"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

var loadCases = []contractCase{
	{"Load/LatestAndGivenVersions", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		key := sessionKey("doc.md")
		for _, s := range []string{"v0", "v1", "v2"} {
			mustSave(t, svc, key, textPart(s))
		}
		wantPart(t, "latest", mustLoad(t, svc, key, artifacts.Latest), textPart("v2"))
		wantPart(t, "version 0", mustLoad(t, svc, key, 0), textPart("v0"))
		wantPart(t, "version 1", mustLoad(t, svc, key, 1), textPart("v1"))
	}},
	{"Load/Missing", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		_, err := svc.Load(t.Context(), sessionKey("nothing"), artifacts.Latest)
		wantNotFound(t, "latest of a missing artifact", err)
		_, err = svc.Load(t.Context(), sessionKey("nothing"), 0)
		wantNotFound(t, "version 0 of a missing artifact", err)
		key := sessionKey("some")
		mustSave(t, svc, key, textPart("x"))
		for _, v := range []int64{1, 7, -2} {
			_, err = svc.Load(t.Context(), key, v)
			wantNotFound(t, "a version that was never saved", err)
		}
	}},
	{"Load/KeepsTheKindOfPart", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		png := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff}
		for name, part := range map[string]*v1.Part{
			"text":         textPart("héllo\nworld"),
			"inline":       dataPart("image/png", png),
			"display name": {InlineData: &v1.Blob{MimeType: "application/pdf", Data: []byte("%PDF"), DisplayName: "Report.pdf"}},
			"no mime type": dataPart("", []byte("raw")),
			"odd mime":     dataPart("not a mime type", []byte("raw")),
			"text mime":    dataPart("text/plain", []byte("inline text")),
		} {
			key := sessionKey(name)
			mustSave(t, svc, key, part)
			wantPart(t, name, mustLoad(t, svc, key, artifacts.Latest), part)
		}
	}},
	{"Load/EmptyInlineDataIsNotFound", func(t *testing.T, f Factory) {
		// ADK saves the version but load_artifact returns None for it.
		svc := fresh(t, f)
		key := sessionKey("empty.bin")
		if v := mustSave(t, svc, key, dataPart("application/octet-stream", nil)); v != 0 {
			t.Fatalf("version %d, want 0", v)
		}
		_, err := svc.Load(t.Context(), key, artifacts.Latest)
		wantNotFound(t, "empty inline data", err)
		if vs, err := svc.ListVersions(t.Context(), key); err != nil || len(vs) != 1 {
			t.Errorf("versions %v, %v; want [0]", vs, err)
		}
	}},
	{"Load/LargeBody", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		data := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
		key := sessionKey("big.bin")
		mustSave(t, svc, key, dataPart("application/octet-stream", data))
		got := mustLoad(t, svc, key, 0)
		if !bytes.Equal(got.GetInlineData().GetData(), data) {
			t.Errorf("loaded %d bytes, not the %d saved", len(got.GetInlineData().GetData()), len(data))
		}
	}},
	{"Load/UserScopeIsSharedAcrossSessions", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		mustSave(t, svc, sessionKey("user:profile"), textPart("p0"))
		other := artifacts.Key{AppName: app, UserID: user, SessionID: "s2", Filename: "user:profile"}
		wantPart(t, "from another session", mustLoad(t, svc, other, artifacts.Latest), textPart("p0"))
		if v := mustSave(t, svc, other, textPart("p1")); v != 1 {
			t.Errorf("save from another session: version %d, want 1", v)
		}
		noSession := artifacts.Key{AppName: app, UserID: user, Filename: "user:profile"}
		wantPart(t, "without a session", mustLoad(t, svc, noSession, artifacts.Latest), textPart("p1"))

		for name, key := range map[string]artifacts.Key{
			"another user": {AppName: app, UserID: "bob", SessionID: session, Filename: "user:profile"},
			"another app":  {AppName: "app2", UserID: user, SessionID: session, Filename: "user:profile"},
		} {
			_, err := svc.Load(t.Context(), key, artifacts.Latest)
			wantNotFound(t, name, err)
		}
	}},
	{"Load/SessionScopeIsPrivate", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		mustSave(t, svc, sessionKey("notes"), textPart("n"))
		for name, key := range map[string]artifacts.Key{
			"another session": {AppName: app, UserID: user, SessionID: "s2", Filename: "notes"},
			"another user":    {AppName: app, UserID: "bob", SessionID: session, Filename: "notes"},
			"the user scope":  {AppName: app, UserID: user, SessionID: session, Filename: "user:notes"},
		} {
			_, err := svc.Load(t.Context(), key, artifacts.Latest)
			wantNotFound(t, name, err)
		}
	}},
}
