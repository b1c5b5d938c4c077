package plugins

import (
	"context"
	"path/filepath"
	"testing"
	"testing/synctest"

	"github.com/agentsvc/agentsvc/internal/models/scripted"
	"github.com/agentsvc/agentsvc/internal/runtime"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/llmagent"
)

func (d *debugLog) pending() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.invocations)
}

// TestDebugLoggingForgetsFailedInvocations checks that the record of an
// invocation that fails (and so never reaches after_run) goes when the
// invocation's context ends, and that a finished one goes at once.
func TestDebugLoggingForgetsFailedInvocations(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		d := &debugLog{path: filepath.Join(t.TempDir(), "debug.yaml"), maxBytes: DefaultDebugLogMaxBytes,
			invocations: map[string]*debugInvocation{}}
		agent, err := llmagent.New(llmagent.Config{Name: "root_agent", Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		h := et.New(t, agent, d.plugin("debug_logging_plugin"))
		h.Models.Add(scripted.New("m", et.Text("ok")))
		sid := h.NewSession(t, nil)
		h.RunText(t, sid, "hi")
		if n := d.pending(); n != 0 {
			t.Fatalf("%d records after a finished invocation", n)
		}

		ctx, cancel := context.WithCancel(t.Context())
		if _, err := h.Run(ctx, sid, et.UserText("again"), runtime.RunConfig{}); err == nil {
			t.Fatal("run succeeded without a scripted answer")
		}
		if n := d.pending(); n != 1 {
			t.Fatalf("%d records while the failed invocation's context lives, want 1", n)
		}
		cancel()
		synctest.Wait() // for the record's drop, run once the context ends
		if d.pending() != 0 {
			t.Fatal("the failed invocation's record outlived its context")
		}
	})
}
