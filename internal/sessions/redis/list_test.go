package redis

import (
	"fmt"
	"slices"
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestListPagesOfSessionsCreatedAtOnce: sessions that share a creation
// time (one index score) are paged by id, none repeated or skipped, and
// every page takes two round trips however many sessions the user has.
func TestListPagesOfSessionsCreatedAtOnce(t *testing.T) {
	t.Parallel()
	svc, counter := newCountingService(t, Options{})
	ctx := t.Context()
	var want []string
	for i := range 40 {
		id := fmt.Sprintf("s%02d", i)
		if _, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: id}); err != nil {
			t.Fatal(err)
		}
		want = append(want, id)
	}
	// s00..s04 and s05..s09 were created in one microsecond each.
	index := svc.keys.index("app", "u")
	for i, id := range want[:10] {
		if err := svc.client.ZAdd(ctx, index, goredis.Z{Score: float64(1_000_000 + i/5), Member: id}).Err(); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	var cur sessions.ListCursor
	for page := 0; ; page++ {
		counter.reset()
		list, next, err := svc.ListPage(ctx, "app", "u", sessions.ListPageRequest{After: cur, Size: 3})
		if err != nil {
			t.Fatal(err)
		}
		// A new connection's handshake is no round trip of the page.
		_, cmds := counter.reset()
		cmds = slices.DeleteFunc(cmds, func(c string) bool { return c == "hello" })
		if len(cmds) != 2 {
			t.Errorf("page %d took %d round trips (%v), want 2", page, len(cmds), cmds)
		}
		for _, s := range list {
			got = append(got, s.GetId())
		}
		if next.Start() {
			break
		}
		if page > 20 {
			t.Fatal("the listing does not end")
		}
		cur = next
	}
	if !slices.Equal(got, want) {
		t.Errorf("pages = %v, want %v", got, want)
	}
}
