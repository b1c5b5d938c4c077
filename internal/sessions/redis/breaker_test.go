package redis

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/agentsvc/agentsvc/internal/sessions"
)

// replyError is an error reply of the server.
type replyError string

func (e replyError) Error() string { return string(e) }
func (replyError) RedisError()     {}

// TestBreakerStates walks the breaker through its states on a fake clock.
func TestBreakerStates(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	timeout := &net.OpError{Op: "read", Err: errors.New("i/o timeout")}
	tests := []struct {
		name  string
		steps []error // outcomes of successive allowed calls
		// wantOpen after the steps; then advance past the cooldown and check
		// that exactly one probe is let through.
		wantOpen bool
	}{
		{"answers_keep_it_closed", []error{nil, goredis.Nil, replyError("ERR wrong"), nil}, false},
		{"below_threshold", []error{timeout, timeout, nil, timeout, timeout}, false},
		{"threshold_opens", []error{timeout, io.EOF, timeout}, true},
		{"loading_counts", []error{replyError("LOADING dataset"), timeout, timeout}, true},
		{"cluster_down_does_not_count", []error{replyError("CLUSTERDOWN The cluster is down"), timeout, timeout, replyError("CLUSTERDOWN The cluster is down")}, false},
		{"cancelled_callers_do_not_count", []error{context.Canceled, context.Canceled, context.Canceled}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			now := time.Unix(1000, 0)
			b := &breaker{failures: 3, cooldown: time.Second, now: func() time.Time { return now }}
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			for _, err := range tt.steps {
				ok, probe := b.allow()
				if !ok || probe {
					t.Fatalf("allow() = %v, %v before the breaker should open", ok, probe)
				}
				callCtx := ctx
				if errors.Is(err, context.Canceled) {
					cancel()
					callCtx = cctx
				}
				b.record(callCtx, err, probe)
			}
			if ok, _ := b.allow(); ok == tt.wantOpen {
				t.Fatalf("allow() = %v after %v, want open=%v", ok, tt.steps, tt.wantOpen)
			}
			if !tt.wantOpen {
				return
			}
			now = now.Add(time.Second)
			if b.closed() {
				t.Fatal("closed() after the cooldown: a topology query would be the probe")
			}
			if ok, probe := b.allow(); !ok || !probe {
				t.Fatalf("after the cooldown allow() = %v, %v, want a probe", ok, probe)
			}
			if ok, _ := b.allow(); ok {
				t.Fatal("a second call went through while the probe was in flight")
			}
			b.record(ctx, timeout, true) // the probe fails: open again
			if ok, _ := b.allow(); ok {
				t.Fatal("a failed probe did not reopen the breaker")
			}
			now = now.Add(time.Second)
			_, probe := b.allow()
			b.record(ctx, nil, probe) // the probe succeeds: closed
			for range 5 {
				if ok, probe := b.allow(); !ok || probe {
					t.Fatalf("after a good probe allow() = %v, %v, want closed", ok, probe)
				}
			}
		})
	}
}

// TestHungRedisFailsFast freezes the server (SIGSTOP: connections are
// accepted, nothing answers) and checks that after a few timeouts calls fail
// at once with ErrUnavailable, Ping included, that the store recovers when
// the server resumes, and again after a kill and restart.
func TestHungRedisFailsFast(t *testing.T) {
	t.Parallel()
	srv := startPrivateRedis(t)
	const timeout = 400 * time.Millisecond
	svc, err := New(srv.url(), Options{
		KeyPrefix:   "hung",
		DialTimeout: timeout, ReadTimeout: timeout, WriteTimeout: timeout,
		MaxRetries: -1, BreakerFailures: 2, BreakerCooldown: 300 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	ctx := t.Context()
	req := sessions.GetRequest{AppName: "app", UserID: "u", SessionID: "s"}
	if _, err := svc.Create(ctx, sessions.CreateRequest{AppName: "app", UserID: "u", SessionID: "s"}); err != nil {
		t.Fatal(err)
	}

	call := func() (time.Duration, error) {
		start := time.Now()
		_, err := svc.Get(ctx, req)
		return time.Since(start), err
	}
	recovered := func(phase string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			_, err := call()
			if err == nil && svc.Ping(ctx) == nil {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: the store did not recover: %v", phase, err)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	failsFast := func(phase string) {
		t.Helper()
		// The first calls wait for their timeout and open the breaker.
		for i := range 2 {
			if _, err := call(); !errors.Is(err, sessions.ErrUnavailable) {
				t.Fatalf("%s: call %d: %v, want ErrUnavailable", phase, i, err)
			}
		}
		for i := range 5 {
			took, err := call()
			if !errors.Is(err, sessions.ErrUnavailable) || took > timeout/4 {
				t.Fatalf("%s: call %d with the breaker open took %v: %v; want ErrUnavailable at once", phase, i, took, err)
			}
		}
		start := time.Now()
		if err := svc.Ping(ctx); !errors.Is(err, sessions.ErrUnavailable) || time.Since(start) > timeout/4 {
			t.Fatalf("%s: Ping with the breaker open: %v after %v", phase, err, time.Since(start))
		}
		if _, err := svc.Lease(ctx, "app", "u", "s", "o", time.Second); !errors.Is(err, sessions.ErrUnavailable) {
			t.Fatalf("%s: Lease with the breaker open: %v", phase, err)
		}
	}

	if err := srv.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	failsFast("hung")
	if err := srv.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	recovered("resumed")

	srv.kill()
	failsFast("killed")
	srv.start()
	recovered("restarted")
	if _, err := svc.Get(ctx, req); err != nil {
		t.Fatal(fmt.Errorf("the session did not survive the restart: %w", err))
	}
}
