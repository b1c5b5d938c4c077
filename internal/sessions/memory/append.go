package memory

import (
	"context"
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// AppendEvent implements [sessions.Service]. It holds the session's lock for
// the whole append and the user's or app's lock only when the delta has keys
// of that scope; it copies the new event once and nothing of the history.
func (s *Service) AppendEvent(ctx context.Context, sess *v1.Session, ev *v1.Event) error {
	const op = "sessions.append"
	if sess == nil || ev == nil {
		return errors.New(op + ": nil session or event")
	}
	if ev.GetPartial() {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	p := scope.Prepare(ev, s.now())
	st := s.idx.lookup(sess.GetAppName(), sess.GetUserId(), sess.GetId())
	if st == nil {
		return notFound(op, sess.GetId())
	}
	version, err := st.append(p, scope.Micros(sess.GetLastUpdateTime()), s.limits)
	if err != nil {
		return err
	}
	p.Commit(sess, ev, version)
	return nil
}

// append stores p if the handle's version is current and returns the new one.
func (st *session) append(p scope.Pending, handle int64, limits sessions.Limits) (int64, error) {
	size := int64(proto.Size(p.Stored))
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.deleted {
		return 0, notFound("sessions.append", st.id)
	}
	if handle != st.version {
		return 0, scope.StaleError("sessions.append", handle, st.version)
	}
	if err := limits.Check(len(st.events), st.bytes, size); err != nil {
		return 0, fmt.Errorf("sessions.append: %w", err)
	}
	version := scope.NextVersion(st.version, p.Timestamp)
	st.events = append(st.events, p.Stored)
	st.boundary.Appended(st.events, len(st.events)-1)
	st.bytes += size
	scope.Apply(st.state, p.Delta.Session)
	if len(p.Delta.User) > 0 {
		st.user.state.mu.Lock()
		scope.Apply(st.user.state.values, p.Delta.User)
		st.user.state.mu.Unlock()
	}
	if len(p.Delta.App) > 0 {
		st.appSt.mu.Lock()
		scope.Apply(st.appSt.values, p.Delta.App)
		st.appSt.mu.Unlock()
	}
	st.version = version
	return version, nil
}
