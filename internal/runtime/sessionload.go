package runtime

import (
	"context"
	"math"
	"slices"
	"sync"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// GetSessionConfig selects the events of the session an invocation loads,
// as ADK's RunConfig.get_session_config does: a nil field applies no
// filter. NumRecentEvents keeps at most that many of the latest events, and
// zero none; AfterTimestamp then keeps the events whose timestamp is at or
// after it (zero or less keeps them all, as ADK's falsy zero does).
//
// The invocation sees only the loaded events, as in ADK: the model's
// contents are built from them alone; a request id is recognised as a
// retry only when its user event is loaded; calls left open by earlier
// invocations are closed only when loaded; the agent that takes the turn is
// chosen from the loaded events (the root when none is an agent's);
// resuming an invocation needs one of its events loaded, and finished
// agents are known from their loaded checkpoints only; event compaction
// counts and summarises only the loaded invocations. Rewinding a session
// always reads it whole.
type GetSessionConfig struct {
	NumRecentEvents *int
	AfterTimestamp  *float64
}

// validate checks c: no negative count, no timestamp that is not a finite
// number.
func (c *GetSessionConfig) validate() error {
	if c == nil {
		return nil
	}
	if n := c.NumRecentEvents; n != nil && *n < 0 {
		return InvalidRequest("run_config.get_session_config.num_recent_events must not be negative, got %d", *n)
	}
	if t := c.AfterTimestamp; t != nil && (math.IsNaN(*t) || math.IsInf(*t, 0)) {
		return InvalidRequest("run_config.get_session_config.after_timestamp must be a finite number")
	}
	return nil
}

// loadRequest returns what an invocation of req reads of its session.
//
// Without get_session_config, an app with event compaction reads the
// compacted selection ([sessions.SelectCompacted]): the summaries and the
// events from the latest one they do not cover (and at least the latest
// invocation's), which give the same model contents as the whole history
// at a cost bounded by the events since the last summary. Everything else
// the runner reads of the history is in that selection too: the calls left
// open (by the latest invocation: earlier ones were closed when the next
// one started), the agent of the latest turn, and the invocations that
// compaction counts as new since the last summary (its overlap is read
// when a summary is due, see [Runner.compact]). A run with a request id or
// an invocation id, one whose message answers function calls, and any run
// of a resumable app read the whole history, where an old request id,
// invocation or call may be found.
func (r *Runner) loadRequest(req RunRequest) sessions.GetRequest {
	get := sessions.GetRequest{AppName: r.App.Name, UserID: req.UserID, SessionID: req.SessionID}
	if c := req.RunConfig.GetSessionConfig; c != nil {
		if n := c.NumRecentEvents; n != nil {
			if *n == 0 {
				get.Select = sessions.SelectNone
			}
			get.NumRecentEvents = *n
		}
		if t := c.AfterTimestamp; t != nil && *t > 0 {
			get.AfterTimestamp = *t
		}
		return get
	}
	if r.App.Compaction != nil && req.RequestID == "" && req.InvocationID == "" && !r.App.Resumable &&
		!answersCalls(req.NewMessage) {
		get.Select = sessions.SelectCompacted
	}
	return get
}

// answersCalls reports whether msg holds function responses: the calls
// they answer may be older than the compacted selection.
func answersCalls(msg *v1.Content) bool {
	for _, p := range msg.GetParts() {
		if p.GetFunctionResponse() != nil {
			return true
		}
	}
	return false
}

// heldEvents is the history of a session as the runner last read it from
// a [sessions.TailReader], kept with its contents caches so that the next
// invocation reads only the events stored since.
type heldEvents struct {
	mu sync.Mutex
	// events are shared with the invocations that read them, which must
	// not modify them; the slice is clipped, so that an invocation's
	// appends to its own copy never reach it.
	events []*v1.Event
	held   sessions.Held
}

// loadSession reads the session of an invocation as load selects it. A
// read of the whole history from a store that reads tails, by a runner
// that keeps the session's history, fetches only the events stored since
// the runner last read it (by whichever process wrote them) and puts the
// kept ones before them; when the session is not the one the runner read
// (deleted and created again), the store sends it whole. The state and the
// version are always read, so the invocation sees what a read of the whole
// session would give.
func (r *Runner) loadSession(ctx context.Context, load sessions.GetRequest) (*v1.Session, error) {
	tr, ok := r.Sessions.(sessions.TailReader)
	if !ok || load.Select != sessions.SelectAll || load.NumRecentEvents != 0 || load.AfterTimestamp != 0 ||
		r.keptHistories() == nil {
		return r.Sessions.Get(ctx, load)
	}
	key := sessionKey{load.AppName, load.UserID, load.SessionID}
	var events []*v1.Event
	var held sessions.Held
	var size int64
	if h, bytes := r.histories.kept(key); h != nil {
		h.held.mu.Lock()
		events, held = h.held.events, h.held.held
		h.held.mu.Unlock()
		size = bytes
	}
	sess, next, tail, err := tr.GetTail(ctx, load, held)
	if err != nil {
		return nil, err
	}
	read := sess.Events
	if tail {
		// The handle's slice is the invocation's own and grows with its
		// events: room for a few.
		all := make([]*v1.Event, 0, len(events)+len(sess.Events)+8)
		sess.Events = append(append(all, events...), sess.Events...)
	} else {
		size = 0
	}
	for _, ev := range read {
		size += int64(proto.Size(ev))
	}
	r.histories.hold(r.histories.session(key), slices.Clip(sess.Events), next, size)
	return sess, nil
}
