package redis

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	goredis "github.com/redis/go-redis/v9"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

func mustStruct(t testing.TB, m map[string]any) *structpb.Struct {
	t.Helper()
	s, err := structpb.NewStruct(m)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func textEvent(t testing.TB, text string, delta map[string]any) *v1.Event {
	t.Helper()
	ev := &v1.Event{
		InvocationId: "e-test", Author: "agent",
		Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: text}}},
	}
	if delta != nil {
		ev.Actions = &v1.EventActions{StateDelta: mustStruct(t, delta)}
	}
	return ev
}

func TestEachOperationIsOneRoundTrip(t *testing.T) {
	t.Parallel()
	svc, counter := newCountingService(t, Options{TTL: time.Hour})
	ctx := t.Context()
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", State: mustStruct(t, map[string]any{"app:a": 1})})
	if err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name string
		op   func() error
	}{
		{"create", func() error {
			_, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", State: mustStruct(t, map[string]any{"user:u": 1, "k": 2})})
			return err
		}},
		{"append", func() error {
			return svc.AppendEvent(ctx, sess, textEvent(t, "x", map[string]any{"k": 1, "app:a": 2, "user:u": 3, "temp:t": 4}))
		}},
		{"get_last_n", func() error {
			_, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id, NumRecentEvents: 1})
			return err
		}},
		{"get_after", func() error {
			_, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id, AfterTimestamp: 1})
			return err
		}},
		{"delete", func() error { return svc.Delete(ctx, "app", "u", "missing") }},
	}
	for _, tc := range tests {
		// The first call may load the script: a cold cache costs an EVAL.
		if err := tc.op(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		counter.reset()
		if err := tc.op(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n, cmds := counter.reset(); n != 1 || !strings.HasPrefix(cmds[0], "evalsha") {
			t.Errorf("%s took %d round trips (%v), want 1 EVALSHA", tc.name, n, cmds)
		}
	}
}

// TestAppendSurvivesScriptCacheFlush is not parallel: it empties the
// server's script cache, which would cost parallel tests a round trip.
func TestAppendSurvivesScriptCacheFlush(t *testing.T) {
	svc, counter := newCountingService(t, Options{})
	ctx := t.Context()
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.client.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	counter.reset()
	if err := svc.AppendEvent(ctx, sess, textEvent(t, "after flush", nil)); err != nil {
		t.Fatal(err)
	}
	if n, cmds := counter.reset(); n != 2 || cmds[0] != "evalsha" || cmds[1] != "eval" {
		t.Errorf("append after SCRIPT FLUSH sent %v, want evalsha then eval", cmds)
	}
}

func TestKeyLayout(t *testing.T) {
	t.Parallel()
	const ttl = time.Hour
	svc := newTestService(t, Options{TTL: ttl})
	ctx := t.Context()
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: "s",
		State: mustStruct(t, map[string]any{"k": "v"})})
	if err != nil {
		t.Fatal(err)
	}
	ev := textEvent(t, "hello", map[string]any{"n": nil, "app:a": []any{1}, "user:u": map[string]any{"x": true}, "temp:t": 1})
	if err := svc.AppendEvent(ctx, sess, ev); err != nil {
		t.Fatal(err)
	}
	p := svc.keys.prefix
	tag := p + ":{app/u/s}:"
	c := svc.client

	wantHashes := map[string]map[string]string{
		tag + "state":           {"k": `"v"`, "n": "null"},
		p + ":app:app:state":    {"a": "[1]"},
		p + ":user:app/u:state": {"u": `{"x":true}`},
	}
	for key, want := range wantHashes {
		got, err := c.HGetAll(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", key, diff)
		}
	}
	meta, err := c.HGetAll(ctx, tag+"meta").Result()
	if err != nil {
		t.Fatal(err)
	}
	if meta["ver"] != formatVersion(int64(sess.LastUpdateTime*1e6+0.5)) || meta["last_event"] != ev.Id || meta["created"] == "" {
		t.Errorf("meta = %v, handle version %f, event %s", meta, sess.LastUpdateTime, ev.Id)
	}
	raw, err := c.LRange(ctx, tag+"events", 0, -1).Result()
	if err != nil || len(raw) != 1 {
		t.Fatalf("events list = %d entries, %v", len(raw), err)
	}
	stored := new(v1.Event)
	if err := proto.Unmarshal([]byte(raw[0]), stored); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ev, stored, protocmp.Transform()); diff != "" {
		t.Errorf("stored event (-appended +stored):\n%s", diff)
	}
	scores, err := c.ZRangeWithScores(ctx, tag+"ts", 0, -1).Result()
	if err != nil || len(scores) != 1 || scores[0].Member != "0" || scores[0].Score != ev.Timestamp {
		t.Errorf("timestamp index = %v, %v; want member 0 scored %f", scores, err, ev.Timestamp)
	}
	if ids, err := c.ZRange(ctx, p+":idx:app/u", 0, -1).Result(); err != nil || len(ids) != 1 || ids[0] != "s" {
		t.Errorf("index = %v, %v", ids, err)
	}

	for _, key := range []string{tag + "meta", tag + "events", tag + "ts", tag + "state", p + ":idx:app/u"} {
		if d, err := c.PTTL(ctx, key).Result(); err != nil || d <= ttl-time.Minute || d > ttl {
			t.Errorf("PTTL %s = %v, %v; want about %v", key, d, err, ttl)
		}
	}
	for _, key := range []string{p + ":app:app:state", p + ":user:app/u:state"} {
		if d, err := c.PTTL(ctx, key).Result(); err != nil || d != -1 {
			t.Errorf("PTTL %s = %v, %v; want none", key, d, err)
		}
	}
}

func TestNamesAreEscaped(t *testing.T) {
	t.Parallel()
	k := keyspace{prefix: "as"}
	if a, b := k.session("a/b", "c", "s"), k.session("a", "b/c", "s"); a == b {
		t.Errorf("sessions of different apps share keys %v", a)
	}
	if a, b := k.userState("a/b", "c"), k.userState("a", "b/c"); a == b {
		t.Errorf("user state of different users shares key %q", a)
	}
	got := k.session("a}p{p", "u%/", "{id}")
	if want := "as:{a%7Dp%7Bp/u%25%2F/%7Bid%7D}:meta"; got.meta != want {
		t.Errorf("meta key = %q, want %q", got.meta, want)
	}

	svc := newTestService(t, Options{})
	ctx := t.Context()
	for _, r := range []sessions.CreateRequest{{AppName: "a/b", UserID: "c", SessionID: "s"}, {AppName: "a", UserID: "b/c", SessionID: "s"}} {
		if _, err := svc.Create(ctx, r); err != nil {
			t.Fatalf("Create(%+v): %v", r, err)
		}
	}
}

func TestRetriedAppendIsStoredOnce(t *testing.T) {
	t.Parallel()
	svc := newTestService(t, Options{})
	// Every attempt sees a later clock, as a retry after an outage does.
	clock := time.UnixMicro(1_800_000_000_000_000)
	svc.now = func() time.Time {
		clock = clock.Add(time.Millisecond)
		return clock
	}
	ctx := t.Context()
	sess, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u"})
	if err != nil {
		t.Fatal(err)
	}
	// The caller's view after a lost reply: the handle did not move, but
	// the event was stored.
	lost := proto.Clone(sess).(*v1.Session)
	ev := textEvent(t, "once", map[string]any{"k": 1})
	ev.Id = "ev-1"
	if err := svc.AppendEvent(ctx, sess, ev); err != nil {
		t.Fatal(err)
	}
	retry := textEvent(t, "once", map[string]any{"k": 1})
	retry.Id = "ev-1"
	if err := svc.AppendEvent(ctx, lost, retry); err != nil {
		t.Fatalf("retried append: %v", err)
	}
	if lost.LastUpdateTime != sess.LastUpdateTime {
		t.Errorf("retried handle version %f, want the stored %f", lost.LastUpdateTime, sess.LastUpdateTime)
	}
	// The retry computed a later timestamp of its own; the event keeps the
	// one it was stored with.
	if retry.Timestamp != ev.Timestamp {
		t.Errorf("retried event timestamp %f, want the stored %f", retry.Timestamp, ev.Timestamp)
	}
	got, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: sess.Id})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Events) != 1 {
		t.Fatalf("stored %d events, want 1", len(got.Events))
	}
	if diff := cmp.Diff(got, lost, protocmp.Transform()); diff != "" {
		t.Errorf("retried handle differs from the stored session (-stored +handle):\n%s", diff)
	}
	// Any other event through the stale handle is refused.
	stale := proto.Clone(sess).(*v1.Session)
	if err := svc.AppendEvent(ctx, sess, textEvent(t, "next", nil)); err != nil {
		t.Fatal(err)
	}
	if err := svc.AppendEvent(ctx, stale, textEvent(t, "other", nil)); !errors.Is(err, sessions.ErrStale) {
		t.Errorf("append through a stale handle: %v, want ErrStale", err)
	}
}

func TestLeaseOfCrashedReplicaExpires(t *testing.T) {
	t.Parallel()
	svc := newTestService(t, Options{})
	ctx := t.Context()
	key := svc.keys.session("app", "u", "s").lease
	// What a replica that died holding the lease leaves behind.
	if err := svc.client.Set(ctx, key, "dead-replica", 300*time.Millisecond).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Lease(ctx, "app", "u", "s", "live", time.Second); !errors.Is(err, sessions.ErrBusy) {
		t.Fatalf("Lease: %v, want ErrBusy", err)
	}
	time.Sleep(400 * time.Millisecond)
	l, err := svc.Lease(ctx, "app", "u", "s", "live", time.Second)
	if err != nil {
		t.Fatalf("Lease after expiry: %v", err)
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestLostLeaseIsNeitherRenewedNorReleased(t *testing.T) {
	t.Parallel()
	svc := newTestService(t, Options{})
	ctx := t.Context()
	l, err := svc.Lease(ctx, "app", "u", "s", "first", 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	key := svc.keys.session("app", "u", "s").lease
	// Another owner took over, as after a pause longer than the ttl.
	if err := svc.client.Set(ctx, key, "second", time.Minute).Err(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // renewals run and find the lease lost
	select {
	case <-l.Lost():
	default:
		t.Error("lease taken by another owner not reported lost")
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	owner, err := svc.client.Get(ctx, key).Result()
	if err != nil || owner != "second" {
		t.Errorf("lease owner = %q, %v; want second", owner, err)
	}
	if d, err := svc.client.PTTL(ctx, key).Result(); err != nil || d < 50*time.Second {
		t.Errorf("second owner's lease ttl = %v, %v; a renewal touched it", d, err)
	}
}

// slowFirstReply delays the first successful reply to a script by d, as a
// loaded server or process does.
type slowFirstReply struct {
	d    time.Duration
	done atomic.Bool
}

func (h *slowFirstReply) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (h *slowFirstReply) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		err := next(ctx, cmd)
		if name := cmd.Name(); err == nil && (name == "evalsha" || name == "eval") && h.done.CompareAndSwap(false, true) {
			time.Sleep(h.d)
		}
		return err
	}
}

func (h *slowFirstReply) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return next
}

// TestLeaseSurvivesSlowAcquireReply: the server set the lease's expiry when
// it ran the acquiring script, so renewals must be timed from then, not from
// when the slow reply arrived.
func TestLeaseSurvivesSlowAcquireReply(t *testing.T) {
	t.Parallel()
	const ttl = 2 * time.Second
	svc := newTestService(t, Options{})
	svc.client.AddHook(&slowFirstReply{d: ttl * 8 / 10})
	ctx := t.Context()
	sent := time.Now()
	l, err := svc.Lease(ctx, "app", "u", "s", "slow", ttl)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Release(ctx) }()
	// Past the expiry the acquisition set: only a renewal keeps the lease.
	time.Sleep(time.Until(sent.Add(ttl + ttl/4)))
	if _, err := svc.Lease(ctx, "app", "u", "s", "other", ttl); !errors.Is(err, sessions.ErrBusy) {
		t.Errorf("Lease by another owner %v after a slowly acknowledged lease was taken: %v, want ErrBusy", time.Since(sent).Round(time.Millisecond), err)
	}
}

func TestNewAppliesURLAndOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		url  string
		opts Options
		want func(t *testing.T, s *Service)
	}{
		{"tls_password_db", "rediss://:secret@cache.example:6380/3", Options{DialTimeout: time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 3 * time.Second, PoolSize: 7}, func(t *testing.T, s *Service) {
			o := s.client.(*goredis.Client).Options()
			if o.TLSConfig == nil || o.TLSConfig.ServerName != "cache.example" || o.Password != "secret" || o.DB != 3 || o.Addr != "cache.example:6380" {
				t.Errorf("connection options = tls %v, password %q, db %d, addr %q", o.TLSConfig, o.Password, o.DB, o.Addr)
			}
			if o.DialTimeout != time.Second || o.ReadTimeout != 2*time.Second || o.WriteTimeout != 3*time.Second || o.PoolSize != 7 {
				t.Errorf("timeouts/pool = %v %v %v %d", o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolSize)
			}
		}},
		{"defaults", "redis://localhost:6379/0", Options{}, func(t *testing.T, s *Service) {
			o := s.client.(*goredis.Client).Options()
			if !o.DisableIdentity || !o.ContextTimeoutEnabled || o.TLSConfig != nil {
				t.Errorf("DisableIdentity %v, ContextTimeoutEnabled %v, TLS %v", o.DisableIdentity, o.ContextTimeoutEnabled, o.TLSConfig)
			}
			if s.keys.prefix != DefaultKeyPrefix || s.ttlMS != 0 {
				t.Errorf("prefix %q, ttl %d ms", s.keys.prefix, s.ttlMS)
			}
		}},
		{"url_query_kept_when_options_are_zero", "redis://localhost:6379/0?dial_timeout=7s&pool_size=3", Options{TTL: 90 * time.Second, KeyPrefix: "x"}, func(t *testing.T, s *Service) {
			o := s.client.(*goredis.Client).Options()
			if o.DialTimeout != 7*time.Second || o.PoolSize != 3 || s.ttlMS != 90_000 || s.keys.prefix != "x" {
				t.Errorf("dial %v, pool %d, ttl %d ms, prefix %q", o.DialTimeout, o.PoolSize, s.ttlMS, s.keys.prefix)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := New(tc.url, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			tc.want(t, s)
		})
	}
	if _, err := New("http://nope", Options{}); err == nil {
		t.Error("New accepted an http URL")
	}
}

func TestUnreachableAndCancelled(t *testing.T) {
	t.Parallel()
	// Nothing listens on port 1.
	svc, err := New("redis://127.0.0.1:1/0", Options{MaxRetries: -1, DialTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := t.Context()
	calls := map[string]func(context.Context) error{
		"create": func(ctx context.Context) error {
			_, err := svc.Create(ctx, sessions.CreateRequest{AppName: "a", UserID: "u"})
			return err
		},
		"get": func(ctx context.Context) error {
			_, err := svc.Get(ctx, sessions.GetRequest{AppName: "a", UserID: "u", SessionID: "s"})
			return err
		},
		"append": func(ctx context.Context) error {
			return svc.AppendEvent(ctx, &v1.Session{AppName: "a", UserId: "u", Id: "s"}, &v1.Event{})
		},
		"lease": func(ctx context.Context) error {
			_, err := svc.Lease(ctx, "a", "u", "s", "o", time.Second)
			return err
		},
		"ping": svc.Ping,
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for name, call := range calls {
		if err := call(ctx); !errors.Is(err, sessions.ErrUnavailable) {
			t.Errorf("%s with Redis unreachable: %v, want ErrUnavailable", name, err)
		}
		if err := call(cancelled); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: %v, want context.Canceled", name, err)
		}
	}
}
