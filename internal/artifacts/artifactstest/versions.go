package artifactstest

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

var versionCases = []contractCase{
	{"Versions/Metadata", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		key := sessionKey("chart.png")
		custom := mustStruct(t, map[string]any{
			"source": "tool", "score": 0.5, "count": 3.0, "ok": true, "none": nil,
			"tags": []any{"a", "b"}, "nested": map[string]any{"k": "v"},
		})
		before := time.Now().Add(-time.Second)
		if _, err := svc.Save(t.Context(), key, dataPart("image/png", []byte("png")), custom); err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Save(t.Context(), key, textPart("caption"), nil); err != nil {
			t.Fatal(err)
		}
		after := time.Now().Add(time.Second)

		got, err := svc.ListArtifactVersions(t.Context(), key)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 {
			t.Fatalf("ListArtifactVersions: %d versions, want 2", len(got))
		}
		want := []artifacts.Version{
			{Version: 0, CustomMetadata: custom, MimeType: "image/png"},
			{Version: 1, CustomMetadata: &structpb.Struct{}, MimeType: "text/plain"},
		}
		ignore := cmp.FilterPath(func(p cmp.Path) bool {
			name := p.Last().String()
			return name == ".CanonicalURI" || name == ".CreateTime"
		}, cmp.Ignore())
		if diff := cmp.Diff(want, got, protocmp.Transform(), ignore); diff != "" {
			t.Errorf("ListArtifactVersions (-want +got):\n%s", diff)
		}
		for i, v := range got {
			if v.CreateTime.Before(before) || v.CreateTime.After(after) {
				t.Errorf("version %d: create time %v, not between %v and %v", i, v.CreateTime, before, after)
			}
			if !strings.Contains(v.CanonicalURI, "/versions/") || !strings.HasSuffix(v.CanonicalURI, "/"+string(rune('0'+i))) {
				t.Errorf("version %d: canonical URI %q does not name the version", i, v.CanonicalURI)
			}
		}
		if got[0].CanonicalURI == got[1].CanonicalURI {
			t.Errorf("two versions share the canonical URI %q", got[0].CanonicalURI)
		}
		if got[1].CreateTime.Before(got[0].CreateTime) {
			t.Errorf("version 1 created at %v, before version 0 at %v", got[1].CreateTime, got[0].CreateTime)
		}

		latest, err := svc.GetArtifactVersion(t.Context(), key, artifacts.Latest)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got[1], latest, protocmp.Transform()); diff != "" {
			t.Errorf("GetArtifactVersion(Latest) (-ListArtifactVersions +got):\n%s", diff)
		}
		first, err := svc.GetArtifactVersion(t.Context(), key, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(got[0], first, protocmp.Transform()); diff != "" {
			t.Errorf("GetArtifactVersion(0) (-ListArtifactVersions +got):\n%s", diff)
		}
	}},
	{"Versions/Missing", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		_, err := svc.GetArtifactVersion(t.Context(), sessionKey("none"), artifacts.Latest)
		wantNotFound(t, "latest of a missing artifact", err)
		mustSave(t, svc, sessionKey("one"), textPart("x"))
		_, err = svc.GetArtifactVersion(t.Context(), sessionKey("one"), 1)
		wantNotFound(t, "a version that was never saved", err)
	}},
	{"Versions/MimeTypes", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		for _, tc := range []struct {
			name string
			part *v1.Part
			want string
		}{
			{"text", textPart("x"), "text/plain"},
			{"inline", dataPart("audio/wav", []byte("x")), "audio/wav"},
			{"no mime type", dataPart("", []byte("x")), ""},
		} {
			key := sessionKey(tc.name)
			mustSave(t, svc, key, tc.part)
			v, err := svc.GetArtifactVersion(t.Context(), key, artifacts.Latest)
			if err != nil {
				t.Fatal(err)
			}
			if v.MimeType != tc.want {
				t.Errorf("%s: mime type %q, want %q", tc.name, v.MimeType, tc.want)
			}
		}
	}},
	{"Versions/CanonicalURIsDiffer", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		keys := []artifacts.Key{
			sessionKey("x"), sessionKey("user:x"), sessionKey("a/b"), sessionKey("a%2Fb"),
			{AppName: app, UserID: user, SessionID: "s2", Filename: "x"},
		}
		seen := map[string]artifacts.Key{}
		for _, key := range keys {
			mustSave(t, svc, key, textPart("x"))
			v, err := svc.GetArtifactVersion(t.Context(), key, 0)
			if err != nil {
				t.Fatal(err)
			}
			if prev, dup := seen[v.CanonicalURI]; dup {
				t.Errorf("%+v and %+v share the canonical URI %q", prev, key, v.CanonicalURI)
			}
			seen[v.CanonicalURI] = key
		}
	}},
}
