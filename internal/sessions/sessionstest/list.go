package sessionstest

import (
	"fmt"
	"slices"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

var listCases = []contractCase{
	{"count_is_the_users_sessions", func(t *testing.T, svc sessions.Service) {
		c, ok := svc.(sessions.Counter)
		if !ok {
			t.Skip("the store does not count")
		}
		for i := range 3 {
			create(t, svc, "app", "u1", fmt.Sprintf("s%d", i), nil)
		}
		create(t, svc, "app", "u2", "other", nil)
		if err := svc.Delete(t.Context(), "app", "u1", "s1"); err != nil {
			t.Fatal(err)
		}
		for user, want := range map[string]int{"u1": 2, "u2": 1, "u3": 0} {
			if n, err := c.Count(t.Context(), "app", user); err != nil || n != want {
				t.Errorf("Count(%s) = %d, %v; want %d", user, n, err, want)
			}
		}
	}},
	{"list_pages_cover_the_list_in_order", func(t *testing.T, svc sessions.Service) {
		for i := range 7 {
			create(t, svc, "app", "u1", fmt.Sprintf("s%d", i), map[string]any{"k": i})
		}
		create(t, svc, "app", "u2", "other", nil)
		all, err := svc.List(t.Context(), "app", "u1")
		if err != nil {
			t.Fatal(err)
		}
		want := sessionIDs(all)
		tests := []struct {
			size  int
			pages []int
		}{
			{1, []int{1, 1, 1, 1, 1, 1, 1}},
			{3, []int{3, 3, 1}},
			{7, []int{7}},
			{50, []int{7}},
		}
		for _, tt := range tests {
			pages, got := listPages(t, svc, "u1", tt.size, nil)
			if !slices.Equal(pages, tt.pages) || !slices.Equal(got, want) {
				t.Errorf("pages of %d: %v %v, want %v %v", tt.size, pages, got, tt.pages, want)
			}
		}
		page, next, err := svc.ListPage(t.Context(), "app", "u1", sessions.ListPageRequest{Size: 2})
		if err != nil || len(page) != 2 || page[0].GetState().GetFields()["k"].GetNumberValue() != 0 || len(page[0].GetEvents()) != 0 {
			t.Errorf("first page of 2 = %v, %v; want s0 with its state and no events, and s1", page, err)
		}
		if next.Start() {
			t.Error("first page of 2 of 7: no next cursor")
		}
		none, next, err := svc.ListPage(t.Context(), "app", "nobody", sessions.ListPageRequest{Size: 2})
		if err != nil || len(none) != 0 || !next.Start() {
			t.Errorf("ListPage of an unknown user = %v, %v, %v; want empty, the end, nil", none, next, err)
		}
	}},
	{"list_pages_survive_creates_and_deletes", func(t *testing.T, svc sessions.Service) {
		for i := range 6 {
			create(t, svc, "app", "u1", fmt.Sprintf("s%d", i), nil)
		}
		all, err := svc.List(t.Context(), "app", "u1")
		if err != nil {
			t.Fatal(err)
		}
		ids := sessionIDs(all)
		// After the first page: its last session and a later one are
		// deleted, and a new one is created.
		_, got := listPages(t, svc, "u1", 2, func() {
			for _, id := range []string{ids[1], ids[3]} {
				if err := svc.Delete(t.Context(), "app", "u1", id); err != nil {
					t.Fatal(err)
				}
			}
			create(t, svc, "app", "u1", "late", nil)
		})
		want := []string{ids[0], ids[1], ids[2], ids[4], ids[5], "late"}
		if !slices.Equal(got, want) {
			t.Errorf("listing across changes = %v, want %v", got, want)
		}
	}},
}

// listPages reads every page of user's sessions, of size each,
// calling between (when not nil) after the first page, and returns the
// page lengths and the ids in order.
func listPages(t *testing.T, svc sessions.Service, user string, size int, between func()) (pages []int, ids []string) {
	t.Helper()
	var cur sessions.ListCursor
	for i := 0; ; i++ {
		page, next, err := svc.ListPage(t.Context(), "app", user, sessions.ListPageRequest{After: cur, Size: size})
		if err != nil {
			t.Fatalf("ListPage %d of %d: %v", i, size, err)
		}
		pages = append(pages, len(page))
		ids = append(ids, sessionIDs(page)...)
		if i == 0 && between != nil {
			between()
		}
		if next.Start() {
			return pages, ids
		}
		if next == cur || i > 50 {
			t.Fatalf("pages of %d: the listing does not advance: %v", size, next)
		}
		cur = next
	}
}

func sessionIDs(list []*v1.Session) []string {
	ids := make([]string, len(list))
	for i, s := range list {
		ids[i] = s.GetId()
	}
	return ids
}
