package contents_test

import (
	"testing"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
)

func rewindTo(id string) eventOption {
	return actions(&v1.EventActions{RewindBeforeInvocationId: id})
}

func TestBehaviorC6Rewind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		events []*v1.Event
		want   []*v1.Content
	}{
		{
			name: "rewind removes the invocation and everything after it",
			events: []*v1.Event{
				user("one", invocation("i1")),
				said(agent, "reply one", invocation("i1")),
				user("two", invocation("i2")),
				said(agent, "reply two", invocation("i2")),
				user("three", invocation("i3")),
				{Author: "user", InvocationId: "i4", Actions: &v1.EventActions{RewindBeforeInvocationId: "i2"}},
				user("four", invocation("i5")),
			},
			want: []*v1.Content{userContent("one"), modelContent("reply one"), userContent("four")},
		},
		{
			name: "the rewind event itself is dropped even with content",
			events: []*v1.Event{
				user("one", invocation("i1")),
				user("undo", invocation("i2"), rewindTo("i1")),
				user("again", invocation("i3")),
			},
			want: []*v1.Content{userContent("again")},
		},
		{
			name: "rewind to an unknown invocation removes only itself",
			events: []*v1.Event{
				user("one", invocation("i1")),
				user("undo", invocation("i2"), rewindTo("nope")),
				user("two", invocation("i3")),
			},
			want: []*v1.Content{userContent("one"), userContent("two")},
		},
		{
			name: "a rewind inside a rewound range is ignored",
			events: []*v1.Event{
				user("one", invocation("i1")),
				user("two", invocation("i2")),
				user("undo two", invocation("i3"), rewindTo("i2")),
				user("three", invocation("i4")),
				user("undo all", invocation("i5"), rewindTo("i2")),
			},
			want: []*v1.Content{userContent("one")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := mustBuild(t, tc.events, agent, "", contents.Options{})
			if d := diff(tc.want, got); d != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func TestBehaviorC7CurrentTurnOnly(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		events []*v1.Event
		branch string
		want   []*v1.Content
	}{
		{
			name: "starts at the latest user event",
			events: []*v1.Event{
				user("old question"),
				said(agent, "old answer"),
				user("new question"),
				calls(agent, callPart("c1", "f", nil)),
				responds(agent, respPart("c1", "f", map[string]any{"r": 1})),
			},
			want: []*v1.Content{
				userContent("new question"),
				content("model", callPart("c1", "f", nil)),
				content("user", respPart("c1", "f", map[string]any{"r": 1})),
			},
		},
		{
			name: "starts at another agent's reply",
			events: []*v1.Event{
				user("question"),
				said("planner", "plan: do X"),
				said(agent, "doing X"),
			},
			want: []*v1.Content{
				content("user", textPart("For context:"), textPart("[planner] said: plan: do X")),
				modelContent("doing X"),
			},
		},
		{
			name: "invisible user events do not start the turn",
			events: []*v1.Event{
				user("visible"),
				user("other branch", branch("p.b")),
				event("user", parts(&v1.Part{Text: "thought", Thought: true})),
				said(agent, "answer"),
			},
			branch: "p.a",
			want:   []*v1.Content{userContent("visible"), modelContent("answer")},
		},
		{
			name:   "no turn start gives no contents",
			events: []*v1.Event{said(agent, "alone")},
			want:   nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := mustBuild(t, tc.events, agent, tc.branch, contents.Options{CurrentTurnOnly: true})
			if d := diff(tc.want, got); d != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func compaction(start, end float64, summary *v1.Content, opts ...eventOption) *v1.Event {
	e := &v1.Event{
		Author: "user",
		Actions: &v1.EventActions{Compaction: &v1.EventCompaction{
			StartTimestamp: start, EndTimestamp: end, CompactedContent: summary,
		}},
	}
	for _, o := range opts {
		o(e)
	}
	return e
}

func TestBehaviorC8Compaction(t *testing.T) {
	t.Parallel()
	summary := modelContent("Summary: the user asked about X.")
	tests := []struct {
		name   string
		events []*v1.Event
		want   []*v1.Content
	}{
		{
			name: "summary stands in for the covered events",
			events: []*v1.Event{
				user("one", at(1)),
				said(agent, "two", at(2)),
				user("three", at(3)),
				compaction(1, 2, summary, at(4)),
				said(agent, "five", at(5)),
			},
			want: []*v1.Content{summary, userContent("three"), modelContent("five")},
		},
		{
			name: "summary is placed at its end timestamp",
			events: []*v1.Event{
				user("one", at(1)),
				user("two", at(2)),
				user("three", at(3)),
				compaction(1, 2, summary, at(10)),
			},
			want: []*v1.Content{summary, userContent("three")},
		},
		{
			name: "summary of another agent's events is not retold",
			events: []*v1.Event{
				said("helper", "helper text", at(1)),
				compaction(1, 1, summary, at(2)),
				user("next", at(3)),
			},
			want: []*v1.Content{summary, userContent("next")},
		},
		{
			name: "a compaction within a wider one is ignored",
			events: []*v1.Event{
				user("one", at(1)),
				user("two", at(2)),
				compaction(1, 2, modelContent("narrow"), at(2.5)),
				user("three", at(3)),
				compaction(1, 3, modelContent("wide"), at(3.5)),
				user("four", at(4)),
			},
			want: []*v1.Content{modelContent("wide"), userContent("four")},
		},
		{
			name: "of two equal ranges the later wins",
			events: []*v1.Event{
				user("one", at(1)),
				compaction(1, 1, modelContent("first"), at(2)),
				compaction(1, 1, modelContent("second"), at(3)),
			},
			want: []*v1.Content{modelContent("second")},
		},
		{
			name: "a compaction without content is ignored",
			events: []*v1.Event{
				user("one", at(1)),
				compaction(1, 1, nil, at(2)),
				user("two", at(3)),
			},
			want: []*v1.Content{userContent("one"), userContent("two")},
		},
		{
			name: "a summary without role is given the model role",
			events: []*v1.Event{
				user("one", at(1)),
				compaction(1, 1, content("", textPart("sum")), at(2)),
			},
			want: []*v1.Content{modelContent("sum")},
		},
		{
			name: "compaction on an invisible branch is ignored",
			events: []*v1.Event{
				user("one", at(1)),
				compaction(1, 1, summary, at(2), branch("p.other")),
			},
			want: []*v1.Content{userContent("one")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := mustBuild(t, tc.events, agent, "p.me", contents.Options{})
			if d := diff(tc.want, got); d != "" {
				t.Errorf("Build() mismatch (-want +got):\n%s", d)
			}
		})
	}
}

func transcribed(author string, input, output string) *v1.Event {
	e := &v1.Event{Author: author}
	if input != "" {
		e.InputTranscription = &v1.Transcription{Text: input}
	}
	if output != "" {
		e.OutputTranscription = &v1.Transcription{Text: output}
	}
	return e
}

func TestTranscriptionsAreJoined(t *testing.T) {
	t.Parallel()
	events := []*v1.Event{
		transcribed("user", "Hello ", ""),
		transcribed("user", "there.", ""),
		transcribed(agent, "", "Hi! "),
		transcribed(agent, "", "How can I help?"),
		{Author: agent, OutputTranscription: &v1.Transcription{}},
		user("typed"),
	}
	got := mustBuild(t, events, agent, "", contents.Options{})
	want := []*v1.Content{userContent("Hello there."), modelContent("Hi! How can I help?"), userContent("typed")}
	if d := diff(want, got); d != "" {
		t.Errorf("Build() mismatch (-want +got):\n%s", d)
	}
}

// Not parallel: testing.AllocsPerRun refuses to run in parallel tests.
func TestBuildAllocationsDoNotGrowWithTextEvents(t *testing.T) {
	short := history(10, "", true)
	long := history(1000, "", true)
	build := func(events []*v1.Event) func() {
		return func() {
			if _, err := contents.Build(events, agent, "", contents.Options{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if a, b := testing.AllocsPerRun(20, build(short)), testing.AllocsPerRun(20, build(long)); a != b {
		t.Errorf("Build allocates %v times for 10 text events and %v times for 1000", a, b)
	}
}
