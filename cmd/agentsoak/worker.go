package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// opKind is one kind of client operation.
type opKind string

// The operations of the load. The connect kinds differ in how the client
// treats the tool call it gets.
const (
	opRun       opKind = "run"               // Run, no streaming
	opRunSSE    opKind = "run-sse"           // Run, SSE streaming (partial events)
	opConnect   opKind = "connect"           // answers the tool call at once
	opSlow      opKind = "connect-slow"      // answers after up to 1.2 × the tool timeout
	opClose     opKind = "connect-close"     // vanishes: closes its connection mid call
	opCancel    opKind = "connect-cancel"    // vanishes: cancels the call mid call
	opCancelMsg opKind = "connect-cancelmsg" // sends CancelRun mid call
	opSilent    opKind = "connect-silent"    // never answers; its deadline ends it
	opUpdate    opKind = "update"            // UpdateSessionState
	opRead      opKind = "read"              // GetSession
	opCreate    opKind = "create"            // CreateSession
)

// maxOpsWorker bounds one worker's loop besides time.
const maxOpsWorker = 1_000_000

// opWeights is the mix of operations, in percent.
var opWeights = []struct {
	kind   opKind
	weight int
}{
	{opRun, 25}, {opRunSSE, 10}, {opConnect, 20}, {opSlow, 8}, {opClose, 6}, {opCancel, 6},
	{opCancelMsg, 3}, {opSilent, 2}, {opUpdate, 15}, {opRead, 5},
}

// retryable reports whether an invocation that failed with c is tried
// again, with the same request id: what a client does after a deadline or
// a lost connection.
func retryable(k opKind, c codes.Code) bool {
	switch k {
	case opRun, opRunSSE, opConnect, opSlow:
		return c == codes.DeadlineExceeded || c == codes.Unavailable || c == codes.Aborted
	}
	return false
}

// opStats counts what one worker saw; workers do not share it.
type opStats struct {
	outcomes map[opKind]map[codes.Code]int
	// reasons counts the failures by code and message, ids left out.
	reasons map[string]int
	// vanished counts the invocations the client walked away from.
	vanished  map[opKind]int
	retries   int
	retriedOK int
}

func newOpStats() opStats {
	return opStats{outcomes: map[opKind]map[codes.Code]int{}, reasons: map[string]int{},
		vanished: map[opKind]int{}}
}

func (s *opStats) add(k opKind, err error) {
	st := status.Convert(err)
	if s.outcomes[k] == nil {
		s.outcomes[k] = map[codes.Code]int{}
	}
	s.outcomes[k][st.Code()]++
	if err != nil {
		s.reasons[reasonOf(err)]++
	}
}

// reasonOf is a failure's code and message, ids left out.
func reasonOf(err error) string {
	st := status.Convert(err)
	return st.Code().String() + ": " + idRE.ReplaceAllString(st.Message(), "…")
}

// idRE matches the ids in error messages (uuids, the load's session ids),
// so that failures group by kind.
var idRE = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f-]{27}|soak[0-9a-f]{6}-[^\s:,]+`)

func (s *opStats) merge(o opStats) {
	for k, m := range o.outcomes {
		for c, n := range m {
			if s.outcomes[k] == nil {
				s.outcomes[k] = map[codes.Code]int{}
			}
			s.outcomes[k][c] += n
		}
	}
	for r, n := range o.reasons {
		s.reasons[r] += n
	}
	for k, n := range o.vanished {
		s.vanished[k] += n
	}
	s.retries += o.retries
	s.retriedOK += o.retriedOK
}

// worker is one client: it owns a few sessions at a time and runs
// operations on them one after another.
type worker struct {
	s    *soak
	id   int
	user string
	// conns holds one connection per agentsvc replica.
	conns []*grpc.ClientConn
	rng   *rand.Rand
	live  []*sessionLog
	all   []*sessionLog
	made  int
	stats opStats
}

func newWorker(s *soak, id int, conns []*grpc.ClientConn) *worker {
	return &worker{s: s, id: id, user: fmt.Sprintf("soak-u%02d", id), conns: conns,
		rng: rand.New(rand.NewPCG(uint64(s.o.seed), uint64(id))), stats: newOpStats()}
}

// newSession adds a session to the worker's logs; it is created lazily.
func (w *worker) newSession() *sessionLog {
	w.made++
	id := fmt.Sprintf("%s-w%02d-s%03d", w.s.runID, w.id, w.made)
	s := &sessionLog{app: w.s.o.app, user: w.user, id: id, initial: initialState(id), events: map[string]string{},
		replica: (w.id + w.made) % len(w.conns)}
	w.all = append(w.all, s)
	return s
}

// pick returns a live session, replacing one that had --turns invocations
// unless its requests are failing: a session is kept until it is served
// again, so that its outage ends when the service ends it.
func (w *worker) pick() *sessionLog {
	for len(w.live) < w.s.o.sessions {
		w.live = append(w.live, w.newSession())
	}
	i := w.rng.IntN(len(w.live))
	if w.live[i].invocations >= w.s.o.turns && !w.live[i].avail.down {
		w.live[i] = w.newSession()
	}
	return w.live[i]
}

func (w *worker) choose() opKind {
	n := w.rng.IntN(100)
	for _, o := range opWeights {
		if n < o.weight {
			return o.kind
		}
		n -= o.weight
	}
	return opRun
}

// loop runs operations until the deadline (or the op bound); each
// operation has its own deadline and finishes after the load's.
func (w *worker) loop(ctx context.Context, deadline time.Time) {
	for i := 0; i < maxOpsWorker && ctx.Err() == nil && time.Now().Before(deadline); i++ {
		w.do(ctx, w.pick(), w.choose())
		w.pause(ctx, time.Duration(w.rng.Float64()*2*float64(w.s.o.think)))
	}
}

// do runs one operation on s, creating s first when needed.
func (w *worker) do(ctx context.Context, s *sessionLog, k opKind) {
	if !s.created && !w.create(ctx, s) {
		return
	}
	switch k {
	case opUpdate:
		w.update(ctx, s)
	case opRead:
		rctx, cancel := context.WithTimeout(ctx, w.s.o.runTimeout)
		_, err := getSession(rctx, api.NewSessionServiceClient(w.conn(s)), s)
		cancel()
		w.observe(s, opRead, err)
	default:
		w.invoke(ctx, s, k)
	}
}

// create creates s, trying a few times; ALREADY_EXISTS means an earlier
// attempt was stored.
func (w *worker) create(ctx context.Context, s *sessionLog) bool {
	for attempt := 0; attempt < 4 && ctx.Err() == nil; attempt++ {
		cctx, cancel := context.WithTimeout(ctx, w.s.o.runTimeout)
		_, err := api.NewSessionServiceClient(w.conn(s)).CreateSession(cctx, &api.CreateSessionRequest{AppName: s.app, UserId: s.user,
			SessionId: s.id, State: initialState(s.id)})
		cancel()
		w.observe(s, opCreate, err)
		if err == nil || status.Code(err) == codes.AlreadyExists {
			s.created = true
			return true
		}
		w.pause(ctx, w.backoff(attempt))
	}
	return false
}

func (w *worker) update(ctx context.Context, s *sessionLog) {
	u := s.newUpdate()
	uctx, cancel := context.WithTimeout(ctx, w.s.o.runTimeout)
	defer cancel()
	_, err := api.NewSessionServiceClient(w.conn(s)).UpdateSessionState(uctx, &api.UpdateSessionStateRequest{
		AppName: s.app, UserId: s.user, SessionId: s.id, StateDelta: s.updateDelta(u)})
	w.observe(s, opUpdate, err)
	u.acked = err == nil
}

// invoke runs one invocation, with retries for the kinds a client retries.
func (w *worker) invoke(ctx context.Context, s *sessionLog, k opKind) {
	r := s.newRun(k)
	for attempt := 0; ctx.Err() == nil; attempt++ {
		r.attempts++
		vanished, err := w.attempt(ctx, s, r)
		if vanished {
			w.stats.vanished[k]++
			return
		}
		w.observe(s, k, err)
		if err == nil {
			r.acked = true
			if attempt > 0 {
				w.stats.retriedOK++
			}
			return
		}
		if !retryable(k, status.Code(err)) || attempt >= w.s.o.retries {
			return
		}
		w.stats.retries++
		w.pause(ctx, w.backoff(attempt))
	}
}

// attempt is one attempt of r on the session's replica; the replica the
// chaos kills counts it as running meanwhile.
func (w *worker) attempt(ctx context.Context, s *sessionLog, r *runLog) (vanished bool, err error) {
	if rc := w.s.replica; rc != nil && len(w.conns) == len(w.s.o.addrs) && s.replica == len(w.conns)-1 {
		rc.inFlight.Add(1)
		defer rc.inFlight.Add(-1)
	}
	switch r.kind {
	case opRun, opRunSSE:
		return false, w.runOnce(ctx, s, r)
	}
	return w.connectOnce(ctx, s, r)
}

// conn is the connection to the session's replica.
func (w *worker) conn(s *sessionLog) *grpc.ClientConn { return w.conns[s.replica%len(w.conns)] }

// observe counts an attempt on s that ended with err, and notes it in the
// session's availability. After a failure the session's next requests go
// to the next replica, as a client behind a load balancer would see them.
func (w *worker) observe(s *sessionLog, k opKind, err error) {
	w.stats.add(k, err)
	failed, neutral := attemptOutcome(k, err)
	if !neutral {
		s.avail.observe(time.Now(), failed, reasonOf(err))
	}
	if failed {
		s.replica = (s.replica + 1) % len(w.conns)
	}
}

// request is the RunRequest of every attempt of r.
func (w *worker) request(s *sessionLog, r *runLog) *api.RunRequest {
	text := "Hello " + runMarker(r.token)
	if r.kind != opRun && r.kind != opRunSSE {
		text = "Please record my visit " + toolTrigger + " " + runMarker(r.token)
	}
	mode := api.StreamingMode_STREAMING_MODE_NONE
	if r.kind == opRunSSE {
		mode = api.StreamingMode_STREAMING_MODE_SSE
	}
	maxCalls := int32(8)
	return &api.RunRequest{AppName: s.app, UserId: s.user, SessionId: s.id,
		NewMessage: &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}},
		StateDelta: s.runDelta(r), RequestId: r.token,
		RunConfig: &api.RunConfig{StreamingMode: mode, MaxLlmCalls: &maxCalls}}
}

// runOnce is one attempt of a Run: it reads every event.
func (w *worker) runOnce(ctx context.Context, s *sessionLog, r *runLog) error {
	ctx, cancel := context.WithTimeout(ctx, w.s.o.runTimeout)
	defer cancel()
	stream, err := api.NewRunnerServiceClient(w.conn(s)).Run(ctx, w.request(s, r))
	if err != nil {
		return err
	}
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		s.record(resp.GetEvent(), r)
	}
}

func (w *worker) backoff(attempt int) time.Duration {
	d := 250 * time.Millisecond << min(attempt, 4)
	return d/2 + time.Duration(w.rng.Int64N(int64(d)))
}

// pause waits d unless ctx ends first.
func (w *worker) pause(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// getSession reads a whole session, page by page when the server pages.
func getSession(ctx context.Context, client api.SessionServiceClient, s *sessionLog) (*v1.Session, error) {
	const pageSize, maxPages = 200, 10_000
	var out *v1.Session
	token := ""
	for range maxPages {
		resp, err := client.GetSession(ctx, &api.GetSessionRequest{AppName: s.app, UserId: s.user, SessionId: s.id,
			PageSize: pageSize, PageToken: token})
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = resp.GetSession()
		} else {
			out.Events = append(out.Events, resp.GetSession().GetEvents()...)
		}
		if resp.GetNextPageToken() == "" {
			return out, nil
		}
		if resp.GetNextPageToken() == token {
			return nil, errors.New("GetSession: the next page token repeats the last one")
		}
		token = resp.GetNextPageToken()
	}
	return nil, fmt.Errorf("GetSession: more than %d pages", maxPages)
}
