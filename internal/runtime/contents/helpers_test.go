package contents_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
)

// The tests build histories from these helpers. An event's role follows
// its author: "user" for the user, "model" for agents.

const agent = "me"

type eventOption func(*v1.Event)

func branch(b string) eventOption { return func(e *v1.Event) { e.Branch = b } }

func invocation(id string) eventOption { return func(e *v1.Event) { e.InvocationId = id } }

func at(ts float64) eventOption { return func(e *v1.Event) { e.Timestamp = ts } }

func role(r string) eventOption { return func(e *v1.Event) { e.Content.Role = r } }

func actions(a *v1.EventActions) eventOption { return func(e *v1.Event) { e.Actions = a } }

func event(author string, parts []*v1.Part, opts ...eventOption) *v1.Event {
	r := "model"
	if author == "user" {
		r = "user"
	}
	e := &v1.Event{Author: author, Content: &v1.Content{Role: r, Parts: parts}}
	for _, o := range opts {
		o(e)
	}
	return e
}

func user(text string, opts ...eventOption) *v1.Event {
	return event("user", parts(textPart(text)), opts...)
}

func said(author, text string, opts ...eventOption) *v1.Event {
	return event(author, parts(textPart(text)), opts...)
}

func parts(p ...*v1.Part) []*v1.Part { return p }

func textPart(s string) *v1.Part { return &v1.Part{Text: s} }

func callPart(id, name string, args map[string]any) *v1.Part {
	return &v1.Part{FunctionCall: &v1.FunctionCall{Id: id, Name: name, Args: mustStruct(args)}}
}

func respPart(id, name string, response map[string]any) *v1.Part {
	return &v1.Part{FunctionResponse: &v1.FunctionResponse{Id: id, Name: name, Response: mustStruct(response)}}
}

// calls is an agent's function call event.
func calls(author string, p ...*v1.Part) *v1.Event { return event(author, p) }

// responds is a function response event: authored by the agent, role user.
func responds(author string, p ...*v1.Part) *v1.Event { return event(author, p, role("user")) }

func mustStruct(m map[string]any) *structpb.Struct {
	if m == nil {
		return nil
	}
	s, err := structpb.NewStruct(m)
	if err != nil {
		panic(err)
	}
	return s
}

func content(r string, p ...*v1.Part) *v1.Content { return &v1.Content{Role: r, Parts: p} }

func userContent(text string) *v1.Content { return content("user", textPart(text)) }

func modelContent(text string) *v1.Content { return content("model", textPart(text)) }

// contentsOf is the stored content of each event, for expectations that the
// events pass through unchanged.
func contentsOf(events ...*v1.Event) []*v1.Content {
	out := make([]*v1.Content, len(events))
	for i, e := range events {
		out[i] = e.GetContent()
	}
	return out
}

func mustBuild(t *testing.T, events []*v1.Event, agentName, br string, opts contents.Options) []*v1.Content {
	t.Helper()
	got, err := contents.Build(events, agentName, br, opts)
	if err != nil {
		t.Fatalf("Build() error: %v", err)
	}
	return got
}

func diff(want, got []*v1.Content) string {
	return cmp.Diff(want, got, protocmp.Transform(), cmpEmptyAsNil)
}

// cmpEmptyAsNil lets a test write nil for "no contents".
var cmpEmptyAsNil = cmp.FilterValues(func(a, b []*v1.Content) bool {
	return len(a) == 0 && len(b) == 0
}, cmp.Ignore())
