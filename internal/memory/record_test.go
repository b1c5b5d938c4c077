package memory_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
)

func TestRecords(t *testing.T) {
	t.Parallel()
	text := func(author string, ts float64, texts ...string) *v1.Event {
		c := &v1.Content{Role: "model"}
		for _, s := range texts {
			c.Parts = append(c.Parts, &v1.Part{Text: s})
		}
		return &v1.Event{Author: author, Timestamp: ts, Content: c}
	}
	call := &v1.Event{Author: "a", Timestamp: 4, Content: &v1.Content{Parts: []*v1.Part{{FunctionCall: &v1.FunctionCall{Name: "lookup"}}}}}
	sess := &v1.Session{Events: []*v1.Event{
		text("user", 1, "Hello there", "THERE"),
		{Author: "a", Timestamp: 2},
		text("a", 3),
		call,
		text("a", 5, "42", "..."),
		text("a", 6, "", "ok"),
	}}
	got := memory.Records(sess)
	want := []memory.Record{
		{Content: sess.Events[0].Content, Author: "user", Timestamp: 1, Words: []string{"hello", "there"}},
		{Content: sess.Events[5].Content, Author: "a", Timestamp: 6, Words: []string{"ok"}},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(v1.Content{}, v1.Part{})); diff != "" {
		t.Errorf("Records (-want +got):\n%s", diff)
	}
	if got[0].Content != sess.Events[0].Content {
		t.Error("Records copied the content")
	}
}
