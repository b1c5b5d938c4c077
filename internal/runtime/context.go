package runtime

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/trace"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/artifacts"
	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// DefaultMaxLLMCalls is ADK's default bound on model calls per invocation.
const DefaultMaxLLMCalls = 500

// RunConfig tunes one invocation.
type RunConfig struct {
	// Streaming is ADK's SSE streaming mode: the model's partial answers
	// are yielded as partial events before the aggregated one.
	Streaming bool
	// MaxLLMCalls bounds the model calls; zero or less means no bound.
	MaxLLMCalls int
	// CustomMetadata is copied onto every event of the invocation.
	CustomMetadata *structpb.Struct
	// GetSessionConfig, when set, selects the events the invocation
	// loads; see [GetSessionConfig] for what the invocation then cannot
	// see.
	GetSessionConfig *GetSessionConfig
}

// ClientTools reaches the tools that live in the client running the
// invocation. The service provides it on Connect; it is nil otherwise.
type ClientTools interface {
	// Tools returns the tools the client declared.
	Tools() []Tool
}

// invocation is the part of the context shared by every agent of one
// invocation.
type invocation struct {
	app       *App
	models    models.Resolver
	memory    memory.Service    // nil: none
	artifacts artifacts.Service // nil: none
	maxDepth  int               // Runner.MaxDepth
	session   *v1.Session
	// loaded is how many events the session held when the invocation
	// started.
	loaded int
	// load is what the invocation read of the session.
	load     sessions.GetRequest
	mu       sync.RWMutex // guards session while parallel agents read it
	llmCalls atomic.Int64
	ended    atomic.Bool
	client   ClientTools
	// callbacks reaches the client's callbacks; nil without a client.
	callbacks ClientCallbacks
	// continues is the invocation an ADK 2.x resume goes on with, if any.
	continues string
	// checkpoints is set for a resumable app's invocations.
	checkpoints *checkpoints
	// history holds the session's kept contents caches; nil when the
	// runner keeps none.
	history *sessionHistory
	// nodes numbers the runs of the agents (ADK 2.x node paths).
	nodes nodePaths
	// tel traces the invocation; attrs are its metric attributes, owner
	// the start option of its spans naming whose they are (nil when
	// spans are off).
	tel   *Telemetry
	attrs *appAttrs
	owner trace.SpanStartEventOption
	// summarize stores a summary of events (see Runner.summarize);
	// tokenCompacted is set once a summary made before a model request
	// stored one.
	summarize      func(ictx *InvocationContext, events []*v1.Event, trigger string) bool
	tokenCompacted atomic.Bool
}

// InvocationContext is what an agent sees of the invocation it runs in. A
// child context (see [InvocationContext.WithAgent]) shares the invocation and
// differs in agent and branch. Methods are safe for concurrent use by the
// agents of one invocation.
type InvocationContext struct {
	ctx          context.Context //nolint:containedctx // the invocation's context travels with it, as in ADK; agents read it through Context.
	InvocationID string
	// Branch is the dot-separated path of agents that isolates the contents
	// of parallel children; empty at the root.
	Branch      string
	Agent       Agent
	UserContent *v1.Content
	RunConfig   *RunConfig
	inv         *invocation
	// nodePath is the ADK 2.x node path of the agent's run.
	nodePath string
	// nodeInput, when set, is a user event seen after the first
	// nodeInputAt stored events and never stored (see WithNodeInput).
	nodeInput   *v1.Event
	nodeInputAt int
	// isolated contexts see only the events of scope, and their events
	// carry it (see WithIsolation); nextPath, when set, is the node path
	// the next agent run takes (see WithNodePath).
	isolated bool
	scope    string
	nextPath string
}

// Context returns the invocation's context; it is cancelled when the
// invocation is.
func (ictx *InvocationContext) Context() context.Context { return ictx.ctx }

// App returns the app the invocation runs in.
func (ictx *InvocationContext) App() *App { return ictx.inv.app }

// Models resolves model names to models.
func (ictx *InvocationContext) Models() models.Resolver { return ictx.inv.models }

// MaxDepth returns the nesting cap of model responses (see
// [CheckModelResponse]); zero or less means the default.
func (ictx *InvocationContext) MaxDepth() int { return ictx.inv.maxDepth }

// ClientTools returns the client's tools, or nil when the invocation has no
// client channel.
func (ictx *InvocationContext) ClientTools() ClientTools { return ictx.inv.client }

// SearchMemory searches the user's memories, as ADK's
// tool_context.search_memory: an error when the runner has no memory
// service.
func (ictx *InvocationContext) SearchMemory(query string) ([]memory.Entry, error) {
	if ictx.inv.memory == nil {
		return nil, &Error{Code: CodeFailedPrecondition, Reason: v1.ErrorReason_MEMORY_NOT_CONFIGURED.String(), Message: "Memory service is not available."}
	}
	return ictx.inv.memory.Search(ictx.ctx, ictx.inv.app.Name, ictx.inv.session.UserId, query)
}

// errNoArtifacts is ADK's error when an app has no artifact service.
var errNoArtifacts = &Error{Code: CodeFailedPrecondition, Reason: v1.ErrorReason_ARTIFACTS_NOT_CONFIGURED.String(), Message: "Artifact service is not initialized."}

// artifactKey is the key of the session's artifact called filename.
func (ictx *InvocationContext) artifactKey(filename string) artifacts.Key {
	s := ictx.inv.session
	return artifacts.Key{AppName: ictx.inv.app.Name, UserID: s.UserId, SessionID: s.Id, Filename: filename}
}

// SaveArtifact saves part as the next version of the session's (or, for a
// "user:" name, the user's) artifact and records the version in actions'
// artifact_delta, as ADK's context.save_artifact does. With nil actions
// nothing is recorded, as when ADK code calls the artifact service itself.
func (ictx *InvocationContext) SaveArtifact(actions *v1.EventActions, filename string, part *v1.Part) (int64, error) {
	if ictx.inv.artifacts == nil {
		return 0, errNoArtifacts
	}
	version, err := ictx.inv.artifacts.Save(ictx.ctx, ictx.artifactKey(filename), part, nil)
	if err != nil || actions == nil {
		return version, err
	}
	if actions.ArtifactDelta == nil {
		actions.ArtifactDelta = map[string]int64{}
	}
	actions.ArtifactDelta[filename] = version
	return version, nil
}

// SaveArtifacts saves files by name, in name order, as [SaveArtifact]
// saves one: what a client's tool or callback returns.
func (ictx *InvocationContext) SaveArtifacts(actions *v1.EventActions, files map[string]*v1.Part) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if _, err := ictx.SaveArtifact(actions, name, files[name]); err != nil {
			return err
		}
	}
	return nil
}

// LoadArtifact returns a version of an artifact (the latest with
// [artifacts.Latest]); nil when there is none, as ADK's None.
func (ictx *InvocationContext) LoadArtifact(filename string, version int64) (*v1.Part, error) {
	if ictx.inv.artifacts == nil {
		return nil, errNoArtifacts
	}
	part, err := ictx.inv.artifacts.Load(ictx.ctx, ictx.artifactKey(filename), version)
	if errors.Is(err, artifacts.ErrNotFound) {
		return nil, nil
	}
	return part, err
}

// ArtifactVersion returns the metadata of a version of an artifact (the
// latest with [artifacts.Latest]), as ADK's get_artifact_version; nil when
// there is none.
func (ictx *InvocationContext) ArtifactVersion(filename string, version int64) (*artifacts.Version, error) {
	if ictx.inv.artifacts == nil {
		return nil, errNoArtifacts
	}
	v, err := ictx.inv.artifacts.GetArtifactVersion(ictx.ctx, ictx.artifactKey(filename), version)
	if errors.Is(err, artifacts.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// ListArtifacts returns the names of the session's and the user's
// artifacts, sorted.
func (ictx *InvocationContext) ListArtifacts() ([]string, error) {
	if ictx.inv.artifacts == nil {
		return nil, errNoArtifacts
	}
	s := ictx.inv.session
	return ictx.inv.artifacts.ListKeys(ictx.ctx, ictx.inv.app.Name, s.UserId, s.Id)
}

// HasArtifacts reports whether the invocation has an artifact service.
func (ictx *InvocationContext) HasArtifacts() bool { return ictx.inv.artifacts != nil }

// ClientCallbacks returns the client's callbacks, or nil when the
// invocation has no client channel.
func (ictx *InvocationContext) ClientCallbacks() ClientCallbacks { return ictx.inv.callbacks }

// WithAgent returns a child context running agent on the same branch.
func (ictx *InvocationContext) WithAgent(agent Agent) *InvocationContext {
	c := *ictx
	c.Agent = agent
	return &c
}

// WithBranch returns a child context on another branch.
func (ictx *InvocationContext) WithBranch(branch string) *InvocationContext {
	c := *ictx
	c.Branch = branch
	return &c
}

// EndInvocation stops the invocation after the current step.
func (ictx *InvocationContext) EndInvocation() { ictx.inv.ended.Store(true) }

// Ended reports whether the invocation was ended.
func (ictx *InvocationContext) Ended() bool { return ictx.inv.ended.Load() }

// IncrementLLMCalls counts one model call and fails with ADK's error when
// the invocation's bound is exceeded.
func (ictx *InvocationContext) IncrementLLMCalls() error {
	n := ictx.inv.llmCalls.Add(1)
	if limit := ictx.RunConfig.MaxLLMCalls; limit > 0 && n > int64(limit) {
		return newLLMCallsExceeded(limit)
	}
	return nil
}

// SessionID returns the id of the invocation's session.
func (ictx *InvocationContext) SessionID() string { return ictx.inv.session.Id }

// UserID returns the id of the invocation's user.
func (ictx *InvocationContext) UserID() string { return ictx.inv.session.UserId }

// Events returns the session's events so far. The slice and the events are
// shared and must not be modified.
func (ictx *InvocationContext) Events() []*v1.Event {
	ictx.inv.mu.RLock()
	events := ictx.inv.session.Events
	ictx.inv.mu.RUnlock()
	return ictx.isolate(ictx.withNodeInput(events))
}

// StateValue returns the session state value of key (prefixed keys
// included), as stored so far in the invocation.
func (ictx *InvocationContext) StateValue(key string) (*structpb.Value, bool) {
	ictx.inv.mu.RLock()
	defer ictx.inv.mu.RUnlock()
	v, ok := ictx.inv.session.GetState().GetFields()[key]
	return v, ok
}

// SetSessionState sets key in the invocation's copy of the session state
// without recording a delta, as ADK code that writes
// invocation_context.session.state does: later reads of this invocation
// see v, and nothing is stored. A nil v removes the key.
func (ictx *InvocationContext) SetSessionState(key string, v *structpb.Value) {
	ictx.inv.mu.Lock()
	defer ictx.inv.mu.Unlock()
	s := ictx.inv.session
	if v == nil {
		delete(s.GetState().GetFields(), key)
		return
	}
	if s.State == nil {
		s.State = &structpb.Struct{}
	}
	if s.State.Fields == nil {
		s.State.Fields = map[string]*structpb.Value{}
	}
	s.State.Fields[key] = v
}

// StateSnapshot returns a copy of the session state.
func (ictx *InvocationContext) StateSnapshot() *structpb.Struct {
	ictx.inv.mu.RLock()
	defer ictx.inv.mu.RUnlock()
	fields := make(map[string]*structpb.Value, len(ictx.inv.session.GetState().GetFields()))
	for k, v := range ictx.inv.session.GetState().GetFields() {
		fields[k] = v
	}
	return &structpb.Struct{Fields: fields}
}

// WithContext returns a child context whose Context is ctx, e.g. one that a
// workflow agent cancels for its children.
func (ictx *InvocationContext) WithContext(ctx context.Context) *InvocationContext {
	c := *ictx
	c.ctx = ctx
	return &c
}
