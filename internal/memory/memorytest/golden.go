package memorytest

import (
	_ "embed"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

// adkGolden holds what google-adk's InMemoryMemoryService answered to a
// seeded series of adds and searches; testdata/adk_golden.py made it.
//
//go:embed testdata/adk_golden.json
var adkGolden []byte

type golden struct {
	ADK   string       `json:"adk"`
	Steps []goldenStep `json:"steps"`
}

type goldenStep struct {
	Add    *goldenAdd    `json:"add"`
	Search *goldenSearch `json:"search"`
}

type goldenAdd struct {
	App     string        `json:"app"`
	User    string        `json:"user"`
	Session string        `json:"session"`
	Events  []goldenEvent `json:"events"`
}

type goldenEvent struct {
	Author    string         `json:"author"`
	Timestamp float64        `json:"timestamp"`
	Content   *goldenContent `json:"content"`
}

type goldenContent struct {
	Role  string       `json:"role"`
	Parts []goldenPart `json:"parts"`
}

type goldenPart struct {
	Text         *string `json:"text,omitempty"`
	FunctionCall *string `json:"function_call,omitempty"`
}

type goldenSearch struct {
	App   string        `json:"app"`
	User  string        `json:"user"`
	Query string        `json:"query"`
	Found []goldenFound `json:"found"`
}

type goldenFound struct {
	Author    string       `json:"author"`
	Role      string       `json:"role"`
	Parts     []goldenPart `json:"parts"`
	Timestamp string       `json:"timestamp"`
}

var goldenCases = []contractCase{
	{"ReplaysADKAnswers", testReplaysADKAnswers},
}

// testReplaysADKAnswers replays the recorded adds and checks every search
// against ADK's answer: entries, order, authors, contents and timestamps.
func testReplaysADKAnswers(t *testing.T, newService Factory) {
	var g golden
	if err := json.Unmarshal(adkGolden, &g); err != nil {
		t.Fatalf("testdata/adk_golden.json: %v", err)
	}
	svc := newService(t, memory.Limits{})
	searches := 0
	for i, step := range g.Steps {
		switch {
		case step.Add != nil:
			add(t, svc, step.Add.session())
		case step.Search != nil:
			s := step.Search
			got := search(t, svc, s.App, s.User, s.Query)
			want := make([]goldenFound, len(s.Found))
			for j, f := range s.Found {
				f.Timestamp = localTimestamp(t, f.Timestamp)
				want[j] = f
			}
			if diff := cmp.Diff(want, foundOf(got)); diff != "" {
				t.Errorf("step %d: Search(%s/%s, %q) differs from ADK %s (-adk +got):\n%s", i, s.App, s.User, s.Query, g.ADK, diff)
			}
			searches++
		}
	}
	if searches == 0 {
		t.Fatal("the recording holds no search")
	}
}

func (a *goldenAdd) session() *v1.Session {
	sess := session(a.App, a.User, a.Session)
	for _, e := range a.Events {
		ev := &v1.Event{Author: e.Author, Timestamp: e.Timestamp, InvocationId: "e-golden"}
		if e.Content != nil {
			ev.Content = &v1.Content{Role: e.Content.Role, Parts: []*v1.Part{}}
			for _, p := range e.Content.Parts {
				part := &v1.Part{Text: p.text()}
				if p.FunctionCall != nil {
					part = &v1.Part{FunctionCall: &v1.FunctionCall{Name: *p.FunctionCall}}
				}
				ev.Content.Parts = append(ev.Content.Parts, part)
			}
		}
		sess.Events = append(sess.Events, ev)
	}
	return sess
}

func (p goldenPart) text() string {
	if p.Text == nil {
		return ""
	}
	return *p.Text
}

// foundOf puts entries in the recording's form.
func foundOf(entries []memory.Entry) []goldenFound {
	out := make([]goldenFound, len(entries))
	for i, e := range entries {
		f := goldenFound{Author: e.Author, Role: e.Content.GetRole(), Timestamp: e.Timestamp}
		for _, p := range e.Content.GetParts() {
			if fc := p.GetFunctionCall(); fc != nil {
				f.Parts = append(f.Parts, goldenPart{FunctionCall: &fc.Name})
				continue
			}
			text := p.GetText()
			f.Parts = append(f.Parts, goldenPart{Text: &text})
		}
		out[i] = f
	}
	return out
}

// localTimestamp turns a timestamp ADK formatted in UTC into the one it
// formats in the process's time zone, as the store does.
func localTimestamp(t *testing.T, utc string) string {
	t.Helper()
	at, err := time.ParseInLocation("2006-01-02T15:04:05", utc, time.UTC)
	if err != nil {
		t.Fatalf("recorded timestamp %q: %v", utc, err)
	}
	local := at.In(time.Local).Format("2006-01-02T15:04:05")
	if _, frac, ok := strings.Cut(utc, "."); ok {
		local += "." + frac
	}
	return local
}
