package artifactstest

import (
	"errors"
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

var limitCases = []contractCase{
	{"Limits/MaxSize", func(t *testing.T, f Factory) {
		svc := f(t, artifacts.Limits{MaxSize: 8})
		key := sessionKey("bounded")
		if v := mustSave(t, svc, key, dataPart("application/octet-stream", []byte("12345678"))); v != 0 {
			t.Fatalf("at the limit: version %d, want 0", v)
		}
		for name, part := range map[string]*v1.Part{
			"inline": dataPart("application/octet-stream", []byte("123456789")),
			"text":   textPart("ééééé"), // 10 bytes of UTF-8
		} {
			_, err := svc.Save(t.Context(), key, part, nil)
			if !errors.Is(err, artifacts.ErrTooLarge) {
				t.Errorf("%s past the limit: %v, want ErrTooLarge", name, err)
			}
		}
		if vs, err := svc.ListVersions(t.Context(), key); err != nil || len(vs) != 1 {
			t.Errorf("versions after refused saves: %v, %v; want [0]", vs, err)
		}
	}},
	{"Limits/DefaultMaxSize", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		big := make([]byte, artifacts.DefaultMaxSize+1)
		_, err := svc.Save(t.Context(), sessionKey("huge"), dataPart("application/octet-stream", big), nil)
		if !errors.Is(err, artifacts.ErrTooLarge) {
			t.Errorf("past the default limit: %v, want ErrTooLarge", err)
		}
	}},
	{"Limits/Metadata", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		custom := mustStruct(t, map[string]any{"note": strings.Repeat("m", artifacts.MaxMetadataBytes)})
		_, err := svc.Save(t.Context(), sessionKey("meta"), textPart("x"), custom)
		if !errors.Is(err, artifacts.ErrTooLarge) {
			t.Errorf("custom metadata past the limit: %v, want ErrTooLarge", err)
		}
		small := mustStruct(t, map[string]any{"note": strings.Repeat("m", artifacts.MaxMetadataBytes/2)})
		if _, err := svc.Save(t.Context(), sessionKey("meta"), textPart("x"), small); err != nil {
			t.Errorf("custom metadata within the limit: %v", err)
		}
	}},
}
