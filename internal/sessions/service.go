// Package sessions stores sessions, their events and their scoped state.
//
// State keys are scoped by prefix: "app:" keys are shared by every session of
// an app, "user:" keys by every session of an app and user, keys without a
// prefix belong to one session, and "temp:" keys live only in the handle of a
// running invocation and are never stored. Reads return the three stored
// scopes merged, each key with its prefix.
package sessions

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// State key prefixes.
const (
	AppPrefix  = "app:"
	UserPrefix = "user:"
	TempPrefix = "temp:"
)

// Errors returned by a [Service]; test with errors.Is.
var (
	// ErrNotFound: the session does not exist.
	ErrNotFound = errors.New("session not found")
	// ErrAlreadyExists: a session with that id exists.
	ErrAlreadyExists = errors.New("session already exists")
	// ErrStale: the handle is older than the stored session; reload it.
	ErrStale = errors.New("stale session")
	// ErrBusy: another invocation holds the session's lease.
	ErrBusy = errors.New("session is busy")
	// ErrLeaseLost: a held lease was lost (see [Lease.Err]); the session
	// may be another invocation's now.
	ErrLeaseLost = errors.New("session lease lost")
	// ErrUnavailable: the store could not be reached.
	ErrUnavailable = errors.New("session store unavailable")
	// ErrTooLarge: the append would take the session past its [Limits].
	ErrTooLarge = errors.New("session too large")
)

// Default per-session limits; see [Limits].
const (
	DefaultMaxEvents = 10_000
	DefaultMaxBytes  = 16 << 20
)

// Limits bound what one session may hold, so that a session can always be
// read back. An AppendEvent that would pass either fails with [ErrTooLarge]
// and stores nothing. The zero value applies the defaults.
type Limits struct {
	// MaxEvents caps the number of stored events. Zero means
	// [DefaultMaxEvents]; negative means no cap.
	MaxEvents int
	// MaxBytes caps the total size of the stored events, protobuf-encoded.
	// Zero means [DefaultMaxBytes]; negative means no cap.
	MaxBytes int64
}

// Resolved returns l with its zero fields set to the defaults and its
// negative ones to no cap (the largest value).
func (l Limits) Resolved() Limits {
	switch {
	case l.MaxEvents == 0:
		l.MaxEvents = DefaultMaxEvents
	case l.MaxEvents < 0:
		l.MaxEvents = math.MaxInt
	}
	switch {
	case l.MaxBytes == 0:
		l.MaxBytes = DefaultMaxBytes
	case l.MaxBytes < 0:
		l.MaxBytes = math.MaxInt64
	}
	return l
}

// Check returns an error wrapping [ErrTooLarge] when a session holding
// events events of bytes bytes cannot take one more of size bytes; l must be
// resolved.
func (l Limits) Check(events int, bytes, size int64) error {
	if events >= l.MaxEvents {
		return fmt.Errorf("%w: the session holds %d events, the limit", ErrTooLarge, events)
	}
	if bytes+size > l.MaxBytes {
		return fmt.Errorf("%w: an event of %d bytes would take the session past its limit of %d bytes", ErrTooLarge, size, l.MaxBytes)
	}
	return nil
}

// CreateRequest describes a new session.
type CreateRequest struct {
	AppName string
	UserID  string
	// SessionID is optional; a uuid4 is generated when empty.
	SessionID string
	// State is the initial state; prefixed keys go to their scopes and
	// "temp:" keys are dropped.
	State *structpb.Struct
}

// GetRequest names a session and selects its events.
type GetRequest struct {
	AppName   string
	UserID    string
	SessionID string
	// NumRecentEvents, when positive, keeps only the last N events.
	NumRecentEvents int
	// AfterTimestamp, when positive, keeps only events whose timestamp is at
	// or after it (seconds since the epoch).
	AfterTimestamp float64
	// Select chooses the events before the two filters above apply; the
	// zero value is [SelectAll]. [Service.GetPage] reads it as SelectAll.
	Select Selection
}

// Service stores sessions. Implementations are safe for concurrent use.
//
// A *v1.Session returned by Create or Get is a handle: AppendEvent updates it
// in place, so one handle must not be used by several goroutines at once. Its
// LastUpdateTime is the version the store checks: appending through a handle
// that does not carry the stored session's last update time fails with
// [ErrStale], and the caller reloads the session with Get. Each append moves
// LastUpdateTime strictly forward: to the event's timestamp, as ADK does, or
// one microsecond past the previous value when the timestamp is not later.
type Service interface {
	// Create stores a new session and returns its handle.
	Create(ctx context.Context, req CreateRequest) (*v1.Session, error)

	// Get returns a session with the selected events and the merged state.
	// The events may be shared with the store and other readers: they must
	// not be modified (the handle's slice and state are the caller's own).
	Get(ctx context.Context, req GetRequest) (*v1.Session, error)

	// GetPage returns a session with one page of the events req selects,
	// oldest first, and the cursor of the next page (Done on the last).
	// req.AfterTimestamp also filters the events of every page, which may
	// then hold fewer than page.Size events, or none, before the last.
	GetPage(ctx context.Context, req GetRequest, page PageRequest) (*v1.Session, Cursor, error)

	// List returns the sessions of a user, without events, with merged state.
	List(ctx context.Context, appName, userID string) ([]*v1.Session, error)

	// ListPage returns one page of List: at most page.Size sessions after
	// page.After, in List's order (oldest first), and the position of the
	// last session it considered, from which the next page goes on; next
	// is the zero [ListCursor] after the last page. A page may hold fewer
	// sessions than page.Size before the last when some expired.
	ListPage(ctx context.Context, appName, userID string, page ListPageRequest) (list []*v1.Session, next ListCursor, err error)

	// Delete removes a session; deleting a missing session is not an error.
	Delete(ctx context.Context, appName, userID, sessionID string) error

	// AppendEvent stores ev at the end of the session and applies its state
	// delta to the stored scopes and to sess.State; it sets ev's id (a uuid4)
	// when empty and its timestamp when zero, bumps sess.LastUpdateTime and
	// appends ev to sess.Events. Partial events are ignored. "temp:" keys are
	// applied to sess.State but removed from ev's delta, as ADK does, and
	// never stored. A null value stores the key as null. All or nothing: on
	// error neither the store, sess nor ev has changed. An event that
	// would take the session past the store's [Limits] fails with
	// [ErrTooLarge].
	AppendEvent(ctx context.Context, sess *v1.Session, ev *v1.Event) error

	// Lease takes the invocation lease of a session for owner, failing with
	// [ErrBusy] while another owner holds it; taking a lease the same owner
	// holds renews it. The lease lasts ttl and is kept alive until released
	// or until ctx ends, so pass the invocation's context: a holder that dies
	// or abandons its context loses the lease ttl later. A store shared by
	// several processes renews it in the background and reports through
	// [Lease.Lost] a lease it could not keep. The session need not exist.
	// ttl must be positive.
	Lease(ctx context.Context, appName, userID, sessionID, owner string, ttl time.Duration) (Lease, error)

	// Ping checks that the store can be reached, for readiness probes; it
	// fails with [ErrUnavailable] when it cannot. Pass a short deadline.
	Ping(ctx context.Context) error

	// Close releases the store's resources.
	Close() error
}

// Lease is a held invocation lease. Its methods are safe for concurrent
// use.
type Lease interface {
	// Release gives the lease up if its owner still holds it; a lease that
	// expired and was taken by another owner is left alone. It is safe to
	// call more than once. Pass a context that outlives a cancelled
	// invocation (context.WithoutCancel), or the lease only expires.
	Release(ctx context.Context) error

	// Lost returns a channel that is closed once the holder can no longer
	// count on holding the lease: another owner took it, or the store
	// could not renew it before its ttl ran out (another owner may take it
	// from then on). The holder must then stop working under it. It is
	// nil for a lease that cannot be lost while its context lives. It is
	// not closed by Release or by the end of the lease's context.
	Lost() <-chan struct{}

	// Err says why the lease was lost, once Lost is closed: an error
	// wrapping [ErrLeaseLost] and also [ErrBusy] when another owner took
	// it, [ErrUnavailable] when it could not be renewed in time. It is nil
	// before.
	Err() error
}

// Counter is a [Service] that counts a user's sessions without reading
// them. The count may include sessions that expired but are not yet
// forgotten, never fewer than [Service.List] returns.
type Counter interface {
	// Count returns how many sessions appName's user userID holds.
	Count(ctx context.Context, appName, userID string) (int, error)
}
