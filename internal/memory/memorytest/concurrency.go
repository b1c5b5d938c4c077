package memorytest

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

var concurrencyCases = []contractCase{
	{"ConcurrentAddsAndSearches", testConcurrentAddsAndSearches},
	{"ConcurrentReAddsAreAtomic", testConcurrentReAddsAreAtomic},
}

const (
	concurrentSessions = 16
	entriesPerSession  = 5
)

// testConcurrentAddsAndSearches: sessions added at once by many goroutines
// all end up remembered, and a search running alongside sees each session
// whole or not at all, its entries together and in order.
func testConcurrentAddsAndSearches(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	var wg sync.WaitGroup
	errs := make(chan error, 2*concurrentSessions)
	for i := range concurrentSessions {
		wg.Go(func() {
			id := fmt.Sprintf("s%d", i)
			events := make([]*v1.Event, entriesPerSession)
			for j := range events {
				events[j] = said("agent", float64(j), fmt.Sprintf("shared %s %s", spell(i), spell(j)))
			}
			if err := svc.AddSession(t.Context(), session("app", "u", id, events...)); err != nil {
				errs <- err
			}
		})
		wg.Go(func() {
			got, err := svc.Search(t.Context(), "app", "u", "shared")
			if err != nil {
				errs <- err
				return
			}
			if err := wholeSessions(texts(got)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := texts(search(t, svc, "app", "u", "shared"))
	if len(got) != concurrentSessions*entriesPerSession {
		t.Fatalf("found %d entries, want %d", len(got), concurrentSessions*entriesPerSession)
	}
	if err := wholeSessions(got); err != nil {
		t.Error(err)
	}
}

// wholeSessions checks that found, texts "shared <session> <index>", holds
// every session it holds whole, in order, its entries together.
func wholeSessions(found []string) error {
	for at := 0; at < len(found); at += entriesPerSession {
		if at+entriesPerSession > len(found) {
			return fmt.Errorf("a session is cut short: %q", found[at:])
		}
		sess := strings.Fields(found[at])[1]
		for j := range entriesPerSession {
			if want := "shared " + sess + " " + spell(j); found[at+j] != want {
				return fmt.Errorf("entry %d is %q, want %q", at+j, found[at+j], want)
			}
		}
	}
	return nil
}

// testConcurrentReAddsAreAtomic: a session re-added by several goroutines
// at once ends as one of the versions, whole; searches alongside never see
// two versions mixed.
func testConcurrentReAddsAreAtomic(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	const versions = 8
	var wg sync.WaitGroup
	errs := make(chan error, 4*versions)
	for v := range versions {
		wg.Go(func() {
			for range 3 {
				events := make([]*v1.Event, entriesPerSession)
				for j := range events {
					events[j] = said("agent", float64(j), fmt.Sprintf("shared %s %s", spell(v), spell(j)))
				}
				if err := svc.AddSession(t.Context(), session("app", "u", "s1", events...)); err != nil {
					errs <- err
				}
			}
		})
		wg.Go(func() {
			got, err := svc.Search(t.Context(), "app", "u", "shared")
			if err != nil {
				errs <- err
				return
			}
			if len(got) != 0 && len(got) != entriesPerSession {
				errs <- fmt.Errorf("a search found %d entries: %q", len(got), texts(got))
			}
			if err := wholeSessions(texts(got)); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := texts(search(t, svc, "app", "u", "shared"))
	if len(got) != entriesPerSession {
		t.Fatalf("found %d entries, want one version of %d", len(got), entriesPerSession)
	}
	if err := wholeSessions(got); err != nil {
		t.Error(err)
	}
}
