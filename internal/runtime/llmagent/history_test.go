package llmagent_test

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

// TestHistoryKeptBetweenInvocations runs turns on two sessions, with a
// rewind, once with the runner keeping contents between invocations and
// once without: the model requests are the same, and a request seen by a
// callback does not change after later turns.
func TestHistoryKeptBetweenInvocations(t *testing.T) {
	t.Parallel()
	var want [][]string
	for _, kept := range []int{0, 2, -1} {
		var seen [][]*v1.Content
		plugin := &runtime.Plugin{Name: "watch", BeforeModel: func(_ *runtime.CallbackContext, req *v1.LlmRequest) (*v1.LlmResponse, error) {
			seen = append(seen, req.Contents)
			return nil, nil
		}}
		agent := newAgent(t, llmagent.Config{Instruction: "Use the echo tool.", Tools: []runtime.Tool{echoTool(t, "echo")}})
		h := et.New(t, agent, plugin)
		h.Runner.HistorySessions = kept
		m := scripted.New(modelName)
		h.Models.Add(m)
		a, b, c := h.NewSession(t, nil), h.NewSession(t, nil), h.NewSession(t, nil)

		m.Enqueue(et.Call("echo", `{"n":1}`), et.Text("one"))
		first := h.RunText(t, a, "first")
		m.Enqueue(et.Text("b"))
		h.RunText(t, b, "other session")
		m.Enqueue(et.Text("c")) // with two sessions kept, a's goes
		h.RunText(t, c, "third session")
		m.Enqueue(et.Call("echo", `{"n":2}`), et.Text("two"))
		h.RunText(t, a, "second")
		if _, err := h.Runner.Rewind(t.Context(), et.UserID, a, first[len(first)-1].InvocationId); err != nil {
			t.Fatal(err)
		}
		m.Enqueue(et.Text("three"))
		h.RunText(t, a, "after rewind")
		m.Enqueue(et.Text("b2"))
		h.RunText(t, b, "other again")

		var got [][]string
		for i, r := range m.Requests() {
			got = append(got, et.Contents(r.Contents))
			if len(seen[i]) != len(r.Contents) || !slices.EqualFunc(seen[i], r.Contents, func(x, y *v1.Content) bool { return proto.Equal(x, y) }) {
				t.Errorf("kept=%d: request %d changed after the call:\nnow  %q\nsent %q", kept, i, et.Contents(seen[i]), et.Contents(r.Contents))
			}
		}
		if want == nil {
			want = got
			continue
		}
		if d := cmpDiff(want, got); d != "" {
			t.Errorf("kept=%d: requests differ from kept=0 (-kept=0 +kept=%d):\n%s", kept, kept, d)
		}
	}
	last := want[len(want)-2] // a's turn after the rewind
	if len(last) == 0 || last[len(last)-1] != "user: after rewind" || slices.Contains(last, "user: second") {
		t.Errorf("contents after the rewind = %q, want the first turn then \"after rewind\"", last)
	}
}
