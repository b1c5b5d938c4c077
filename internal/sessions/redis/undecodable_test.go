package redis

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// deepValue is a value nested n lists deep.
func deepValue(n int) *structpb.Value {
	v := structpb.NewStringValue("secret")
	for range n {
		v = structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{v}})
	}
	return v
}

// TestReadSkipsWhatDoesNotDecode writes, straight into Redis, what earlier
// versions could store and then never read back: an event nested past
// protobuf's default recursion limit, bytes that are no event at all, and
// app state values too deep or broken. Every session of the app must stay
// readable, listable, creatable and leasable; what cannot be decoded at
// all is left out and reported without its content.
func TestReadSkipsWhatDoesNotDecode(t *testing.T) {
	t.Parallel()
	logs := &lockedBuffer{}
	svc := newTestService(t, Options{Logger: slog.New(slog.NewTextHandler(logs, nil))})
	ctx := t.Context()
	const app, user = "app", "u1"

	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: app, UserID: user, SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	good := &v1.Event{Id: "e1", InvocationId: "i1", Author: "user", Timestamp: 1,
		Content: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: "hi"}}}}
	if err := svc.AppendEvent(ctx, sess, good); err != nil {
		t.Fatal(err)
	}
	deep := &v1.Event{Id: "e2", InvocationId: "i1", Author: "user", Timestamp: 2, Actions: &v1.EventActions{
		StateDelta: &structpb.Struct{Fields: map[string]*structpb.Value{"deep": deepValue(6000)}}}}
	deepBytes, err := proto.Marshal(deep)
	if err != nil {
		t.Fatal(err)
	}
	if err := proto.Unmarshal(deepBytes, new(v1.Event)); err == nil {
		t.Fatal("the deep event decodes with protobuf's default limit; make it deeper")
	}
	sk := svc.keys.session(app, user, "s1")
	if err := svc.client.RPush(ctx, sk.events, deepBytes, "\xff\xff\xff not an event").Err(); err != nil {
		t.Fatal(err)
	}
	deepJSON := strings.Repeat("[", 12000) + `"secret"` + strings.Repeat("]", 12000)
	if err := svc.client.HSet(ctx, svc.keys.appState(app), "deep", deepJSON, "broken", `{"secret`, "fine", `"ok"`).Err(); err != nil {
		t.Fatal(err)
	}

	got, err := svc.Get(ctx, sessions.GetRequest{AppName: app, UserID: user, SessionID: "s1"})
	if err != nil {
		t.Fatalf("Get: %v", err)
	}
	if ids := eventIDs(got.Events); ids != "e1 e2" {
		t.Errorf("events = %q, want the good one and the deep one (the broken one skipped)", ids)
	}
	state := got.GetState().GetFields()
	if state["app:fine"].GetStringValue() != "ok" || state["app:deep"] == nil || state["app:broken"] != nil {
		t.Errorf("state keys = %v, want app:fine and app:deep, without app:broken", keysOf(state))
	}

	list, err := svc.List(ctx, app, user)
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %d sessions, %v; want 1", len(list), err)
	}
	if _, err := svc.Create(ctx, sessions.CreateRequest{AppName: app, UserID: "u2", SessionID: "s2"}); err != nil {
		t.Fatalf("Create of another user's session: %v", err)
	}
	lease, err := svc.Lease(ctx, app, user, "s1", "owner", time.Minute)
	if err != nil {
		t.Fatalf("Lease: %v", err)
	}
	// The session takes new events after the skipped one.
	if err := svc.AppendEvent(ctx, got, &v1.Event{Id: "e3", InvocationId: "i2", Author: "user", Timestamp: 3}); err != nil {
		t.Fatalf("AppendEvent after a skipped event: %v", err)
	}
	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}

	out := logs.String()
	for _, want := range []string{"skipped a stored event", "index=2", sk.events, "skipped a stored state value", "state_key=broken"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "secret") || strings.Contains(out, "not an event") {
		t.Errorf("log holds stored content:\n%s", out)
	}
}

func eventIDs(events []*v1.Event) string {
	ids := make([]string, len(events))
	for i, ev := range events {
		ids[i] = ev.GetId()
	}
	return strings.Join(ids, " ")
}

func keysOf(m map[string]*structpb.Value) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
