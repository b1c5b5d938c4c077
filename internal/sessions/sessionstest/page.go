package sessionstest

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

var pageCases = []contractCase{
	{"pages_cover_the_selection_oldest_first", func(t *testing.T, svc sessions.Service) {
		tests := []struct {
			name  string
			req   sessions.GetRequest
			size  int
			pages []int // events per page
			want  []string
		}{
			{"all", sessions.GetRequest{}, 3, []int{3, 3, 3, 1}, authors(0, 10)},
			{"one_page", sessions.GetRequest{}, 50, []int{10}, authors(0, 10)},
			{"last_n", sessions.GetRequest{NumRecentEvents: 4}, 3, []int{3, 1}, authors(6, 10)},
			{"after", sessions.GetRequest{AfterTimestamp: 105}, 2, []int{2, 2, 1}, authors(5, 10)},
			{"after_none", sessions.GetRequest{AfterTimestamp: 500}, 2, []int{0}, nil},
		}
		for _, tt := range tests {
			sess := create(t, svc, "app", "u1", tt.name, map[string]any{"k": "v"})
			for i := range 10 {
				appendEvent(t, svc, sess, event(t, fmt.Sprintf("a%d", i), nil, 100+float64(i)))
			}
			req := tt.req
			req.AppName, req.UserID, req.SessionID = "app", "u1", tt.name
			var got []string
			var sizes []int
			cur := sessions.Cursor{}
			for i := 0; ; i++ {
				page, next, err := svc.GetPage(t.Context(), req, sessions.PageRequest{Cursor: cur, Size: tt.size})
				if err != nil {
					t.Fatalf("%s: GetPage: %v", tt.name, err)
				}
				if page.GetState().GetFields()["k"].GetStringValue() != "v" {
					t.Errorf("%s: page state = %v", tt.name, page.GetState())
				}
				sizes = append(sizes, len(page.GetEvents()))
				for _, ev := range page.GetEvents() {
					got = append(got, ev.GetAuthor())
				}
				if i == 0 {
					// Appends during a listing do not extend it.
					appendEvent(t, svc, sess, event(t, "late", nil, 200))
				}
				if next.Done() {
					break
				}
				if next == cur || i > 20 {
					t.Fatalf("%s: the listing does not advance: %v", tt.name, next)
				}
				cur = next
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) || fmt.Sprint(sizes) != fmt.Sprint(tt.pages) {
				t.Errorf("%s: pages %v of %v, want %v of %v", tt.name, sizes, got, tt.pages, tt.want)
			}
		}
	}},
	{"pages_end_before_the_byte_budget", func(t *testing.T, svc sessions.Service) {
		sess := create(t, svc, "app", "u1", "s1", nil)
		for i, n := range []int{1000, 1000, 1000, 5000, 1000} {
			ev := event(t, fmt.Sprintf("a%d", i), nil, 0)
			ev.Content.Parts[0].Text = strings.Repeat("x", n)
			appendEvent(t, svc, sess, ev)
		}
		req := sessions.GetRequest{AppName: "app", UserID: "u1", SessionID: "s1"}
		var sizes []int
		cur := sessions.Cursor{}
		for !(len(sizes) > 0 && cur.Done()) && len(sizes) < 10 {
			page, next, err := svc.GetPage(t.Context(), req, sessions.PageRequest{Cursor: cur, Size: 10, MaxBytes: 2500})
			if err != nil {
				t.Fatal(err)
			}
			sizes = append(sizes, len(page.GetEvents()))
			cur = next
		}
		// Two of 1,000 bytes fit; the 5,000-byte one comes alone.
		if fmt.Sprint(sizes) != "[2 1 1 1]" {
			t.Errorf("page sizes = %v, want [2 1 1 1]", sizes)
		}
	}},
	{"page_of_missing_session", func(t *testing.T, svc sessions.Service) {
		_, _, err := svc.GetPage(t.Context(), sessions.GetRequest{AppName: "app", UserID: "u1", SessionID: "nope"},
			sessions.PageRequest{Size: 5})
		if !errors.Is(err, sessions.ErrNotFound) {
			t.Errorf("GetPage of a missing session: %v, want ErrNotFound", err)
		}
	}},
}

// authors are the authors a0 ... of events from to to (exclusive).
func authors(from, to int) []string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, fmt.Sprintf("a%d", i))
	}
	return out
}
