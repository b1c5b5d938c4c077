package redis

import (
	"errors"
	"strings"
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestLimitsCountSessionsStoredBeforeSizes: a session whose meta lacks the
// byte total (written before it was tracked) has its events counted on its
// next append, so the cap holds for it too.
func TestLimitsCountSessionsStoredBeforeSizes(t *testing.T) {
	t.Parallel()
	old := newTestService(t, Options{Limits: sessions.Limits{MaxEvents: -1, MaxBytes: -1}})
	capped, err := New(testURL(t), Options{KeyPrefix: old.keys.prefix, Limits: sessions.Limits{MaxBytes: 2500}})
	if err != nil {
		t.Fatal(err)
	}
	defer capped.Close()
	ctx := t.Context()
	event := func() *v1.Event {
		return &v1.Event{Author: "a", Content: &v1.Content{Parts: []*v1.Part{{Text: strings.Repeat("x", 1000)}}}}
	}
	sess, err := old.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: "s"})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := old.AppendEvent(ctx, sess, event()); err != nil {
			t.Fatal(err)
		}
	}
	meta := old.keys.session("app", "u", "s").meta
	if err := old.client.HDel(ctx, meta, "bytes").Err(); err != nil {
		t.Fatal(err)
	}
	if err := capped.AppendEvent(ctx, sess, event()); !errors.Is(err, sessions.ErrTooLarge) {
		t.Fatalf("append past the cap of a session without a byte total: %v, want ErrTooLarge", err)
	}
	small := &v1.Event{Author: "a"}
	if err := capped.AppendEvent(ctx, sess, small); err != nil {
		t.Fatalf("a small append: %v", err)
	}
	if n, err := old.client.HGet(ctx, meta, "bytes").Int(); err != nil || n < 2000 || n > 2500 {
		t.Errorf("stored byte total = %d, %v; want the three events' size", n, err)
	}
}
