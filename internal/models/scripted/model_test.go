package scripted_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
)

func text(s string) *v1.LlmResponse {
	return &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: s}}}}
}

func request(s string) *v1.LlmRequest {
	return &v1.LlmRequest{Model: "mock", Contents: []*v1.Content{{Role: "user", Parts: []*v1.Part{{Text: s}}}}}
}

func collect(ctx context.Context, m models.Model, req *v1.LlmRequest, stream bool) ([]*v1.LlmResponse, error) {
	var out []*v1.LlmResponse
	for r, err := range m.GenerateContent(ctx, req, stream) {
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

func TestScriptedSteps(t *testing.T) {
	t.Parallel()
	boom := &models.Error{HTTPStatus: 503, Status: "UNAVAILABLE", Message: "down"}
	call := &v1.Part{FunctionCall: &v1.FunctionCall{Id: "c1", Name: "f"}}
	tests := []struct {
		name    string
		step    scripted.Step
		stream  bool
		want    []*v1.LlmResponse
		wantErr error
	}{
		{name: "response", step: scripted.Response(text("a")), want: []*v1.LlmResponse{text("a")}},
		{name: "response streamed", step: scripted.Response(text("a")), stream: true, want: []*v1.LlmResponse{text("a")}},
		{name: "failure", step: scripted.Fail(boom), wantErr: models.ErrUnavailable},
		{
			name: "chunks streamed",
			step: scripted.Stream(
				&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "hm", Thought: true}}}},
				text("Hel"),
				&v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "lo"}, call}}, FinishReason: "STOP", UsageMetadata: &v1.UsageMetadata{TotalTokenCount: 5}},
			),
			stream: true,
			want: []*v1.LlmResponse{
				{Partial: proto.Bool(true), Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "hm", Thought: true}}}},
				{Partial: proto.Bool(true), Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "Hel"}}}},
				{Partial: proto.Bool(true), Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "lo"}, call}}, FinishReason: "STOP", UsageMetadata: &v1.UsageMetadata{TotalTokenCount: 5}},
				{Partial: proto.Bool(false), Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "hm", Thought: true}, {Text: "Hello"}, call}}, FinishReason: "STOP", UsageMetadata: &v1.UsageMetadata{TotalTokenCount: 5}},
			},
		},
		{
			name:   "chunks not streamed give the aggregate",
			step:   scripted.Stream(text("a"), &v1.LlmResponse{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "b"}}}, FinishReason: "MAX_TOKENS"}),
			stream: false,
			want:   []*v1.LlmResponse{{Content: &v1.Content{Role: "model", Parts: []*v1.Part{{Text: "ab"}}}, FinishReason: "MAX_TOKENS", ErrorCode: "MAX_TOKENS"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := scripted.New("mock").Push(tt.step)
			got, err := collect(t.Context(), m, request("q"), tt.stream)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("error %v, want %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
			if m.Remaining() != 0 || m.Calls() != 1 {
				t.Errorf("remaining %d calls %d, want 0 and 1", m.Remaining(), m.Calls())
			}
		})
	}
}

func TestQueueAndRecording(t *testing.T) {
	t.Parallel()
	m := scripted.New("mock", text("one"), text("two"))
	if m.Name() != "mock" {
		t.Errorf("Name = %q", m.Name())
	}
	req := request("first")
	for _, want := range []string{"one", "two"} {
		got, err := collect(t.Context(), m, req, false)
		if err != nil || len(got) != 1 || got[0].GetContent().GetParts()[0].GetText() != want {
			t.Fatalf("got %v, %v; want %q", got, err, want)
		}
		// A caller changing its request after the call must not change the record.
		req.Contents[0].Parts[0].Text = "changed"
	}
	_, err := collect(t.Context(), m, req, false)
	if !errors.Is(err, scripted.ErrExhausted) {
		t.Errorf("third call error %v, want ErrExhausted", err)
	}
	recs := m.Requests()
	want := []*v1.LlmRequest{request("first"), request("changed"), request("changed")}
	if diff := cmp.Diff(want, recs, protocmp.Transform()); diff != "" {
		t.Errorf("recorded (-want +got):\n%s", diff)
	}

	m.SetRecording(false)
	m.Enqueue(text("three"))
	if _, err := collect(t.Context(), m, req, false); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Requests()); n != 3 {
		t.Errorf("%d recorded after turning recording off, want 3", n)
	}
}

func TestCanceledContextKeepsStep(t *testing.T) {
	t.Parallel()
	m := scripted.New("mock", text("a"))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := collect(ctx, m, request("q"), false); !errors.Is(err, context.Canceled) {
		t.Errorf("error %v, want context.Canceled", err)
	}
	if m.Remaining() != 1 {
		t.Errorf("remaining %d, want the step kept", m.Remaining())
	}
}

func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	const n = 50
	m := scripted.New("mock")
	for range n {
		m.Enqueue(text("x"))
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() {
			_, err := collect(t.Context(), m, request("q"), false)
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if m.Calls() != n || m.Remaining() != 0 || len(m.Requests()) != n {
		t.Errorf("calls %d remaining %d recorded %d", m.Calls(), m.Remaining(), len(m.Requests()))
	}
}

func TestResolver(t *testing.T) {
	t.Parallel()
	a, b := scripted.New("a"), scripted.New("b")
	r := scripted.NewResolver(a)
	r.Add(b)
	tests := []struct {
		name    string
		want    models.Model
		wantErr error
	}{
		{name: "a", want: a},
		{name: "b", want: b},
		{name: "c", wantErr: scripted.ErrUnknownModel},
	}
	for _, tt := range tests {
		got, err := r.Model(t.Context(), tt.name)
		if got != tt.want || !errors.Is(err, tt.wantErr) {
			t.Errorf("Model(%q) = %v, %v; want %v, %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

// TestCallAllocations is not parallel: AllocsPerRun counts the allocations
// of the whole process.
func TestCallAllocations(t *testing.T) {
	m := scripted.New("mock")
	m.SetRecording(false)
	req := request("q")
	resp := text("a")
	const runs = 100
	for range runs + 1 {
		m.Enqueue(resp)
	}
	ctx := t.Context()
	var got *v1.LlmResponse
	// A yield function made once: a range loop over the sequence makes its
	// own, which is the caller's cost, not the model's.
	yield := func(r *v1.LlmResponse, err error) bool {
		got = r
		return err == nil
	}
	allocs := testing.AllocsPerRun(runs, func() {
		m.GenerateContent(ctx, req, false)(yield)
	})
	if got != resp {
		t.Fatalf("last response %v, want %v", got, resp)
	}
	if allocs != 0 {
		t.Errorf("%v allocations per call without recording, want 0", allocs)
	}
}

func BenchmarkGenerateContent(b *testing.B) {
	for _, record := range []bool{false, true} {
		name := "record=false"
		if record {
			name = "record=true"
		}
		b.Run(name, func(b *testing.B) {
			m := scripted.New("mock")
			m.SetRecording(record)
			resp := text("a")
			req := request("q")
			for range b.N {
				m.Enqueue(resp)
			}
			ctx := b.Context()
			var failed error
			yield := func(_ *v1.LlmResponse, err error) bool {
				failed = err
				return err == nil
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				m.GenerateContent(ctx, req, false)(yield)
			}
			if failed != nil {
				b.Fatal(failed)
			}
		})
	}
}

func TestZeroStep(t *testing.T) {
	t.Parallel()
	m := scripted.New("mock").Push(scripted.Step{})
	if _, err := collect(t.Context(), m, request("q"), true); err == nil {
		t.Error("a zero step answered without error")
	}
}
