package adkgo

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"testing"
	"time"

	"google.golang.org/adk/agent"
	"google.golang.org/adk/agent/llmagent"
	"google.golang.org/adk/model"
	"google.golang.org/adk/runner"
	"google.golang.org/adk/session"
	"google.golang.org/adk/tool"
	"google.golang.org/adk/tool/functiontool"
	"google.golang.org/genai"
)

const (
	appName   = "bench"
	userID    = "u1"
	agentName = "root_agent"
	// priorEvents is the history of the PriorEvents benchmark.
	priorEvents = 10000
)

// scriptedModel is a model.LLM that answers each call with the next answer
// of its queue, built afresh so that adk-go may fill it in (function call
// ids) as it does a real model's answer. It makes no network call.
type scriptedModel struct {
	mu    sync.Mutex
	queue []func() *model.LLMResponse
}

func (*scriptedModel) Name() string { return "gemini-2.5-flash" }

func (m *scriptedModel) GenerateContent(_ context.Context, _ *model.LLMRequest, _ bool) iter.Seq2[*model.LLMResponse, error] {
	return func(yield func(*model.LLMResponse, error) bool) {
		m.mu.Lock()
		if len(m.queue) == 0 {
			m.mu.Unlock()
			yield(nil, fmt.Errorf("scripted model: no answer left"))
			return
		}
		next := m.queue[0]
		m.queue = m.queue[1:]
		m.mu.Unlock()
		yield(next(), nil)
	}
}

// script queues answers for the next turn.
func (m *scriptedModel) script(answers ...func() *model.LLMResponse) {
	m.mu.Lock()
	m.queue = append(m.queue[:0], answers...)
	m.mu.Unlock()
}

func textAnswer() *model.LLMResponse {
	return &model.LLMResponse{Content: genai.NewContentFromText("done", genai.RoleModel), FinishReason: genai.FinishReasonStop}
}

func echoCallAnswer() *model.LLMResponse {
	return &model.LLMResponse{
		Content:      genai.NewContentFromFunctionCall("echo", map[string]any{"x": 1}, genai.RoleModel),
		FinishReason: genai.FinishReasonStop,
	}
}

type echoArgs struct {
	X any `json:"x"`
}

// newEcho is the function tool echo: it answers {"echo": x}.
func newEcho(tb testing.TB) tool.Tool {
	echo, err := functiontool.New(functiontool.Config{Name: "echo", Description: "Echoes x."},
		func(_ agent.ToolContext, args echoArgs) (map[string]any, error) {
			return map[string]any{"echo": args.X}, nil
		})
	if err != nil {
		tb.Fatal(err)
	}
	return echo
}

// bench is one runner of the bench agent over an in-memory session
// service, as a Go program embedding adk-go builds it once.
type bench struct {
	model    *scriptedModel
	sessions session.Service
	runner   *runner.Runner
}

func newBench(tb testing.TB) *bench {
	tb.Helper()
	m := &scriptedModel{}
	root, err := llmagent.New(llmagent.Config{
		Name:        agentName,
		Model:       m,
		Instruction: "Use the echo tool.",
		Tools:       []tool.Tool{newEcho(tb)},
	})
	if err != nil {
		tb.Fatal(err)
	}
	sessions := session.InMemoryService()
	r, err := runner.New(runner.Config{AppName: appName, Agent: root, SessionService: sessions})
	if err != nil {
		tb.Fatal(err)
	}
	return &bench{model: m, sessions: sessions, runner: r}
}

func (b *bench) newSession(ctx context.Context, tb testing.TB) session.Session {
	resp, err := b.sessions.Create(ctx, &session.CreateRequest{AppName: appName, UserID: userID})
	if err != nil {
		tb.Fatal(err)
	}
	return resp.Session
}

// turn runs one invocation with the user's "hi" and returns its events.
func (b *bench) turn(ctx context.Context, tb testing.TB, sessionID string) int {
	n := 0
	for _, err := range b.runner.Run(ctx, userID, sessionID, genai.NewContentFromText("hi", genai.RoleUser), agent.RunConfig{}) {
		if err != nil {
			tb.Fatal(err)
		}
		n++
	}
	return n
}

// BenchmarkHeadlineOneStepTurn measures one text turn on a fresh session:
// the session's creation, the user's "hi" stored, one model call answering
// "done", its event stored.
func BenchmarkHeadlineOneStepTurn(b *testing.B) {
	ctx := b.Context()
	bb := newBench(b)
	b.ReportAllocs()
	for b.Loop() {
		s := bb.newSession(ctx, b)
		bb.model.script(textAnswer)
		if n := bb.turn(ctx, b, s.ID()); n != 1 {
			b.Fatalf("%d events, want 1", n)
		}
	}
}

// BenchmarkHeadlineTwoStepTurn measures one tool turn on a fresh session:
// the model calls echo {"x":1}, the tool answers {"echo":1}, the model
// answers "done"; four events stored, the user's included.
func BenchmarkHeadlineTwoStepTurn(b *testing.B) {
	ctx := b.Context()
	bb := newBench(b)
	b.ReportAllocs()
	for b.Loop() {
		s := bb.newSession(ctx, b)
		bb.model.script(echoCallAnswer, textAnswer)
		if n := bb.turn(ctx, b, s.ID()); n != 3 {
			b.Fatalf("%d events, want 3", n)
		}
	}
}

// BenchmarkHeadlineTwoStepTurnPriorEvents measures the two-step tool turn
// on a session that already holds 10,000 events, in cycles of four: the
// user's "question i", the model's call of echo {"q":1}, the tool's
// {"echo":1}, the model's "answer i". adk-go reads the whole history from
// the session service on every turn (it keeps no cache). Every timed turn
// sees exactly 10,000 prior events: each iteration gets a fresh session
// filled outside the timer (b.StopTimer), and deletes it after.
func BenchmarkHeadlineTwoStepTurnPriorEvents(b *testing.B) {
	b.Run(fmt.Sprintf("prior=%d", priorEvents), func(b *testing.B) {
		ctx := b.Context()
		bb := newBench(b)
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			s := bb.newSession(ctx, b)
			bb.fill(ctx, b, s, priorEvents)
			bb.model.script(echoCallAnswer, textAnswer)
			b.StartTimer()
			if n := bb.turn(ctx, b, s.ID()); n != 3 {
				b.Fatalf("%d events, want 3", n)
			}
			b.StopTimer()
			if err := bb.sessions.Delete(ctx, &session.DeleteRequest{AppName: appName, UserID: userID, SessionID: s.ID()}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
		}
	})
}

// fill appends n prior events to s, in cycles of user question, echo call,
// echo answer, model answer.
func (b *bench) fill(ctx context.Context, tb testing.TB, s session.Session, n int) {
	at := time.Now().Add(-time.Hour)
	for i := range n {
		e := session.NewEventWithContext(ctx, fmt.Sprintf("e-prior-%d", i/4))
		e.Timestamp = at.Add(time.Duration(i) * time.Millisecond)
		e.Author = agentName
		callID := fmt.Sprintf("call-%d", i/4)
		switch i % 4 {
		case 0:
			e.Author = "user"
			e.Content = genai.NewContentFromText(fmt.Sprintf("question %d", i/4), genai.RoleUser)
		case 1:
			e.Content = genai.NewContentFromParts([]*genai.Part{{FunctionCall: &genai.FunctionCall{ID: callID, Name: "echo", Args: map[string]any{"q": 1}}}}, genai.RoleModel)
		case 2:
			e.Content = genai.NewContentFromParts([]*genai.Part{{FunctionResponse: &genai.FunctionResponse{ID: callID, Name: "echo", Response: map[string]any{"echo": 1}}}}, genai.RoleUser)
		case 3:
			e.Content = genai.NewContentFromText(fmt.Sprintf("answer %d", i/4), genai.RoleModel)
		}
		if err := b.sessions.AppendEvent(ctx, s, e); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestScenarios runs each benchmark's turn once and checks what the
// session holds after it.
func TestScenarios(t *testing.T) {
	ctx := t.Context()
	tests := []struct {
		name    string
		prior   int
		answers []func() *model.LLMResponse
		want    int // events stored, prior ones included
	}{
		{"one step", 0, []func() *model.LLMResponse{textAnswer}, 2},
		{"two steps", 0, []func() *model.LLMResponse{echoCallAnswer, textAnswer}, 4},
		{"two steps after 10,000 events", priorEvents, []func() *model.LLMResponse{echoCallAnswer, textAnswer}, priorEvents + 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bb := newBench(t)
			s := bb.newSession(ctx, t)
			bb.fill(ctx, t, s, tt.prior)
			bb.model.script(tt.answers...)
			bb.turn(ctx, t, s.ID())
			got, err := bb.sessions.Get(ctx, &session.GetRequest{AppName: appName, UserID: userID, SessionID: s.ID()})
			if err != nil {
				t.Fatal(err)
			}
			events := got.Session.Events()
			if events.Len() != tt.want {
				t.Fatalf("%d events stored, want %d", events.Len(), tt.want)
			}
			last := events.At(events.Len() - 1)
			if last.Content == nil || len(last.Content.Parts) != 1 || last.Content.Parts[0].Text != "done" {
				t.Errorf("last event %+v, want the model's done", last.Content)
			}
			if tt.want-tt.prior == 4 {
				resp := events.At(events.Len() - 2).Content.Parts[0].FunctionResponse
				if resp == nil || resp.Name != "echo" || fmt.Sprint(resp.Response["echo"]) != "1" {
					t.Errorf("tool answer %+v, want echo {\"echo\":1}", resp)
				}
			}
		})
	}
}
