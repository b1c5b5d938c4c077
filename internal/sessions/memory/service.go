// Package memory is the in-memory [sessions.Service], the default store. It
// keeps everything in the process: sessions do not survive a restart and are
// not shared between replicas.
package memory

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"slices"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// Service is an in-memory [sessions.Service]. It is safe for concurrent use.
// Locking is per session for appends and reads, per user shard for creates,
// deletes and lists, and per app or user only while their state changes.
//
// The store keeps its own copies of what callers pass in. Events are
// immutable once appended, so the events a handle holds are shared with the
// store and must not be modified; everything else a caller gets back is its
// own. Appending copies only the new event, and reading the last N events
// copies only those N pointers.
type Service struct {
	idx    index
	leases leaseTable
	limits sessions.Limits
	now    func() time.Time
}

var _ sessions.Service = (*Service)(nil)

// Option configures a [Service].
type Option interface {
	apply(*Service)
}

type optionFunc func(*Service)

func (f optionFunc) apply(s *Service) { f(s) }

// WithLimits bounds every session; the default is the zero [sessions.Limits].
func WithLimits(l sessions.Limits) Option {
	return optionFunc(func(s *Service) { s.limits = l.Resolved() })
}

// New returns an empty store.
func New(opts ...Option) *Service {
	s := &Service{now: time.Now, limits: sessions.Limits{}.Resolved()}
	for _, o := range opts {
		o.apply(s)
	}
	s.idx.seed = maphash.MakeSeed()
	for i := range s.idx.shards {
		s.idx.shards[i].users = make(map[userKey]*userEntry)
	}
	s.leases.held = make(map[string]*leaseEntry)
	return s
}

// Create implements [sessions.Service].
func (s *Service) Create(ctx context.Context, req sessions.CreateRequest) (*v1.Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessions.create: %w", err)
	}
	id := req.SessionID
	if id == "" {
		id = scope.NewID()
	}
	// Clone first: the store keeps these values.
	var initial *structpb.Struct
	if req.State != nil {
		initial = proto.Clone(req.State).(*structpb.Struct)
	}
	split := scope.SplitState(initial)
	version := s.now().UnixMicro()

	sh := s.idx.shardOf(req.AppName, req.UserID)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	key := userKey{req.AppName, req.UserID}
	ue := sh.users[key]
	if ue == nil {
		ue = &userEntry{state: newStateScope(), sessions: make(map[string]*session)}
		sh.users[key] = ue
	}
	if _, ok := ue.sessions[id]; ok {
		return nil, fmt.Errorf("sessions.create: %w: %q", sessions.ErrAlreadyExists, id)
	}
	st := &session{
		id: id, app: req.AppName, userID: req.UserID,
		created: version, version: version,
		state: make(map[string]*structpb.Value, len(split.Session)),
		user:  ue, appSt: s.idx.appState(req.AppName),
	}
	scope.Apply(st.state, split.Session)

	ue.state.mu.Lock()
	scope.Apply(ue.state.values, split.User)
	st.appSt.mu.Lock()
	scope.Apply(st.appSt.values, split.App)
	state := scope.Merge(st.appSt.values, ue.state.values, st.state)
	st.appSt.mu.Unlock()
	ue.state.mu.Unlock()

	ue.sessions[id] = st
	return &v1.Session{
		Id: id, AppName: req.AppName, UserId: req.UserID,
		State: state, LastUpdateTime: scope.Seconds(version),
	}, nil
}

// Get implements [sessions.Service].
func (s *Service) Get(ctx context.Context, req sessions.GetRequest) (*v1.Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessions.get: %w", err)
	}
	st := s.idx.lookup(req.AppName, req.UserID, req.SessionID)
	if st == nil {
		return nil, notFound("sessions.get", req.SessionID)
	}
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.deleted {
		return nil, notFound("sessions.get", req.SessionID)
	}
	out := st.snapshot()
	var selected []*v1.Event
	switch req.Select {
	case sessions.SelectNone:
	case sessions.SelectCompacted:
		selected = st.boundary.Select(st.events)
	default:
		selected = selectEvents(st.events, req.NumRecentEvents, req.AfterTimestamp)
	}
	// Stored events never change once appended, so handles share them; the
	// slice is the handle's own, so appending to it cannot reach the store.
	out.Events = slices.Clone(selected)
	return out, nil
}

// selectEvents applies a GetRequest's window without copying the history:
// the last n events first, then those at or after the timestamp.
func selectEvents(events []*v1.Event, n int, after float64) []*v1.Event {
	if n > 0 && len(events) > n {
		events = events[len(events)-n:]
	}
	if after <= 0 {
		return events
	}
	var out []*v1.Event
	for _, ev := range events {
		if ev.GetTimestamp() >= after {
			out = append(out, ev)
		}
	}
	return out
}

// List implements [sessions.Service]. Sessions come in creation order.
func (s *Service) List(ctx context.Context, appName, userID string) ([]*v1.Session, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("sessions.list: %w", err)
	}
	return snapshots(s.listed(appName, userID, sessions.ListCursor{})), nil
}

// Count implements [sessions.Counter].
func (s *Service) Count(ctx context.Context, appName, userID string) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, fmt.Errorf("sessions.count: %w", err)
	}
	n := 0
	for _, st := range s.listed(appName, userID, sessions.ListCursor{}) {
		st.mu.RLock()
		if !st.deleted {
			n++
		}
		st.mu.RUnlock()
	}
	return n, nil
}

// ListPage implements [sessions.Service].
func (s *Service) ListPage(ctx context.Context, appName, userID string, page sessions.ListPageRequest) ([]*v1.Session, sessions.ListCursor, error) {
	if err := ctx.Err(); err != nil {
		return nil, sessions.ListCursor{}, fmt.Errorf("sessions.list: %w", err)
	}
	if page.Size <= 0 {
		return nil, sessions.ListCursor{}, fmt.Errorf("sessions.list: page size %d is not positive", page.Size)
	}
	found := s.listed(appName, userID, page.After)
	var next sessions.ListCursor
	if len(found) > page.Size {
		found = found[:page.Size]
		last := found[len(found)-1]
		next = sessions.ListCursor{Created: last.created, ID: last.id}
	}
	return snapshots(found), next, nil
}

// listed returns the user's sessions after cursor after, in List's order.
func (s *Service) listed(appName, userID string, after sessions.ListCursor) []*session {
	sh := s.idx.shardOf(appName, userID)
	sh.mu.RLock()
	var found []*session
	if ue := sh.users[userKey{appName, userID}]; ue != nil {
		found = make([]*session, 0, len(ue.sessions))
		for _, st := range ue.sessions {
			if after.Start() || after.After(st.created, st.id) {
				found = append(found, st)
			}
		}
	}
	sh.mu.RUnlock()
	slices.SortFunc(found, func(a, b *session) int {
		return cmp.Or(cmp.Compare(a.created, b.created), cmp.Compare(a.id, b.id))
	})
	return found
}

// snapshots copies the sessions that are not deleted, without events.
func snapshots(found []*session) []*v1.Session {
	out := make([]*v1.Session, 0, len(found))
	for _, st := range found {
		st.mu.RLock()
		if !st.deleted {
			out = append(out, st.snapshot())
		}
		st.mu.RUnlock()
	}
	return out
}

// snapshot copies the session without events; st.mu must be held.
func (st *session) snapshot() *v1.Session {
	st.user.state.mu.RLock()
	st.appSt.mu.RLock()
	state := scope.Merge(st.appSt.values, st.user.state.values, st.state)
	st.appSt.mu.RUnlock()
	st.user.state.mu.RUnlock()
	return &v1.Session{
		Id: st.id, AppName: st.app, UserId: st.userID,
		State: state, LastUpdateTime: scope.Seconds(st.version),
	}
}

// Delete implements [sessions.Service]. App and user state stay.
func (s *Service) Delete(ctx context.Context, appName, userID, sessionID string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("sessions.delete: %w", err)
	}
	sh := s.idx.shardOf(appName, userID)
	sh.mu.Lock()
	var st *session
	if ue := sh.users[userKey{appName, userID}]; ue != nil {
		st = ue.sessions[sessionID]
		delete(ue.sessions, sessionID)
	}
	sh.mu.Unlock()
	if st == nil {
		return nil
	}
	// Appends that looked the session up before it left the index see the
	// flag and fail with ErrNotFound.
	st.mu.Lock()
	st.deleted = true
	st.events, st.state, st.bytes, st.boundary = nil, nil, 0, sessions.Boundary{}
	st.mu.Unlock()
	return nil
}

// Ping implements [sessions.Service]: the store is always reachable.
func (s *Service) Ping(context.Context) error { return nil }

// Close implements [sessions.Service]; the store stays usable, there is
// nothing to release.
func (s *Service) Close() error { return nil }

func notFound(op, id string) error {
	return fmt.Errorf("%s: %w: %q", op, sessions.ErrNotFound, id)
}
