package artifactstest

import (
	"fmt"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/artifacts"
)

// concurrentSaves is how many saves of one artifact race in a case.
const concurrentSaves = 16

var concurrencyCases = []contractCase{
	{"Concurrency/SavesOfOneArtifact", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		raceSaves(t, func(int) artifacts.Service { return svc }, sessionKey("contended"))
	}},
	{"Concurrency/SavesOfManyArtifacts", func(t *testing.T, f Factory) {
		svc := fresh(t, f)
		var wg sync.WaitGroup
		errs := make(chan error, concurrentSaves)
		for i := range concurrentSaves {
			wg.Go(func() {
				key := sessionKey(fmt.Sprintf("file-%d", i%4))
				if _, err := svc.Save(t.Context(), key, textPart("x"), nil); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		for i := range 4 {
			vs, err := svc.ListVersions(t.Context(), sessionKey(fmt.Sprintf("file-%d", i)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]int64{0, 1, 2, 3}, vs); diff != "" {
				t.Errorf("file-%d versions (-want +got):\n%s", i, diff)
			}
		}
	}},
}

// RunShared runs the cases that need several services over one store:
// saves of one artifact racing from several services, as from several
// processes.
func RunShared(t *testing.T, newServices SharedFactory) {
	t.Helper()
	t.Run("Concurrency/SavesAcrossServices", func(t *testing.T) {
		t.Parallel()
		svcs := newServices(t, 4)
		raceSaves(t, func(i int) artifacts.Service { return svcs[i%len(svcs)] }, sessionKey("shared"))
	})
	t.Run("Concurrency/UserScopedAcrossServices", func(t *testing.T) {
		t.Parallel()
		svcs := newServices(t, 4)
		// Sessions of one user, each through its own service.
		raceSaves(t, func(i int) artifacts.Service { return svcs[i%len(svcs)] }, sessionKey("user:shared"))
	})
}

// raceSaves saves key [concurrentSaves] times at once, save i through
// svc(i), and checks that every save got a version of its own, that none
// was lost, and that each version holds what its save wrote.
func raceSaves(t *testing.T, svc func(i int) artifacts.Service, key artifacts.Key) {
	t.Helper()
	versions := make([]int64, concurrentSaves)
	errs := make([]error, concurrentSaves)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range concurrentSaves {
		wg.Go(func() {
			<-start
			k := key
			k.SessionID = fmt.Sprintf("s%d", i%3+1)
			if !k.UserScoped() {
				k.SessionID = key.SessionID
			}
			versions[i], errs[i] = svc(i).Save(t.Context(), k, textPart(fmt.Sprintf("save %d", i)), nil)
		})
	}
	close(start)
	wg.Wait()

	owner := map[int64]int{}
	for i, err := range errs {
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
		if prev, dup := owner[versions[i]]; dup {
			t.Errorf("saves %d and %d both got version %d", prev, i, versions[i])
		}
		owner[versions[i]] = i
	}
	got, err := svc(0).ListVersions(t.Context(), key)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int64, concurrentSaves)
	for i := range want {
		want[i] = int64(i)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("versions after %d concurrent saves (-want +got):\n%s", concurrentSaves, diff)
	}
	for v, i := range owner {
		wantPart(t, fmt.Sprintf("version %d", v), mustLoad(t, svc(0), key, v), textPart(fmt.Sprintf("save %d", i)))
	}
}
