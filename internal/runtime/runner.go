package runtime

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
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
	// MaxDepth caps the nesting of JSON-like values in model responses: a
	// deeper response fails its model call (see [CheckModelResponse]) and
	// none of it is stored. Zero means [limits.DefaultMaxDepth].
	MaxDepth int

	historiesOnce sync.Once
	histories     *histories
}

// RunRequest is one invocation's input.
type RunRequest struct {
	UserID    string
	SessionID string
	// NewMessage is the user's message; its role defaults to "user".
	NewMessage *v1.Content
	// StateDelta is stored with the user event.
	StateDelta *structpb.Struct
	RunConfig  RunConfig
	// Client reaches tools that live in the caller; nil when there are none.
	Client ClientTools
	// InvocationID resumes that invocation of a resumable app.
	InvocationID string
}

// Invocation is a started invocation whose events have not been read yet.
type Invocation struct {
	runner *Runner
	ictx   *InvocationContext
	req    RunRequest
}

// ID returns the invocation id.
func (inv *Invocation) ID() string { return inv.ictx.InvocationID }

// Start validates the request and loads the session, so that a bad request
// or an unknown session fails before any event. The invocation runs when
// its Events are read.
func (r *Runner) Start(ctx context.Context, req RunRequest) (*Invocation, error) {
	ictx, err := r.newInvocation(ctx, req)
	if err != nil {
		return nil, err
	}
	return &Invocation{runner: r, ictx: ictx, req: req}, nil
}

// Events runs the invocation and yields its events. Every non-partial event
// is stored in the session before it is yielded; the user's message is
// stored first and not yielded. Iteration stops after the first error;
// events yielded before it stay stored. Events may be read once.
func (inv *Invocation) Events() iter.Seq2[*v1.Event, error] {
	return inv.runner.run(inv.ictx, inv.req)
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

func (r *Runner) newInvocation(ctx context.Context, req RunRequest) (*InvocationContext, error) {
	msg := req.NewMessage
	if msg == nil || len(msg.Parts) == 0 {
		return nil, InvalidRequest("new_message must have at least one part")
	}
	sess, err := r.Sessions.Get(ctx, sessions.GetRequest{AppName: r.App.Name, UserID: req.UserID, SessionID: req.SessionID})
	if errors.Is(err, sessions.ErrNotFound) {
		return nil, &Error{Code: CodeNotFound, Reason: ErrSessionNotFound.Reason,
			Message: "Session not found: " + req.SessionID, Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("runner: load session: %w", err)
	}
	rc := req.RunConfig
	ictx := &InvocationContext{
		ctx:          ctx,
		InvocationID: NewInvocationID(),
		Agent:        r.App.Tree.Root(),
		UserContent:  msg,
		RunConfig:    &rc,
		inv: &invocation{app: r.App, models: r.Models, maxDepth: r.MaxDepth, session: sess, client: req.Client,
			history: r.sessionHistory(sessionKey{r.App.Name, req.UserID, req.SessionID})},
	}
	if req.InvocationID != "" {
		if !r.App.Resumable {
			return nil, InvalidRequest("invocation_id: app %s is not resumable", r.App.Name)
		}
		if !slices.ContainsFunc(sess.Events, func(ev *v1.Event) bool { return ev.InvocationId == req.InvocationID }) {
			return nil, &Error{Code: CodeNotFound, Reason: "INVOCATION_NOT_FOUND", Message: "Invocation ID not found: " + req.InvocationID}
		}
		ictx.InvocationID = req.InvocationID
	}
	if r.App.Resumable {
		ictx.inv.checkpoints = newCheckpoints(ictx.InvocationID, sess.Events)
	}
	return ictx, nil
}

// sessionHistory returns the kept contents caches of a session, or nil
// when the runner keeps none.
func (r *Runner) sessionHistory(key sessionKey) *sessionHistory {
	r.historiesOnce.Do(func() {
		n := r.HistorySessions
		if n == 0 {
			n = DefaultHistorySessions
		}
		if n > 0 {
			r.histories = newHistories(n)
		}
	})
	if r.histories == nil {
		return nil
	}
	return r.histories.session(key)
}

func (r *Runner) run(ictx *InvocationContext, req RunRequest) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		plugins := r.App.Plugins
		msg := req.NewMessage
		if msg.Role == "" {
			msg.Role = "user"
		}
		if m, err := plugins.OnUserMessage(ictx, msg); err != nil {
			yield(nil, err)
			return
		} else if m != nil {
			msg = m
		}
		ictx.UserContent = msg
		if err := r.appendUserEvent(ictx, msg, req.StateDelta); err != nil {
			yield(nil, err)
			return
		}
		if req.InvocationID != "" {
			// A resumed invocation starts again from the root: finished
			// agents are skipped through their checkpoints.
			if ictx.AgentEnded(ictx.Agent.Name()) {
				return
			}
		} else {
			ictx.Agent = r.findAgentToRun(ictx)
		}

		if content, err := plugins.BeforeRun(ictx); err != nil {
			yield(nil, err)
			return
		} else if content != nil {
			ev := ictx.NewEvent()
			ev.Author = "model"
			ev.Content = content
			if err := r.append(ictx, ev); err != nil {
				yield(nil, err)
				return
			}
			if yield(ev, nil) {
				r.compact(ictx)
			}
			return
		}

		for ev, err := range RunAgent(ictx, ictx.Agent) {
			if err != nil {
				yield(nil, err)
				return
			}
			if req.RunConfig.CustomMetadata != nil {
				ev.CustomMetadata = mergeMetadata(ev.CustomMetadata, req.RunConfig.CustomMetadata)
			}
			if !ev.Partial {
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
		if err := plugins.AfterRun(ictx); err != nil {
			yield(nil, err)
			return
		}
		r.compact(ictx)
	}
}

// append stores a non-partial event in the session.
func (r *Runner) append(ictx *InvocationContext, ev *v1.Event) error {
	ictx.inv.mu.Lock()
	defer ictx.inv.mu.Unlock()
	if err := r.Sessions.AppendEvent(ictx.ctx, ictx.inv.session, ev); err != nil {
		return fmt.Errorf("runner: append event: %w", err)
	}
	return nil
}

func (r *Runner) appendUserEvent(ictx *InvocationContext, msg *v1.Content, delta *structpb.Struct) error {
	ev := &v1.Event{
		Id:           NewEventID(),
		InvocationId: ictx.InvocationID,
		Author:       "user",
		Content:      msg,
		Timestamp:    Now(),
		Actions:      &v1.EventActions{StateDelta: delta},
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
