package memorytest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

var entryCases = []contractCase{
	{"EntryIsTheEvent", testEntryIsTheEvent},
	{"KeepsItsOwnCopy", testKeepsItsOwnCopy},
	{"Cancelled", testCancelled},
	{"NoSession", testNoSession},
}

// testEntryIsTheEvent: an entry carries the event's whole content (every
// part, not only text), its author and its timestamp as ADK formats it, and
// no id.
func testEntryIsTheEvent(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	args, err := structpb.NewStruct(map[string]any{"city": "Paris"})
	if err != nil {
		t.Fatal(err)
	}
	ev := said("weather_agent", 1700000001.25, "Looking up Paris")
	ev.Content.Parts = append(ev.Content.Parts,
		&v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "get_weather", Args: args}},
		&v1.Part{InlineData: &v1.Blob{MimeType: "image/png", Data: []byte{1, 2, 3}}},
	)
	add(t, svc, session("app", "u", "s1", ev, said("user", 1700000000, "tell me Paris")))
	got := search(t, svc, "app", "u", "paris")
	want := []memory.Entry{
		{Content: ev.GetContent(), Author: "weather_agent", Timestamp: memory.FormatTimestamp(1700000001.25, time.Local)},
		{Content: said("user", 0, "tell me Paris").GetContent(), Author: "user", Timestamp: memory.FormatTimestamp(1700000000, time.Local)},
	}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("Search (-want +got):\n%s", diff)
	}
}

// testKeepsItsOwnCopy: changing a session after adding it changes nothing
// remembered.
func testKeepsItsOwnCopy(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	ev := said("user", 1, "original words")
	sess := session("app", "u", "s1", ev)
	add(t, svc, sess)
	ev.Content.Parts[0].Text = "changed words"
	ev.Author = "someone"
	sess.Events = append(sess.Events, said("user", 2, "original too"))
	got := search(t, svc, "app", "u", "original changed")
	if diff := cmp.Diff([]string{"original words"}, texts(got)); diff != "" {
		t.Errorf("Search (-want +got):\n%s", diff)
	}
	if len(got) == 1 && got[0].Author != "user" {
		t.Errorf("Author = %q, want user", got[0].Author)
	}
}

func testCancelled(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := svc.AddSession(ctx, session("app", "u", "s1", said("user", 1, "hello"))); !errors.Is(err, context.Canceled) {
		t.Errorf("AddSession with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := svc.Search(ctx, "app", "u", "hello"); !errors.Is(err, context.Canceled) {
		t.Errorf("Search with a cancelled context: %v, want context.Canceled", err)
	}
	checkTexts(t, svc, "app", "u", "hello", nil)
}

func testNoSession(t *testing.T, newService Factory) {
	svc := newService(t, memory.Limits{})
	if err := svc.AddSession(t.Context(), nil); err == nil {
		t.Error("AddSession(nil) succeeded")
	}
}
