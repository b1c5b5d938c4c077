package gemini_test

import (
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/integration/fakegemini"
	"github.com/agentsvc/agentsvc/internal/models/gemini"
)

func userText(text string) *v1.LlmRequest {
	return &v1.LlmRequest{Model: "gemini-2.5-flash", Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: text}}}}}
}

func modelContent(parts ...*v1.Part) *v1.Content { return &v1.Content{Role: "model", Parts: parts} }

// clientID stands for an "adk-<uuid4>" id in expected responses.
const clientID = "adk-*"

var clientIDPattern = regexp.MustCompile(`^adk-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// clientIDs replaces the generated call ids of rs by clientID and returns
// the distinct ids it replaced.
func clientIDs(rs []*v1.LlmResponse) []string {
	seen := map[string]bool{}
	var ids []string
	for _, r := range rs {
		for _, p := range r.GetContent().GetParts() {
			fc := p.GetFunctionCall()
			if fc == nil || !clientIDPattern.MatchString(fc.GetId()) {
				continue
			}
			if !seen[fc.GetId()] {
				seen[fc.GetId()] = true
				ids = append(ids, fc.GetId())
			}
			fc.Id = clientID
		}
	}
	return ids
}

func TestGenerateContentStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		vertex bool
		item   fakegemini.Item
		stream bool
		want   []*v1.LlmResponse
	}{
		{
			name: "thought and answer text merged apart, calls in order, finish and usage of the last chunk",
			item: fakegemini.Stream(
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"Let me ","thought":true}]}}],"usageMetadata":{"promptTokenCount":4}}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"think.","thought":true,"thoughtSignature":"c2ln"}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"Hello"},{"text":", world"}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"id":"c1","name":"a","args":{"x":1}}},{"functionCall":{"name":"b"}}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":4,"candidatesTokenCount":9,"totalTokenCount":13},"modelVersion":"gemini-2.5-flash-001"}`,
			),
			stream: true,
			want: []*v1.LlmResponse{
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "Let me ", Thought: true}), UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 4}},
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "think.", Thought: true, ThoughtSignature: []byte("sig")})},
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "Hello"}, &v1.Part{Text: ", world"})},
				{Partial: proto.Bool(true), Content: modelContent(
					&v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "a", Args: mustStruct(t, `{"x":1}`)}},
					&v1.Part{FunctionCall: &v1.FunctionCall{Id: clientID, Name: "b"}},
				)},
				{
					Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "Done."}), FinishReason: "STOP", ModelVersion: "gemini-2.5-flash-001",
					UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 4, CandidatesTokenCount: 9, TotalTokenCount: 13},
				},
				{
					Content: modelContent(
						&v1.Part{Text: "Let me think.", Thought: true, ThoughtSignature: []byte("sig")},
						&v1.Part{Text: "Hello, world"},
						&v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "a", Args: mustStruct(t, `{"x":1}`)}},
						&v1.Part{FunctionCall: &v1.FunctionCall{Id: clientID, Name: "b"}},
						&v1.Part{Text: "Done."},
					),
					FinishReason:  "STOP",
					ModelVersion:  "gemini-2.5-flash-001",
					UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 4, CandidatesTokenCount: 9, TotalTokenCount: 13},
				},
			},
		},
		{
			name: "repeated call ids kept once, nameless calls left out, earlier finish reason and first signature kept",
			item: fakegemini.Stream(
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"a","thoughtSignature":"czE="},{"functionCall":{"id":"c1","name":"f"}}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"b","thoughtSignature":"czI="},{"functionCall":{"id":"c1","name":"f"}}]},"finishReason":"STOP"}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{}}]}}]}`,
			),
			stream: true,
			want: []*v1.LlmResponse{
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "a", ThoughtSignature: []byte("s1")}, &v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "f"}})},
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "b", ThoughtSignature: []byte("s2")}, &v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "f"}}), FinishReason: "STOP"},
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{FunctionCall: &v1.FunctionCall{}})},
				{
					Content: modelContent(
						&v1.Part{Text: "a", ThoughtSignature: []byte("s1")},
						&v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "f"}},
						&v1.Part{Text: "b", ThoughtSignature: []byte("s2")},
					),
					FinishReason: "STOP",
				},
			},
		},
		{
			name:   "a stream without parts ends without content",
			item:   fakegemini.Stream(`{"candidates":[{"finishReason":"RECITATION"}]}`),
			stream: true,
			want: []*v1.LlmResponse{
				{Partial: proto.Bool(true), ErrorCode: "RECITATION", FinishReason: "RECITATION"},
				{ErrorCode: "RECITATION", FinishReason: "RECITATION"},
			},
		},
		{
			name: "chunks merged by the server for a non-streamed call",
			item: fakegemini.TextChunks("Hel", "lo"),
			want: []*v1.LlmResponse{{
				Content: modelContent(&v1.Part{Text: "Hello"}), FinishReason: "STOP",
				UsageMetadata: &v1.UsageMetadata{CandidatesTokenCount: 2, TotalTokenCount: 2},
			}},
		},
		{
			name:   "a non-STOP finish reason becomes the aggregate's error",
			vertex: true,
			item: fakegemini.Stream(
				`{"candidates":[{"content":{"role":"model","parts":[{"text":"Once upon"}]}}]}`,
				`{"candidates":[{"content":{"role":"model","parts":[{"text":" a time"}]},"finishReason":"MAX_TOKENS","finishMessage":"too long"}]}`,
			),
			stream: true,
			want: []*v1.LlmResponse{
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "Once upon"})},
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: " a time"}), FinishReason: "MAX_TOKENS"},
				{Content: modelContent(&v1.Part{Text: "Once upon a time"}), FinishReason: "MAX_TOKENS", ErrorCode: "MAX_TOKENS", ErrorMessage: "too long"},
			},
		},
		{
			name:   "a blocked prompt ends with a non-partial error",
			item:   fakegemini.Stream(`{"promptFeedback":{"blockReason":"SAFETY","blockReasonMessage":"blocked"}}`),
			stream: true,
			want: []*v1.LlmResponse{
				{Partial: proto.Bool(true), ErrorCode: "SAFETY", ErrorMessage: "blocked"},
				{ErrorCode: "SAFETY", ErrorMessage: "blocked"},
			},
		},
		{
			name:   "default echo streams two chunks",
			stream: true,
			want: []*v1.LlmResponse{
				{Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "Echo: "}), ModelVersion: "gemini-2.5-flash"},
				{
					Partial: proto.Bool(true), Content: modelContent(&v1.Part{Text: "hi there"}), FinishReason: "STOP", ModelVersion: "gemini-2.5-flash",
					UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 2, CandidatesTokenCount: 3, TotalTokenCount: 5},
				},
				{
					Content: modelContent(&v1.Part{Text: "Echo: hi there"}), FinishReason: "STOP", ModelVersion: "gemini-2.5-flash",
					UsageMetadata: &v1.UsageMetadata{PromptTokenCount: 2, CandidatesTokenCount: 3, TotalTokenCount: 5},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, p := newFake(t, backendConfig(tt.vertex))
			if tt.item.Response != nil || tt.item.Chunks != nil {
				if err := fake.Enqueue(tt.item); err != nil {
					t.Fatal(err)
				}
			}
			got, err := collect(t.Context(), t, p, userText("hi there"), tt.stream)
			if err != nil {
				t.Fatalf("GenerateContent: %v", err)
			}
			ids := clientIDs(got)
			if len(ids) > 1 {
				t.Errorf("client ids %v, want one id shared by the partial and the aggregate", ids)
			}
			want := tt.want
			if tt.stream && len(want) > 0 {
				// ADK's aggregate of a streamed call says partial=False
				// and carries no model version.
				want = slices.Clone(want)
				last := proto.CloneOf(want[len(want)-1])
				last.Partial = proto.Bool(false)
				last.ModelVersion = ""
				want[len(want)-1] = last
			}
			if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
			reqs := fake.Requests()
			if len(reqs) != 1 || reqs[0].Stream != tt.stream {
				t.Fatalf("fake got %d requests (stream %v), want 1 with stream %v", len(reqs), reqs[0].Stream, tt.stream)
			}
		})
	}
}

// TestStreamAggregateIsIndependent checks that changing a partial response
// does not change the aggregate that follows.
func TestStreamAggregateIsIndependent(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t, gemini.Config{})
	if err := fake.Enqueue(fakegemini.Reply(fakegemini.FunctionCalls(fakegemini.Call{ID: "c1", Name: "f"}))); err != nil {
		t.Fatal(err)
	}
	m, err := p.Model(t.Context(), "gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	var final *v1.LlmResponse
	for resp, err := range m.GenerateContent(t.Context(), userText("x"), true) {
		if err != nil {
			t.Fatal(err)
		}
		if resp.GetPartial() {
			resp.GetContent().GetParts()[0].GetFunctionCall().Id = "adk-changed"
			continue
		}
		final = resp
	}
	if id := final.GetContent().GetParts()[0].GetFunctionCall().GetId(); id != "c1" {
		t.Errorf("aggregate call id %q, want c1", id)
	}
}

// TestStreamEarlyStop checks that a consumer may stop after the first chunk;
// the goroutine check of TestMain catches a connection left open.
func TestStreamEarlyStop(t *testing.T) {
	t.Parallel()
	fake, p := newFake(t, gemini.Config{})
	if err := fake.Enqueue(fakegemini.TextChunks("a", "b", "c")); err != nil {
		t.Fatal(err)
	}
	m, err := p.Model(t.Context(), "gemini-2.5-flash")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for resp, err := range m.GenerateContent(t.Context(), userText("x"), true) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; resp.GetContent().GetParts()[0].GetText() != "a" {
			t.Errorf("first chunk %v, want a", resp)
		}
		break
	}
	if n != 1 {
		t.Errorf("%d responses before the break, want 1", n)
	}
}
