package redis

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/sessionstest"
)

// privateRedis is a redis-server process owned by one test, with an
// append-only file synced on every write so that what it acknowledged
// survives a kill.
type privateRedis struct {
	t    *testing.T
	port int
	dir  string
	cmd  *exec.Cmd
}

func startPrivateRedis(t *testing.T) *privateRedis {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server is not on PATH: %v", err)
		}
		t.Skipf("redis-server is not on PATH: %v", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	r := &privateRedis{t: t, port: port, dir: t.TempDir()}
	r.start()
	t.Cleanup(r.kill)
	return r
}

func (r *privateRedis) url() string {
	return fmt.Sprintf("redis://127.0.0.1:%d/0", r.port)
}

// start runs the server on its port and data directory and waits for PING.
func (r *privateRedis) start() {
	r.t.Helper()
	log, err := os.OpenFile(filepath.Join(r.dir, "redis.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		r.t.Fatal(err)
	}
	defer log.Close()
	r.cmd = exec.Command("redis-server",
		"--port", strconv.Itoa(r.port), "--bind", "127.0.0.1", "--dir", r.dir,
		"--save", "", "--appendonly", "yes", "--appendfsync", "always")
	r.cmd.Stdout, r.cmd.Stderr = log, log
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	probe := goredis.NewClient(&goredis.Options{Addr: fmt.Sprintf("127.0.0.1:%d", r.port), DisableIdentity: true, MaxRetries: -1})
	defer probe.Close()
	deadline := time.Now().Add(10 * time.Second)
	for probe.Ping(r.t.Context()).Err() != nil {
		if time.Now().After(deadline) {
			logText, _ := os.ReadFile(filepath.Join(r.dir, "redis.log"))
			r.t.Fatalf("redis-server on port %d did not answer; log:\n%s", r.port, logText)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// kill stops the server with SIGKILL, as a crash would.
func (r *privateRedis) kill() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	_ = r.cmd.Wait()
	r.cmd = nil
}

// TestRedisKilledMidInvocation kills the server under writers, restarts it,
// and checks that the same Service recovers and that each session holds
// exactly the events that were acknowledged, whole.
func TestRedisKilledMidInvocation(t *testing.T) {
	t.Parallel()
	srv := startPrivateRedis(t)
	svc, err := New(srv.url(), Options{
		KeyPrefix:   "fault",
		DialTimeout: 250 * time.Millisecond, ReadTimeout: time.Second, WriteTimeout: time.Second,
		MaxRetries: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := t.Context()

	const writers = 4
	handles := make([]*v1.Session, writers)
	for w := range handles {
		if handles[w], err = svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: fmt.Sprintf("s%d", w)}); err != nil {
			t.Fatal(err)
		}
	}

	var (
		acked       atomic.Int64
		unavailable atomic.Int64
		afterBack   atomic.Int64
		restarted   atomic.Bool
		stop        = make(chan struct{})
		wg          sync.WaitGroup
		ackedIDs    = make([][]string, writers)
	)
	for w := range writers {
		wg.Go(func() {
			// An invocation: append events in order; on an outage, retry
			// the same event (same id) until it is acknowledged. It stops
			// only between events: an append that failed may still have
			// been applied (the server can die after writing it and before
			// replying), so giving up on it would leave an event in the
			// store that the writer never saw acknowledged.
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id := fmt.Sprintf("w%d-%05d", w, i)
				if !appendUntilAcknowledged(t, svc, handles[w], id, func() *v1.Event {
					return textEvent(t, fmt.Sprintf("w%d e%d", w, i), map[string]any{"i": i, fmt.Sprintf("user:w%d", w): i})
				}, &unavailable) {
					return
				}
				ackedIDs[w] = append(ackedIDs[w], id)
				acked.Add(1)
				if restarted.Load() {
					afterBack.Add(1)
				}
			}
		})
	}

	waitFor(t, "200 acknowledged appends", func() bool { return acked.Load() >= 200 })
	srv.kill()
	waitFor(t, "appends failing with ErrUnavailable", func() bool { return unavailable.Load() >= writers })
	if _, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: "s0"}); !errors.Is(err, sessions.ErrUnavailable) {
		t.Errorf("Get while Redis is down: %v, want ErrUnavailable", err)
	}
	if _, err := svc.Lease(ctx, "app", "u", "s0", "o", time.Second); !errors.Is(err, sessions.ErrUnavailable) {
		t.Errorf("Lease while Redis is down: %v, want ErrUnavailable", err)
	}
	srv.start()
	restarted.Store(true)
	waitFor(t, "appends succeeding after the restart", func() bool { return afterBack.Load() >= 100 })
	close(stop)
	wg.Wait()
	t.Logf("%d appends acknowledged, %d failed as unavailable while Redis was down", acked.Load(), unavailable.Load())

	for w, h := range handles {
		stored, err := svc.Get(ctx, sessions.GetRequest{AppName: "app", UserID: "u", SessionID: h.Id})
		if err != nil {
			t.Fatalf("Get %s after the restart: %v", h.Id, err)
		}
		var ids []string
		for _, ev := range stored.Events {
			ids = append(ids, ev.Id)
		}
		if fmt.Sprint(ids) != fmt.Sprint(ackedIDs[w]) {
			t.Errorf("session %s holds %d events, %d were acknowledged; first difference at %d",
				h.Id, len(ids), len(ackedIDs[w]), firstDifference(ids, ackedIDs[w]))
		}
		sessionstest.CheckReplay(t, nil, stored)
		if stored.LastUpdateTime != h.LastUpdateTime {
			t.Errorf("session %s: stored version %f, handle %f", h.Id, stored.LastUpdateTime, h.LastUpdateTime)
		}
		for i := range min(len(stored.Events), len(h.Events)) {
			if got, want := stored.Events[i], h.Events[i]; got.Timestamp != want.Timestamp {
				t.Errorf("session %s, event %s: stored at %f, the handle has %f", h.Id, got.Id, got.Timestamp, want.Timestamp)
				break
			}
		}
	}
}

// appendUntilAcknowledged appends a fresh event from newEvent with the given
// id through h, retrying while the store is unavailable, until the append is
// acknowledged (true) or fails otherwise or for too long (false, with the
// test marked failed). Each attempt builds a new event, as a caller that
// leaves the timestamp to the store would.
func appendUntilAcknowledged(t *testing.T, svc *Service, h *v1.Session, id string, newEvent func() *v1.Event, unavailable *atomic.Int64) bool {
	deadline := time.Now().Add(30 * time.Second)
	for {
		ev := newEvent()
		ev.Id = id
		err := svc.AppendEvent(t.Context(), h, ev)
		switch {
		case err == nil:
			return true
		case !errors.Is(err, sessions.ErrUnavailable):
			t.Errorf("session %s, event %s: %v", h.Id, id, err)
			return false
		case time.Now().After(deadline):
			t.Errorf("session %s, event %s: still unavailable after 30s: %v", h.Id, id, err)
			return false
		}
		unavailable.Add(1)
		time.Sleep(20 * time.Millisecond)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if t.Failed() || time.Now().After(deadline) {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func firstDifference(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
