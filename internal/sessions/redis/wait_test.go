package redis

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// TestWriteWithoutReplicaIsNotAcknowledged waits for a replica the test
// server does not have: creates and appends fail as unavailable, after the
// wait's timeout and not the read timeout, and a retry of the append once a
// replica would have confirmed it is recognised as the same append.
func TestWriteWithoutReplicaIsNotAcknowledged(t *testing.T) {
	t.Parallel()
	plain := newTestService(t, Options{})
	waiting, err := New(testURL(t), Options{KeyPrefix: plain.keys.prefix, WaitReplicas: 1, WaitTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer waiting.Close()
	ctx := t.Context()

	if _, err := waiting.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: "w"}); !errors.Is(err, sessions.ErrUnavailable) {
		t.Errorf("Create waiting for a missing replica = %v, want ErrUnavailable", err)
	}
	sess, err := plain.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	handle := sess.LastUpdateTime
	ev := textEvent(t, "unconfirmed", nil)
	ev.Id = "ev-1"
	start := time.Now()
	err = waiting.AppendEvent(ctx, sess, ev)
	if !errors.Is(err, sessions.ErrUnavailable) || !strings.Contains(err.Error(), "replicas") {
		t.Fatalf("AppendEvent waiting for a missing replica = %v, want ErrUnavailable naming the replicas", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the refused append took %v, want about the 50ms wait", d)
	}
	if sess.LastUpdateTime != handle || len(sess.Events) != 0 {
		t.Errorf("the refused append changed the handle: %v, %d events", sess.LastUpdateTime, len(sess.Events))
	}
	// The primary applied it; the retry is recognised, not stored twice.
	if err := plain.AppendEvent(ctx, sess, ev); err != nil {
		t.Fatalf("retry: %v", err)
	}
	got, err := plain.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 1 || got.Events[0].Id != "ev-1" {
		t.Errorf("stored %d events, want the one", len(got.Events))
	}
}
