package redis

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

func TestAppBacklog(t *testing.T) {
	t.Parallel()
	var b appBacklog
	if got := b.with("a", []any{"x", []byte("1")}); len(got) != 2 {
		t.Fatalf("with on an empty backlog = %v, want the pairs alone", got)
	}
	if !b.add("a", []any{"x", []byte("1"), "y", []byte("2")}) {
		t.Error("first add: want the flusher started")
	}
	if b.add("a", []any{"x", []byte("3")}) {
		t.Error("add while flushing: want no second flusher")
	}
	// A later write of y carries x along, and its own y wins.
	got := b.with("a", []any{"y", []byte("4")})
	want := []any{"x", "3", "y", []byte("4")}
	if !slices.EqualFunc(got, want, func(a, b any) bool { return encodedString(a) == encodedString(b) }) {
		t.Errorf("with = %v, want %v", got, want)
	}
	if got := b.with("other", nil); len(got) != 0 {
		t.Errorf("with of another app = %v, want nothing", got)
	}
	// A write of an older x does not drop the newer pending one.
	b.written("a", []any{"x", []byte("1"), "y", []byte("2")})
	if n := b.size(); n != 1 {
		t.Errorf("after writing an older x and the pending y: size = %d, want 1", n)
	}
	b.written("a", got)
	if n := b.size(); n != 0 {
		t.Errorf("after writing the backlog: size = %d, want 0", n)
	}
	if apps := b.apps(); apps != nil {
		t.Errorf("apps of an empty backlog = %v, want nil", apps)
	}
	if !b.add("a", []any{"z", []byte("5")}) {
		t.Error("add after the flusher stopped: want it started again")
	}
}

// TestUnconfirmedAppendKeepsItsAppKeys appends on a cluster waiting for more
// replicas than a shard has: the primary stores the event but the append
// fails unconfirmed, and its app keys go to the backlog rather than being
// dropped while the event stays.
func TestUnconfirmedAppendKeepsItsAppKeys(t *testing.T) {
	t.Parallel()
	plain, _ := newClusterTestService(t, Options{WaitReplicas: -1})
	strict, err := New(testClusterURL(t), Options{KeyPrefix: plain.keys.prefix, WaitReplicas: 2, WaitTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer strict.Close()
	ctx := t.Context()
	sess, err := plain.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	if err := strict.AppendEvent(ctx, sess, textEvent(t, "x", map[string]any{"app:k": 1})); !errors.Is(err, sessions.ErrUnavailable) {
		t.Fatalf("append waiting for 2 replicas of 1 = %v, want ErrUnavailable", err)
	}
	if n := strict.backlog.size(); n != 1 {
		t.Errorf("backlog after the unconfirmed append holds %d fields, want its app key", n)
	}
	got, err := plain.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 1 {
		t.Errorf("stored %d events, want the unconfirmed one", len(got.Events))
	}
}
