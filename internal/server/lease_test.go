package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/structpb"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// slowRelease is a session store whose leases take delay to be given
// back, as when the store is remote and loaded.
type slowRelease struct {
	sessions.Service
	delay time.Duration
}

func (s *slowRelease) Lease(ctx context.Context, app, user, session, owner string, ttl time.Duration) (sessions.Lease, error) {
	l, err := s.Service.Lease(ctx, app, user, session, owner, ttl)
	if err != nil {
		return nil, err
	}
	return slowLease{l, s.delay}, nil
}

type slowLease struct {
	sessions.Lease
	delay time.Duration
}

func (l slowLease) Release(ctx context.Context) error {
	time.Sleep(l.delay)
	return l.Lease.Release(ctx)
}

// startWeatherCall starts a Connect invocation on a new session that waits
// for the client's get_weather result, under ctx, and returns the session
// and the stream.
func (s *stack) startWeatherCall(t *testing.T, ctx context.Context) (string, grpc.BidiStreamingClient[api.ConnectRequest, api.ConnectResponse]) {
	t.Helper()
	sid := s.newSession(t, ctx)
	s.model.Enqueue(et.Call("get_weather", `{"city":"Paris"}`))
	stream := s.connect(t, ctx, startMsg(sid, "Weather?", weatherTool))
	recvUntil(t, stream, isToolCall)
	return sid, stream
}

// TestRunRightAfterAClientWentAway: a client gives its invocation up and
// runs again at once, while the ending invocation still gives its lease
// back. Without a busy wait the new run is refused as busy; with one it
// waits for the lease and runs.
func TestRunRightAfterAClientWentAway(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		busyWait time.Duration
		wantCode codes.Code
	}{
		{"without a wait", -1, codes.Aborted},
		{"with a wait", 5 * time.Second, codes.OK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			store := &slowRelease{Service: memory.New(), delay: time.Second}
			s := &stack{newFixture(t, withStore(store), withConfig(func(c *server.Config) {
				c.ToolTimeout, c.SessionBusyWait = time.Minute, tc.busyWait
			}))}
			ctx := testContext(t)
			first, gone := context.WithCancel(ctx)
			sid, _ := s.startWeatherCall(t, first)
			gone()
			s.model.Enqueue(et.Text("Sunny."))
			events, err := s.run(ctx, runRequest(sid, "Weather, again?", ""))
			if tc.wantCode != codes.OK {
				checkStatus(t, err, tc.wantCode, "SESSION_BUSY", "session is busy")
				return
			}
			if err != nil {
				t.Fatalf("run right after the client went away: %v", err)
			}
			if got := et.Events(events); len(got) != 1 || got[0] != "desk_agent: Sunny." {
				t.Errorf("events = %q", got)
			}
		})
	}
}

// TestRunOnABusySessionFailsAfterTheWait: while an invocation runs on for
// longer than the busy wait, a second run fails ABORTED (SESSION_BUSY)
// once the wait is over, not before, and not much later.
func TestRunOnABusySessionFailsAfterTheWait(t *testing.T) {
	t.Parallel()
	const wait = 500 * time.Millisecond
	s := newStackWith(t, func(c *server.Config) { c.ToolTimeout, c.SessionBusyWait = time.Minute, wait })
	ctx := testContext(t)
	sid, stream := s.startWeatherCall(t, ctx)
	start := time.Now()
	_, err := s.run(ctx, runRequest(sid, "Me too?", ""))
	took := time.Since(start)
	checkStatus(t, err, codes.Aborted, "SESSION_BUSY", "session is busy")
	if took < wait || took > wait+3*time.Second {
		t.Errorf("the busy run was refused after %v, want about %v", took, wait)
	}
	s.model.Enqueue(et.Text("Sunny."))
	if err := stream.Send(resultMsg(lastCallID(t, s, ctx, sid), structpb.NewStringValue("sunny"))); err != nil {
		t.Fatal(err)
	}
	if _, err := recvAll(stream); err != nil {
		t.Fatalf("the first invocation: %v", err)
	}
}

// lastCallID returns the id of the last function call stored in a session.
func lastCallID(t *testing.T, s *stack, ctx context.Context, sid string) string {
	t.Helper()
	events := s.session(t, ctx, sid).Events
	for i := len(events) - 1; i >= 0; i-- {
		for _, p := range events[i].GetContent().GetParts() {
			if c := p.GetFunctionCall(); c != nil {
				return c.GetId()
			}
		}
	}
	t.Fatal("no function call stored")
	return ""
}

// losingStore is a session store whose leases are all lost, with err,
// when lost is closed.
type losingStore struct {
	sessions.Service
	lost chan struct{}
	err  error
}

func (s *losingStore) Lease(ctx context.Context, app, user, session, owner string, ttl time.Duration) (sessions.Lease, error) {
	l, err := s.Service.Lease(ctx, app, user, session, owner, ttl)
	if err != nil {
		return nil, err
	}
	return losingLease{l, s}, nil
}

type losingLease struct {
	sessions.Lease
	store *losingStore
}

func (l losingLease) Lost() <-chan struct{} { return l.store.lost }

func (l losingLease) Err() error {
	select {
	case <-l.store.lost:
		return l.store.err
	default:
		return nil
	}
}

// TestLostLeaseEndsTheInvocation: an invocation whose lease the store
// reports lost ends at once with the store's reason, instead of going on
// as if it still held the session.
func TestLostLeaseEndsTheInvocation(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name         string
		err          error
		code         codes.Code
		reason, text string
	}{
		{"taken over", sessions.ErrBusy, codes.Aborted, "SESSION_BUSY", "session is busy"},
		{"not renewed", sessions.ErrUnavailable, codes.Unavailable, "SESSION_STORE_UNAVAILABLE", "session store unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			store := &losingStore{Service: memory.New(), lost: make(chan struct{}),
				err: fmt.Errorf("lease: %w: %w", sessions.ErrLeaseLost, tc.err)}
			s := &stack{newFixture(t, withStore(store), withConfig(func(c *server.Config) { c.ToolTimeout = time.Minute }))}
			ctx := testContext(t)
			sid, stream := s.startWeatherCall(t, ctx)
			close(store.lost)
			_, err := recvAll(stream)
			checkStatus(t, err, tc.code, tc.reason, tc.text)
			s.waitIdle(t)
			// Its open call is left to the session's next invocation,
			// which closes it first: this one no longer holds the session.
			if got := s.storedEvents(t, ctx, sid); len(got) != 2 {
				t.Errorf("stored events = %q, want the message and the call only", got)
			}
		})
	}
}
