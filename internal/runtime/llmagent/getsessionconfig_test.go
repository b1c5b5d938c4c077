package llmagent_test

import (
	"errors"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// TestBehaviorGetSessionConfigSelectsTheHistory checks ADK's
// run_config.get_session_config, as ADK 1.39.1's runner passes it to
// get_session: num_recent_events 0 loads no events, N loads the last N,
// after_timestamp loads the events at or after it; the model sees the
// loaded events and the new message.
func TestBehaviorGetSessionConfigSelectsTheHistory(t *testing.T) {
	t.Parallel()
	h := et.New(t, newAgent(t, llmagent.Config{Instruction: "x"}))
	m := scripted.New(modelName, et.Text("a1"), et.Text("a2"), et.Text("a3"), et.Text("a4"), et.Text("a5"))
	h.Models.Add(m)
	sid := h.NewSession(t, nil)
	h.RunText(t, sid, "t1")
	h.RunText(t, sid, "t2")
	n := func(v int) *int { return &v }
	ts := func(i int) *float64 { v := h.Session(t, sid).Events[i].GetTimestamp(); return &v }
	run := func(text string, c *runtime.GetSessionConfig) []string {
		t.Helper()
		rc := runtime.RunConfig{MaxLLMCalls: runtime.DefaultMaxLLMCalls, GetSessionConfig: c}
		if _, err := h.Run(t.Context(), sid, et.UserText(text), rc); err != nil {
			t.Fatal(err)
		}
		reqs := m.Requests()
		return et.Contents(reqs[len(reqs)-1].Contents)
	}
	tests := []struct {
		text string
		cfg  func() *runtime.GetSessionConfig
		want []string
	}{
		{"t3", func() *runtime.GetSessionConfig { return &runtime.GetSessionConfig{NumRecentEvents: n(0)} },
			[]string{"user: t3"}},
		{"t4", func() *runtime.GetSessionConfig { return &runtime.GetSessionConfig{NumRecentEvents: n(2)} },
			[]string{"user: t3", "model: a3", "user: t4"}},
		{"t5", func() *runtime.GetSessionConfig { return &runtime.GetSessionConfig{AfterTimestamp: ts(4)} },
			[]string{"user: t3", "model: a3", "user: t4", "model: a4", "user: t5"}},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, run(tc.text, tc.cfg())); d != "" {
			t.Errorf("%s contents (-want +got):\n%s", tc.text, d)
		}
	}
}

// TestGetSessionConfigIsValidated checks that a negative count or a
// timestamp that is not finite fails the run as invalid and stores nothing.
func TestGetSessionConfigIsValidated(t *testing.T) {
	t.Parallel()
	h := et.New(t, newAgent(t, llmagent.Config{}))
	h.Models.Add(scripted.New(modelName))
	sid := h.NewSession(t, nil)
	neg, nan, inf := -1, math.NaN(), math.Inf(1)
	for name, c := range map[string]*runtime.GetSessionConfig{
		"negative_count": {NumRecentEvents: &neg},
		"nan_timestamp":  {AfterTimestamp: &nan},
		"inf_timestamp":  {AfterTimestamp: &inf},
	} {
		_, err := h.Run(t.Context(), sid, et.UserText("hi"), runtime.RunConfig{GetSessionConfig: c})
		var rerr *runtime.Error
		if !errors.As(err, &rerr) || rerr.Code != runtime.CodeInvalidArgument {
			t.Errorf("%s: run error = %v, want invalid argument", name, err)
		}
	}
	if n := len(h.Session(t, sid).Events); n != 0 {
		t.Errorf("stored events = %d, want none", n)
	}
}
