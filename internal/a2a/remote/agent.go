// Package remote is ADK's RemoteA2aAgent: an agent of the tree that runs
// elsewhere, reached over A2A through its agent card.
package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2aclient"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// DefaultTimeout is ADK's DEFAULT_TIMEOUT for a remote agent's requests.
const DefaultTimeout = 600 * time.Second

// metaPrefix is ADK's A2A_METADATA_PREFIX for the custom metadata of the
// events a remote agent yields.
const metaPrefix = "a2a:"

// Config configures an [Agent].
type Config struct {
	Name        string
	Description string
	// AgentCard is the card's URL (http or https) or the path of a file
	// holding it, as ADK's agent_card.
	AgentCard string
	// Timeout bounds each request: the card's fetch and each message;
	// default [DefaultTimeout].
	Timeout time.Duration
	// HTTPClient sends the requests; nil uses a client of its own. Its
	// responses are bounded by [MaxResponseBytes] either way.
	HTTPClient *http.Client
	SubAgents  []runtime.Agent
	Callbacks  runtime.AgentCallbacks
}

// Agent is ADK's RemoteA2aAgent (its default, legacy path): it resolves
// the agent card (A2A 0.3 or 1.0, from a URL or a file) once, on first
// run, and sends the conversation since its last answer as one A2A
// message in the A2A context of that answer. In an ADK 2.x app whose
// remote card declares streaming it streams the message (SendStreamingMessage
// to a 1.0 interface, message/stream to a 0.3 one) and yields an event per
// update; otherwise it sends it blocking (SendMessage, message/send) and
// yields the answer as an event. Safe for concurrent invocations.
type Agent struct {
	cfg    Config
	client *http.Client

	mu     sync.Mutex
	remote sender
	// streaming is set when the card declares streaming.
	streaming bool
}

var _ runtime.Agent = (*Agent)(nil)

// New returns the agent; the card is fetched on the first run.
func New(cfg Config) (*Agent, error) {
	if cfg.Name == "" {
		return nil, errors.New("remote: name is required")
	}
	if err := CheckAgentCard(cfg.AgentCard); err != nil {
		return nil, err
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	base := cfg.HTTPClient
	if base == nil {
		base = &http.Client{}
	}
	rt := base.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	client := &http.Client{Transport: limitedTransport{next: rt, max: MaxResponseBytes}, Timeout: cfg.Timeout,
		CheckRedirect: base.CheckRedirect, Jar: base.Jar}
	return &Agent{cfg: cfg, client: client}, nil
}

// Name implements [runtime.Agent].
func (a *Agent) Name() string { return a.cfg.Name }

// Description implements [runtime.Agent].
func (a *Agent) Description() string { return a.cfg.Description }

// SubAgents implements [runtime.Agent].
func (a *Agent) SubAgents() []runtime.Agent { return a.cfg.SubAgents }

// Callbacks implements [runtime.Agent].
func (a *Agent) Callbacks() *runtime.AgentCallbacks { return &a.cfg.Callbacks }

// resolve reads and checks the card once, and builds the client of its
// JSON-RPC interface: A2A 1.0's, or 0.3's for an interface of 0.3, as
// a2a-sdk 1.x picks them.
func (a *Agent) resolve(ctx context.Context) (sender, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.remote != nil {
		return a.remote, nil
	}
	ctx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
	defer cancel()
	remote, err := a.connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("Failed to initialize remote A2A agent %s: %w", a.cfg.Name, err) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	a.remote = remote
	return remote, nil
}

func (a *Agent) connect(ctx context.Context) (sender, error) {
	c, err := readCard(ctx, a.client, a.cfg.AgentCard)
	if err != nil {
		return nil, err
	}
	a.streaming = c.Capabilities.Streaming
	iface, _ := c.jsonRPCInterface()
	if u, err := url.Parse(iface.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("Invalid RPC URL in agent card: %s", iface.URL) //nolint:staticcheck // ST1005: ADK's message, word for word.
	}
	if !iface.legacy() {
		return &jsonRPC1{client: a.client, url: iface.URL, tenant: iface.Tenant}, nil
	}
	return a2aclient.NewFromEndpoints(ctx, []a2a.AgentInterface{{URL: iface.URL, Transport: a2a.TransportProtocolJSONRPC}},
		a2aclient.WithJSONRPCTransport(a.client))
}

// Run implements [runtime.Agent]: ADK's _run_async_impl.
func (a *Agent) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		ctx := ictx.Context()
		remote, err := a.resolve(ctx)
		if err != nil {
			ev := ictx.NewEvent()
			ev.ErrorMessage = "Failed to initialize remote A2A agent: " + err.Error()
			yield(ev, nil)
			return
		}
		adk2 := ictx.App() != nil && ictx.App().Behavior == runtime.Behavior2x
		msg := requestForFunctionResponse(ictx.Events(), adk2)
		if msg == nil {
			parts, contextID := a.messageParts(ictx.Events(), adk2)
			if len(parts) == 0 {
				ev := ictx.NewEvent()
				ev.Content = &v1.Content{}
				yield(ev, nil)
				return
			}
			msg = a2a.NewMessage(a2a.MessageRoleUser, parts...)
			msg.ContextID = contextID
		}
		if s, ok := remote.(streamer); ok && a.streams(ictx) {
			a.runStream(ictx, s, msg, yield)
			return
		}
		sendCtx, cancel := context.WithTimeout(ctx, a.cfg.Timeout)
		res, err := remote.SendMessage(sendCtx, &a2a.MessageSendParams{Message: msg})
		cancel()
		if err != nil {
			yield(requestFailed(ictx, msg, err))
			return
		}
		yield(a.responseEvent(ictx, msg, res), nil)
	}
}

// responseEvent is ADK's _handle_a2a_response for a task or a message
// answered: the task's message (see [taskMessage]), thoughts while the
// task still works, or the message answered.
func (a *Agent) responseEvent(ictx *runtime.InvocationContext, req *a2a.Message, res a2a.SendMessageResult) *v1.Event {
	ev := ictx.NewEvent()
	meta := map[string]any{metaPrefix + "request": dump(req), metaPrefix + "response": dump(res)}
	switch r := res.(type) {
	case *a2a.Task:
		adk2 := ictx.App() != nil && ictx.App().Behavior == runtime.Behavior2x
		if m := taskMessage(r, adk2); m != nil {
			fillFromMessage(ev, m)
			if r.Status.State == a2a.TaskStateSubmitted || r.Status.State == a2a.TaskStateWorking {
				for _, p := range ev.GetContent().GetParts() {
					p.Thought = true
				}
			}
			if adk2 && len(ev.GetContent().GetParts()) > 0 && (r.Status.State == a2a.TaskStateCompleted ||
				r.Status.State == a2a.TaskStateFailed || r.Status.State == a2a.TaskStateCanceled) {
				ev.Actions = &v1.EventActions{SkipSummarization: true}
			}
		}
		addMockInputCall(ev, r.Status.State)
		meta[metaPrefix+"task_id"] = string(r.ID)
		if r.ContextID != "" {
			meta[metaPrefix+"context_id"] = r.ContextID
		}
	case *a2a.Message:
		fillFromMessage(ev, r)
		if r.ContextID != "" {
			meta[metaPrefix+"context_id"] = r.ContextID
		}
	}
	ev.CustomMetadata = metadata(meta)
	return ev
}

// taskMessage is the message of a task answered, as ADK's
// convert_a2a_task_to_event reads it: in ADK 1.x its last artifact, else
// its status message, else its last history message; in ADK 2.x the parts
// of all its artifacts, else its status message, else its last history
// message from the agent (a user's message is not the agent's output).
func taskMessage(t *a2a.Task, adk2 bool) *a2a.Message {
	switch {
	case len(t.Artifacts) > 0 && adk2:
		m := &a2a.Message{Role: a2a.MessageRoleAgent}
		for _, art := range t.Artifacts {
			m.Parts = append(m.Parts, art.Parts...)
		}
		return m
	case len(t.Artifacts) > 0:
		return &a2a.Message{Role: a2a.MessageRoleAgent, Parts: t.Artifacts[len(t.Artifacts)-1].Parts}
	case t.Status.Message != nil && len(t.Status.Message.Parts) > 0:
		return t.Status.Message
	case !adk2 && len(t.History) > 0:
		return t.History[len(t.History)-1]
	}
	for i := len(t.History) - 1; i >= 0; i-- {
		if t.History[i].Role == a2a.MessageRoleAgent {
			return t.History[i]
		}
	}
	return nil
}

// fillFromMessage is ADK's convert_a2a_message_to_event: the parts that
// convert, as the model's content, and the ids of long-running calls.
func fillFromMessage(ev *v1.Event, m *a2a.Message) {
	content := &v1.Content{Role: "model", Parts: []*v1.Part{}}
	for _, p := range m.Parts {
		part, err := a2aPartFromA2A(p)
		if err != nil {
			continue
		}
		if meta := p.Meta(); meta[longRunningKey] == true && part.GetFunctionCall() != nil {
			ev.LongRunningToolIds = append(ev.LongRunningToolIds, part.GetFunctionCall().GetId())
		}
		content.Parts = append(content.Parts, part)
	}
	ev.Content = content
}

// dump is a value as its JSON object, ADK's model_dump(by_alias=True).
func dump(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

func structStruct(m map[string]any) (*structpb.Struct, error) { return structpb.NewStruct(m) }

func metadata(m map[string]any) *structpb.Struct {
	s, err := structpb.NewStruct(m)
	if err != nil {
		return nil
	}
	return s
}
