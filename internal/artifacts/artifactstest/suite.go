// Package artifactstest is the contract suite every [artifacts.Service]
// passes: ADK's BaseArtifactService semantics (versions counted from 0,
// latest and given loads, user-scoped "user:" names, listing order,
// deletes, version metadata), ADK's name validation and its texts, the size
// bounds, and concurrent saves.
//
// A store's test calls [Run] with a factory that returns a fresh, empty
// service per call and registers its cleanup on t:
//
//	func TestContract(t *testing.T) {
//		artifactstest.Run(t, func(t *testing.T, l artifacts.Limits) artifacts.Service {
//			s := newStore(t, blobstore.WithLimits(l))
//			return s
//		})
//	}
//
// A store that several processes can share also calls [RunShared], whose
// cases save through several services over one store at once.
package artifactstest

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// Factory returns a fresh, empty service with the given limits for one test
// and arranges its cleanup. Services from different calls must not see each
// other's data, so that tests run in parallel.
type Factory func(t *testing.T, limits artifacts.Limits) artifacts.Service

// SharedFactory returns n services over one fresh, empty store, as n
// processes sharing it see it (no state in common but the store), and
// arranges their cleanup.
type SharedFactory func(t *testing.T, n int) []artifacts.Service

// contractCase is one behaviour of the contract.
type contractCase struct {
	name string
	run  func(t *testing.T, newService Factory)
}

// Run runs the whole contract against the services newService returns.
// Every case runs in parallel with services of its own.
func Run(t *testing.T, newService Factory) {
	t.Helper()
	var all []contractCase
	all = append(all, saveCases...)
	all = append(all, loadCases...)
	all = append(all, listCases...)
	all = append(all, deleteCases...)
	all = append(all, versionCases...)
	all = append(all, nameCases...)
	all = append(all, limitCases...)
	all = append(all, concurrencyCases...)
	for _, c := range all {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.run(t, newService)
		})
	}
}

// Default keys of the cases.
const (
	app     = "app"
	user    = "alice"
	session = "s1"
)

// sessionKey names a session-scoped artifact of the default app, user and
// session.
func sessionKey(filename string) artifacts.Key {
	return artifacts.Key{AppName: app, UserID: user, SessionID: session, Filename: filename}
}

// fresh returns a service with the default limits.
func fresh(t *testing.T, newService Factory) artifacts.Service {
	t.Helper()
	return newService(t, artifacts.Limits{})
}

// textPart returns a text artifact.
func textPart(s string) *v1.Part { return &v1.Part{Text: s} }

// dataPart returns an inline-data artifact.
func dataPart(mime string, data []byte) *v1.Part {
	return &v1.Part{InlineData: &v1.Blob{MimeType: mime, Data: data}}
}

// mustSave saves part and returns its version, failing the test on error.
func mustSave(t testing.TB, svc artifacts.Service, key artifacts.Key, part *v1.Part) int64 {
	t.Helper()
	v, err := svc.Save(t.Context(), key, part, nil)
	if err != nil {
		t.Fatalf("Save(%+v): %v", key, err)
	}
	return v
}

// mustLoad loads a version, failing the test on error.
func mustLoad(t testing.TB, svc artifacts.Service, key artifacts.Key, version int64) *v1.Part {
	t.Helper()
	p, err := svc.Load(t.Context(), key, version)
	if err != nil {
		t.Fatalf("Load(%+v, %d): %v", key, version, err)
	}
	return p
}

// wantPart fails the test unless got equals want.
func wantPart(t testing.TB, what string, got, want *v1.Part) {
	t.Helper()
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

// wantNotFound fails the test unless err is [artifacts.ErrNotFound].
func wantNotFound(t testing.TB, what string, err error) {
	t.Helper()
	if !errors.Is(err, artifacts.ErrNotFound) {
		t.Errorf("%s: got error %v, want ErrNotFound", what, err)
	}
}

// wantInput fails the test unless err is an [*artifacts.InputError] whose
// message is msg.
func wantInput(t testing.TB, what string, err error, msg string) {
	t.Helper()
	var ie *artifacts.InputError
	if !errors.As(err, &ie) || !errors.Is(err, artifacts.ErrInvalidInput) {
		t.Errorf("%s: got error %v, want an InputError %q", what, err, msg)
		return
	}
	if msg != "" && ie.Message != msg {
		t.Errorf("%s: message %q, want %q", what, ie.Message, msg)
	}
}

// mustStruct builds a Struct from Go values, failing the test on error.
func mustStruct(t testing.TB, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatalf("structpb.NewStruct(%v): %v", m, err)
	}
	return s
}
