package blobstore

import (
	"net/url"
	"strings"
	"testing"
)

func TestSegment(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"report.txt": "report.txt",
		"a/b":        "a%2Fb",
		"a%2Fb":      "a%252Fb",
		`a\b`:        "a%5Cb",
		".":          "%2E",
		"..":         "%2E%2E",
		"x..":        "x.%2E",
		"x.":         "x.",
		"tab\there":  "tab%09here",
		"résumé":     "résumé",
	} {
		got, err := segment(in, "filename", in)
		if err != nil || got != want {
			t.Errorf("segment(%q) = %q, %v; want %q", in, got, err, want)
		}
		back, ok := unsegment(got)
		if !ok || back != in {
			t.Errorf("unsegment(%q) = %q, %v; want %q", got, back, ok, in)
		}
	}
}

func TestParseArtifactKey(t *testing.T) {
	t.Parallel()
	for rest, want := range map[string]struct {
		name string
		v    int64
		ok   bool
	}{
		"a/versions/0":                    {"a", 0, true},
		"a%2Fb/versions/12":               {"a/b", 12, true},
		"a/versions/01":                   {ok: false},
		"a/versions/1.tmp":                {ok: false},
		"a/versions/":                     {ok: false},
		"a/b/versions/1":                  {ok: false},
		"a/versions/1/x":                  {ok: false},
		"%zz/versions/1":                  {ok: false},
		"/versions/1":                     {ok: false},
		"a/versions/-1":                   {ok: false},
		"a/versions/99999999999999999999": {ok: false},
	} {
		name, v, ok := parseArtifactKey(rest)
		if ok != want.ok || (ok && (name != want.name || v != want.v)) {
			t.Errorf("parseArtifactKey(%q) = %q, %d, %v; want %q, %d, %v", rest, name, v, ok, want.name, want.v, want.ok)
		}
	}
}

func TestCanonicalBase(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"memory://":                       "memory://",
		"file:///var/lib/a":               "file:///var/lib/a/",
		"file:///var/lib/a/?create_dir=1": "file:///var/lib/a/",
		"s3://bucket?region=eu-west-1":    "s3://bucket/",
		"gs://bucket?prefix=art/":         "gs://bucket/art/",
		"file:///with%20space":            "file:///with%20space/",
	} {
		u, err := url.Parse(in)
		if err != nil {
			t.Fatal(err)
		}
		if got := canonicalBase(u); got != want {
			t.Errorf("canonicalBase(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzSegment checks that any name maps to one path segment that no store
// reads as a folder, and back.
func FuzzSegment(f *testing.F) {
	for _, s := range []string{"a", "a/b", "..", ".", "x..", "%2F", "a\x00b", "user:x", `\..\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if s == "" {
			return
		}
		seg, err := segment(s, "filename", s)
		if err != nil {
			return // too long
		}
		if strings.ContainsAny(seg, "/\\") || seg == "." || seg == ".." || strings.HasSuffix(seg, "..") {
			t.Fatalf("segment(%q) = %q, not one plain segment", s, seg)
		}
		for i := 0; i < len(seg); i++ {
			if seg[i] < 0x20 || seg[i] == 0x7f {
				t.Fatalf("segment(%q) = %q holds a control character", s, seg)
			}
		}
		if back, ok := unsegment(seg); !ok || back != s {
			t.Fatalf("unsegment(segment(%q)) = %q, %v", s, back, ok)
		}
	})
}
