package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/internal/scope"
)

// Results of appendScript.
const (
	appendNoSession = 0
	appendStale     = 1
	appendRepeated  = 2
	appendStored    = 3
	appendTooLarge  = 4
)

// AppendEvent implements [sessions.Service] in one round trip (on Redis
// Cluster, two when the delta writes app: keys; see the package doc): one script
// checks that the handle's LastUpdateTime is the stored version, pushes the
// event, indexes its timestamp, applies the delta to the session, user and
// app hashes ("temp:" keys never leave the process), sets the new version
// and refreshes the TTL — or, if the version moved on, changes nothing and
// the call fails with [sessions.ErrStale].
//
// If the stored session's last event is this very event (same id), the
// append is a retry of one whose reply was lost; it succeeds without storing
// the event again, and the handle and ev take the stored version and
// timestamp, not the ones this attempt computed. When writes wait for
// replicas, the append is acknowledged only once they hold it.
func (s *Service) AppendEvent(ctx context.Context, sess *v1.Session, ev *v1.Event) error {
	const op = "sessions.append"
	if sess == nil || ev == nil {
		return errors.New(op + ": nil session or event")
	}
	if ev.GetPartial() {
		return nil
	}
	p := scope.Prepare(ev, s.now())
	payload, err := proto.Marshal(p.Stored)
	if err != nil {
		return fmt.Errorf("%s: encode event: %w", op, err)
	}
	handle := scope.Micros(sess.GetLastUpdateTime())
	next := scope.NextVersion(handle, p.Timestamp)
	sk := s.keys.session(sess.GetAppName(), sess.GetUserId(), sess.GetId())
	keys := []string{sk.meta, sk.events, sk.ts, sk.state,
		s.keys.scriptAppState(sess.GetAppName(), sess.GetUserId()), s.keys.userState(sess.GetAppName(), sess.GetUserId()),
		s.keys.index(sess.GetAppName(), sess.GetUserId())}
	args := make([]any, 0, 15+2*(len(p.Delta.Session)+len(p.Delta.App)+len(p.Delta.User)))
	mark, first, last := sessions.MarkOf(p.Stored)
	args = append(args, formatVersion(handle), formatVersion(next), p.ID, payload, formatScore(p.Timestamp), s.ttlMS,
		s.limits.MaxEvents, s.limits.MaxBytes, int(mark), p.Stored.GetInvocationId(), formatScore(first), formatScore(last))
	delta := p.Delta
	if s.keys.cluster {
		// App state is in another slot: written below, once the event is.
		delta.App = nil
	}
	if args, err = appendScoped(args, delta); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	reply, err := s.runWrite(ctx, appendScript, keys, args...)
	if err != nil {
		if s.keys.cluster && errors.Is(err, errNotReplicated) && appended(reply) {
			// The primary stored the event; its replica has yet to
			// confirm it. Its app keys follow it as they would.
			s.keepAppEntries(ctx, sess.GetAppName(), p.Delta.App)
		}
		return classify(ctx, op, err)
	}
	if len(reply) < 2 {
		return fmt.Errorf("%s: unexpected reply of %d elements", op, len(reply))
	}
	code, _ := reply[0].(int64)
	switch code {
	case appendNoSession:
		return fmt.Errorf("%s: %w: %q", op, sessions.ErrNotFound, sess.GetId())
	case appendStale, appendStored:
	case appendTooLarge:
		if len(reply) != 4 {
			return fmt.Errorf("%s: unexpected reply of %d elements", op, len(reply))
		}
		events, _ := reply[2].(int64)
		bytes, _ := reply[3].(string)
		stored, err := strconv.ParseInt(bytes, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: stored size %q: %w", op, bytes, err)
		}
		return fmt.Errorf("%s: %w", op, s.limits.Check(int(events), stored, int64(len(payload))))
	case appendRepeated:
		// The first attempt stored the event with its own timestamp; a
		// retry that left the timestamp to the store made a new one.
		if len(reply) != 3 {
			return fmt.Errorf("%s: unexpected reply of %d elements", op, len(reply))
		}
		if p.Timestamp, err = parseScore(reply[2]); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	default:
		return fmt.Errorf("%s: unexpected reply code %d", op, code)
	}
	stored, err := parseVersion(reply[1])
	if err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	if code == appendStale {
		return scope.StaleError(op, handle, stored)
	}
	if s.keys.cluster && len(p.Delta.App) > 0 {
		// A retry of this append (appendRepeated) writes them again.
		if err := s.writeAppState(ctx, sess.GetAppName(), p.Delta.App, nil); err != nil {
			return classify(ctx, op, err)
		}
	}
	p.Commit(sess, ev, stored)
	return nil
}

// appended reports whether an append script's reply says the event is
// stored: now, or by an earlier attempt.
func appended(reply []any) bool {
	if len(reply) == 0 {
		return false
	}
	code, _ := reply[0].(int64)
	return code == appendStored || code == appendRepeated
}
