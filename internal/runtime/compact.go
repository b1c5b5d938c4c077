package runtime

import (
	"log/slog"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"

	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
)

// compact runs the app's event compaction at the end of an invocation, as
// ADK's runner does once the agent's last event is out: when enough
// invocations are new, their summary is appended to the session (and not
// yielded). A failure is logged and leaves the session as it was; the
// next invocation tries again, the same invocations still being new.
func (r *Runner) compact(ictx *InvocationContext) {
	cfg := r.App.Compaction
	if cfg == nil {
		return
	}
	window := r.slidingWindow(ictx)
	if window == nil {
		return
	}
	ctx := ictx.Context()
	model, err := r.Models.Model(ctx, cfg.Model)
	if err == nil {
		var ev *v1.Event
		prompt := compaction.Prompt
		if r.App.Behavior == Behavior2x {
			prompt = compaction.Prompt2x
		}
		if ev, err = compaction.SummarizeWith(ctx, model, window, prompt); err == nil && ev != nil {
			err = CheckModelResponse(&v1.LlmResponse{Content: ev.GetActions().GetCompaction().GetCompactedContent()}, r.MaxDepth)
		}
		if err == nil && ev != nil {
			ev.Id, ev.Timestamp, ev.NodeInfo = NewEventID(), Now(), r.App.nodeInfo("")
			err = r.append(ictx, ev)
		}
	}
	if err != nil {
		slog.WarnContext(ctx, "event compaction failed", "app", r.App.Name, "session", ictx.inv.session.GetId(),
			"events", len(window), "err", err)
	}
}
