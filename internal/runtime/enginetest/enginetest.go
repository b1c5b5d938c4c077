// Package enginetest helps test the engine: a runner over in-memory sessions
// and scripted models, and reductions of events and requests to
// (author or role, text or part) pairs that read well in assertions.
package enginetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/sessions"
	"github.com/agentsvc/agentsvc/internal/sessions/memory"
)

// AppName is the app name of test runners.
const AppName = "test_app"

// UserID is the user of test sessions.
const UserID = "test_user"

// Harness is a runner over in-memory sessions with scripted models.
type Harness struct {
	Runner   *runtime.Runner
	Sessions sessions.Service
	Models   *scripted.Resolver
}

// New returns a harness running root with the given plugins. Models are
// added with h.Models.Add.
func New(t testing.TB, root runtime.Agent, plugins ...*runtime.Plugin) *Harness {
	t.Helper()
	tree, err := runtime.NewTree(root)
	if err != nil {
		t.Fatal(err)
	}
	ps, err := runtime.NewPlugins(plugins...)
	if err != nil {
		t.Fatal(err)
	}
	store := memory.New()
	res := scripted.NewResolver()
	return &Harness{
		Runner:   &runtime.Runner{App: &runtime.App{Name: AppName, Tree: tree, Plugins: ps}, Sessions: store, Models: res},
		Sessions: store,
		Models:   res,
	}
}

// NewSession creates a session with the given state.
func (h *Harness) NewSession(t testing.TB, state map[string]any) string {
	t.Helper()
	st, err := structpb.NewStruct(state)
	if err != nil {
		t.Fatal(err)
	}
	s, err := h.Sessions.Create(context.Background(), sessions.CreateRequest{AppName: AppName, UserID: UserID, State: st})
	if err != nil {
		t.Fatal(err)
	}
	return s.Id
}

// Run runs msg on the session and returns the events and the error.
func (h *Harness) Run(ctx context.Context, sessionID string, msg *v1.Content, rc runtime.RunConfig) ([]*v1.Event, error) {
	var events []*v1.Event
	for ev, err := range h.Runner.Run(ctx, runtime.RunRequest{UserID: UserID, SessionID: sessionID, NewMessage: msg, RunConfig: rc}) {
		if err != nil {
			return events, err
		}
		events = append(events, ev)
	}
	return events, nil
}

// RunText runs a user text on the session and fails the test on error.
func (h *Harness) RunText(t testing.TB, sessionID, text string) []*v1.Event {
	t.Helper()
	events, err := h.Run(context.Background(), sessionID, UserText(text), runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return events
}

// Session returns the stored session.
func (h *Harness) Session(t testing.TB, sessionID string) *v1.Session {
	t.Helper()
	s, err := h.Sessions.Get(context.Background(), sessions.GetRequest{AppName: AppName, UserID: UserID, SessionID: sessionID})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// UserText is a user message with one text part.
func UserText(text string) *v1.Content {
	return &v1.Content{Role: "user", Parts: []*v1.Part{{Text: text}}}
}

// Text is a model response with one text part.
func Text(text string) *v1.LlmResponse {
	return &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: text}}}}
}

// Call is a model response calling one function; args is JSON.
func Call(name, args string) *v1.LlmResponse {
	return Calls(&v1.FunctionCall{Name: name, Args: Struct(args)})
}

// Calls is a model response with several function calls.
func Calls(calls ...*v1.FunctionCall) *v1.LlmResponse {
	c := &v1.Content{Role: "model"}
	for _, fc := range calls {
		c.Parts = append(c.Parts, &v1.Part{FunctionCall: fc})
	}
	return &v1.LlmResponse{Content: c}
}

// Struct parses a JSON object; it panics on bad JSON (test data).
func Struct(js string) *structpb.Struct {
	s := &structpb.Struct{}
	if js == "" {
		return s
	}
	if err := protojson.Unmarshal([]byte(js), s); err != nil {
		panic(fmt.Sprintf("enginetest: bad JSON %q: %v", js, err))
	}
	return s
}

// Events reduces events to one "author: part" line per part.
func Events(events []*v1.Event) []string {
	var out []string
	for _, ev := range events {
		for _, p := range ev.GetContent().GetParts() {
			out = append(out, ev.Author+": "+PartString(p))
		}
	}
	return out
}

// Contents reduces contents to one "role: part" line per part.
func Contents(contents []*v1.Content) []string {
	var out []string
	for _, c := range contents {
		for _, p := range c.GetParts() {
			out = append(out, c.Role+": "+PartString(p))
		}
	}
	return out
}

// PartString renders a part compactly: its text, "call name{args}" or
// "response name{response}", with ids only when they are not generated.
func PartString(p *v1.Part) string {
	switch {
	case p.FunctionCall != nil:
		return "call " + p.FunctionCall.Name + compactJSON(p.FunctionCall.Args) + idSuffix(p.FunctionCall.Id)
	case p.FunctionResponse != nil:
		return "response " + p.FunctionResponse.Name + compactJSON(p.FunctionResponse.Response) + idSuffix(p.FunctionResponse.Id)
	case p.Thought:
		return "thought " + p.Text
	default:
		return p.Text
	}
}

func idSuffix(id string) string {
	if id == "" || strings.HasPrefix(id, "adk-") {
		return ""
	}
	return " #" + id
}

func compactJSON(s *structpb.Struct) string {
	if s == nil {
		return "{}"
	}
	b, err := protojson.MarshalOptions{}.Marshal(s)
	if err != nil {
		return "{?}"
	}
	// protojson's spacing is unstable by design; normalise it.
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return "{?}"
	}
	return out.String()
}
