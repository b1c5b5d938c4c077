package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"slices"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// App is an agent tree with its app-level settings.
type App struct {
	// Name identifies the app; sessions are scoped by it.
	Name string
	Tree *Tree
	// Plugins may be nil.
	Plugins *Plugins
	// Resumable apps record agent checkpoints, so that an invocation paused
	// at a long-running call resumes by its id without redoing finished work.
	Resumable bool
	// Compaction, when set, summarises older invocations at the end of an
	// invocation (ADK's events_compaction_config).
	Compaction *compaction.Config
	// ContextCache, when set, lets Gemini models cache the requests' stable
	// prefix (ADK's context_cache_config); see [v1.ContextCacheConfig].
	ContextCache *v1.ContextCacheConfig
	// Behavior is the ADK release line the app behaves like (app.yaml's
	// adk_behavior); the zero value is ADK 1.x.
	Behavior Behavior
	// NodePaths gives events ADK 2.x's node info: set for 2.x apps whose
	// agents are all LLM agents (ADK 2.x leaves the path of the old
	// workflow agents' events empty).
	NodePaths bool
	// Features are ADK's feature flags the app runs with; the zero value
	// holds ADK's defaults.
	Features features.Set
	// Closers are what the app holds open (e.g. MCP server sessions),
	// closed by Close.
	Closers []io.Closer
}

// Close closes the app's plugins and what it holds open, returning the
// errors joined.
func (a *App) Close(ctx context.Context) error {
	errs := []error{a.Plugins.Close(ctx)}
	for _, c := range a.Closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

// nodeInfo is the node info an event of an agent running at path carries:
// none outside ADK 2.x, an empty path where ADK leaves it so.
func (a *App) nodeInfo(path string) *v1.NodeInfo {
	if a.Behavior != Behavior2x {
		return nil
	}
	if !a.NodePaths {
		path = ""
	}
	return &v1.NodeInfo{Path: path}
}

// Runner runs invocations of one app. It is safe for concurrent use.
type Runner struct {
	App      *App
	Sessions sessions.Service
	Models   models.Resolver
	// HistorySessions is how many sessions, the most recently used, keep
	// the contents their agents built from the history between
	// invocations, so that an invocation reads only the events stored
	// since; each costs memory in proportion to its history. Zero means
	// DefaultHistorySessions; negative keeps none.
	HistorySessions int
	// HistoryBytes bounds the encoded size of the events kept with those
	// sessions' caches for a store that reads tails
	// ([sessions.TailReader]); past it the least recently used sessions'
	// caches go. Zero means [DefaultHistoryBytes].
	HistoryBytes int64
	// MaxDepth caps the nesting of JSON-like values in model responses: a
	// deeper response fails its model call (see [CheckModelResponse]) and
	// none of it is stored. Zero means [limits.DefaultMaxDepth].
	MaxDepth int
	// Telemetry traces and measures the invocations; nil means none (see
	// [NewTelemetry] for the global OpenTelemetry providers).
	Telemetry *Telemetry
	// Memory is the memory service tools search (load_memory,
	// preload_memory); nil means none.
	Memory memory.Service
	// Artifacts is the artifact service tools, callbacks and {artifact.x}
	// instructions use; nil means none.
	Artifacts artifacts.Service

	historiesOnce sync.Once
	histories     *histories
}

// RunRequest is one invocation's input.
type RunRequest struct {
	UserID    string
	SessionID string
	// NewMessage is the user's message; its role defaults to "user". It
	// may be nil, without an InvocationID or a RequestID, when the app
	// continues without a message (see [App.ContinuesWithoutMessage]).
	NewMessage *v1.Content
	// StateDelta is stored with the user event.
	StateDelta *structpb.Struct
	RunConfig  RunConfig
	// Client reaches tools that live in the caller; nil when there are none.
	Client ClientTools
	// Callbacks reaches callbacks that live in the caller; nil when there
	// are none.
	Callbacks ClientCallbacks
	// InvocationID resumes that invocation of a resumable app.
	InvocationID string
	// RequestID, when set, makes the run idempotent: it is stored on the
	// user event, and a run whose RequestID a user event of the session
	// already carries stores no new user message. When that invocation
	// finished (see invocationFinished), the run yields its stored events
	// again without calling a model; when it stopped early, the run
	// continues it under the same invocation id. The retry's message and
	// state delta are not compared with the stored ones: the id alone
	// names the request. At most MaxRequestIDLength bytes of UTF-8 without
	// control characters.
	RequestID string
}

// Invocation is a started invocation whose events have not been read yet.
type Invocation struct {
	runner *Runner
	ictx   *InvocationContext
	req    RunRequest
	// retry is set when an earlier run stored the request's id.
	retry *retry
}

// ID returns the invocation id.
func (inv *Invocation) ID() string { return inv.ictx.InvocationID }

// Start validates the request and loads the session, so that a bad request
// or an unknown session fails before any event. The invocation runs when
// its Events are read.
//
// The runner assumes that no other invocation of the session runs
// meanwhile (the service holds the session's lease): it closes the calls
// that earlier invocations left without a response.
func (r *Runner) Start(ctx context.Context, req RunRequest) (*Invocation, error) {
	inv := &Invocation{runner: r, req: req}
	ictx, err := r.newInvocation(ctx, req, inv)
	if err != nil {
		return nil, err
	}
	inv.ictx = ictx
	return inv, nil
}

// Events runs the invocation and yields its events. Every non-partial event
// is stored in the session before it is yielded; the user's message is
// stored first and not yielded. Iteration stops after the first error;
// events yielded before it stay stored. Events may be read once.
//
// Before anything else, function calls that earlier invocations of the
// session left without a response (a process that died mid-call) get an
// error response. When the invocation ends early (an error, a cancelled
// or expired context, or the caller stopping the iteration), its own calls
// without a response get one too, written on a context that survives the
// cancellation for a few seconds; long-running calls stay open for the
// user to answer. Either way the history the model sees next is valid.
func (inv *Invocation) Events() iter.Seq2[*v1.Event, error] {
	return inv.runner.run(inv.ictx, inv.req, inv.retry)
}

// Run starts an invocation and yields its events; see [Invocation.Events].
func (r *Runner) Run(ctx context.Context, req RunRequest) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		inv, err := r.Start(ctx, req)
		if err != nil {
			yield(nil, err)
			return
		}
		for ev, err := range inv.Events() {
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}

func (r *Runner) newInvocation(ctx context.Context, req RunRequest, inv *Invocation) (*InvocationContext, error) {
	msg := req.NewMessage
	continues := msg == nil && req.InvocationID == "" && req.RequestID == "" && r.App.ContinuesWithoutMessage()
	if !continues && (msg == nil || len(msg.Parts) == 0) {
		return nil, InvalidRequest("new_message must have at least one part")
	}
	if err := ValidateRequestID(req.RequestID); err != nil {
		return nil, err
	}
	if err := req.RunConfig.GetSessionConfig.validate(); err != nil {
		return nil, err
	}
	load := r.loadRequest(req)
	sess, err := r.loadSession(ctx, load)
	if errors.Is(err, sessions.ErrNotFound) {
		return nil, &Error{Code: CodeNotFound, Reason: ErrSessionNotFound.Reason,
			Message: "Session not found: " + req.SessionID, Err: err}
	}
	tel := r.Telemetry
	if err != nil {
		tel.storeError(ctx, err)
		return nil, fmt.Errorf("runner: load session: %w", err)
	}
	rc := req.RunConfig
	ictx := &InvocationContext{
		ctx:          ctx,
		InvocationID: NewInvocationID(),
		Agent:        r.App.Tree.Root(),
		UserContent:  msg,
		RunConfig:    &rc,
		inv: &invocation{app: r.App, models: r.Models, memory: r.Memory, artifacts: r.Artifacts, maxDepth: r.MaxDepth, session: sess, loaded: len(sess.Events), load: load,
			client: req.Client, callbacks: req.Callbacks,
			history: r.sessionHistory(sessionKey{r.App.Name, req.UserID, req.SessionID}),
			tel:     tel, attrs: tel.attrsOf(r.App.Name), owner: tel.ownerOf(r.App.Name, sess), summarize: r.summarize},
	}
	if req.InvocationID != "" {
		if !r.App.Resumable {
			return nil, InvalidRequest("invocation_id: app %s is not resumable", r.App.Name)
		}
		if !slices.ContainsFunc(sess.Events, func(ev *v1.Event) bool { return ev.InvocationId == req.InvocationID }) {
			return nil, &Error{Code: CodeNotFound, Reason: v1.ErrorReason_INVOCATION_NOT_FOUND.String(), Message: "Invocation ID not found: " + req.InvocationID}
		}
		ictx.InvocationID = req.InvocationID
	}
	rr, workflow := r.App.Tree.Root().(RootRunner)
	if !(workflow && rr.RunsEveryInvocation()) && req.InvocationID == "" && msg != nil {
		// An answer to calls continues the invocation that made them.
		id, resume, err := r.answeredInvocation(sess.Events, msg)
		if err != nil {
			return nil, err
		}
		if id != "" {
			ictx.InvocationID = id
		}
		if resume {
			inv.req.InvocationID = id
		}
	}
	if workflow && rr.RunsEveryInvocation() && req.InvocationID == "" {
		// ADK 2.x: answers continue the invocation that asked.
		id, err := responseInvocation(sess.Events, msg)
		if err != nil {
			return nil, err
		}
		if id != "" {
			ictx.InvocationID, ictx.inv.continues = id, id
		}
	}
	root := ""
	if r.App.Resumable {
		root = r.App.Tree.Root().Name()
	}
	if rt := findRetry(sess.Events, req.RequestID, root); rt != nil {
		if req.InvocationID != "" && req.InvocationID != rt.user.InvocationId {
			return nil, InvalidRequest("request_id names another invocation than invocation_id")
		}
		ictx.InvocationID = rt.user.InvocationId
		ictx.UserContent = rt.user.Content
		inv.retry = rt
	}
	if r.App.Resumable {
		ictx.inv.checkpoints = newCheckpoints(ictx.InvocationID, sess.Events)
	}
	return ictx, nil
}

// sessionHistory returns the kept contents caches of a session, or nil
// when the runner keeps none.
func (r *Runner) sessionHistory(key sessionKey) *sessionHistory {
	if r.keptHistories() == nil {
		return nil
	}
	return r.histories.session(key)
}

// keptHistories returns the runner's kept histories, nil when it keeps
// none.
func (r *Runner) keptHistories() *histories {
	r.historiesOnce.Do(func() {
		n := r.HistorySessions
		if n == 0 {
			n = DefaultHistorySessions
		}
		if n > 0 {
			maxBytes := r.HistoryBytes
			if maxBytes <= 0 {
				maxBytes = DefaultHistoryBytes
			}
			r.histories = newHistories(n, maxBytes)
		}
	})
	return r.histories
}

func (r *Runner) run(ictx *InvocationContext, req RunRequest, rt *retry) iter.Seq2[*v1.Event, error] {
	return func(yieldOut func(*v1.Event, error) bool) {
		ctx, tr := ictx.inv.tel.startInvocation(ictx)
		ictx.ctx = ctx
		var failure error
		defer func() { tr.end(ctx, failure) }()

		// Earlier invocations that died mid-call are closed first, so
		// that neither this one nor a retry sees their calls open.
		r.closeDanglingCalls(ictx, "", nil)

		finished := false
		yield := func(ev *v1.Event, err error) bool {
			if err != nil {
				failure = err
			}
			return yieldOut(ev, err)
		}
		defer func() {
			if finished {
				return
			}
			cause := failure
			if ictx.ctx.Err() != nil {
				cause = context.Cause(ictx.ctx)
			}
			r.closeDanglingCalls(ictx, ictx.InvocationID, cause)
		}()

		if rt != nil && rt.finished {
			replay(ictx.Events(), rt, yield)
			finished = true
			return
		}
		if rt == nil {
			if !r.startTurn(ictx, req, yield) {
				return
			}
		}
		if req.InvocationID != "" || rt != nil && r.App.Resumable {
			// A resumed invocation starts again from the root: finished
			// agents are skipped through their checkpoints.
			if ictx.AgentEnded(ictx.Agent.Name()) {
				finished = true
				return
			}
		} else {
			ictx.Agent = r.findAgentToRun(ictx)
		}

		plugins := r.App.Plugins
		content, err := plugins.BeforeRun(ictx)
		if err != nil {
			yield(nil, err)
			return
		}
		if content != nil {
			ev := ictx.NewEvent()
			ev.Author = "model"
			ev.Content = content
			if err := r.append(ictx, ev); err != nil {
				yield(nil, err)
				return
			}
			if !yield(ev, nil) {
				return
			}
		} else {
			for ev, err := range RunAgent(ictx, ictx.Agent) {
				if err != nil {
					yield(nil, err)
					return
				}
				if req.RunConfig.CustomMetadata != nil {
					ev.CustomMetadata = mergeMetadata(ev.CustomMetadata, req.RunConfig.CustomMetadata)
				}
				if !ev.GetPartial() {
					if err := r.append(ictx, ev); err != nil {
						yield(nil, err)
						return
					}
				}
				out, err := plugins.OnEvent(ictx, ev)
				if err != nil {
					yield(nil, err)
					return
				}
				if out == nil {
					out = ev
				}
				if !yield(out, nil) {
					return
				}
			}
		}
		// ADK runs the after-run callbacks after a before-run reply too.
		if err := plugins.AfterRun(ictx); err != nil {
			yield(nil, err)
			return
		}
		finished = true
		r.compact(ictx)
	}
}

// startTurn stores the user's message, as the plugins leave it, with the
// request's state delta; it reports whether the invocation goes on.
func (r *Runner) startTurn(ictx *InvocationContext, req RunRequest, yield func(*v1.Event, error) bool) bool {
	msg := req.NewMessage
	if msg == nil {
		// A run that continues without a message (ADK 2.x) stores no user
		// message; a state delta comes in an event of its own.
		if len(req.StateDelta.GetFields()) > 0 {
			if err := r.appendUserEvent(ictx, nil, req.StateDelta, ""); err != nil {
				yield(nil, err)
				return false
			}
		}
		return true
	}
	if msg.Role == "" {
		msg.Role = "user"
	}
	if m, err := r.App.Plugins.OnUserMessage(ictx, msg); err != nil {
		yield(nil, err)
		return false
	} else if m != nil {
		msg = m
	}
	ictx.UserContent = msg
	if err := r.appendUserEvent(ictx, msg, req.StateDelta, req.RequestID); err != nil {
		yield(nil, err)
		return false
	}
	return true
}

// append stores a non-partial event in the session.
func (r *Runner) append(ictx *InvocationContext, ev *v1.Event) error {
	return r.appendWith(ictx.ctx, ictx, ev)
}

// appendWith stores a non-partial event in the session on ctx.
func (r *Runner) appendWith(ctx context.Context, ictx *InvocationContext, ev *v1.Event) error {
	ictx.inv.mu.Lock()
	defer ictx.inv.mu.Unlock()
	if err := r.Sessions.AppendEvent(ctx, ictx.inv.session, ev); err != nil {
		ictx.inv.tel.storeError(ctx, err)
		return fmt.Errorf("runner: append event: %w", err)
	}
	return nil
}

func (r *Runner) appendUserEvent(ictx *InvocationContext, msg *v1.Content, delta *structpb.Struct, requestID string) error {
	ev := &v1.Event{
		Id:           NewEventID(),
		InvocationId: ictx.InvocationID,
		RequestId:    requestID,
		Author:       "user",
		NodeInfo:     r.App.nodeInfo(""),
		Content:      msg,
		Timestamp:    Now(),
		Actions:      &v1.EventActions{StateDelta: delta},
	}
	// ADK copies the run's custom metadata onto the user's event too.
	if rc := ictx.RunConfig; rc != nil && rc.CustomMetadata != nil {
		ev.CustomMetadata = rc.CustomMetadata
	}
	// A function response continues the branch of its call.
	if resps := FunctionResponses(ev); len(resps) > 0 {
		if call := findCallEvent(ictx.inv.session.Events, resps[0].Id); call != nil {
			ev.Branch = call.Branch
		}
	}
	return r.append(ictx, ev)
}

func mergeMetadata(dst, src *structpb.Struct) *structpb.Struct {
	if dst == nil {
		return src
	}
	out := &structpb.Struct{Fields: make(map[string]*structpb.Value, len(dst.Fields)+len(src.Fields))}
	for k, v := range dst.Fields {
		out.Fields[k] = v
	}
	for k, v := range src.Fields {
		out.Fields[k] = v
	}
	return out
}
