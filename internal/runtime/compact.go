package runtime

import (
	"fmt"
	"log/slog"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"

	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	"github.com/agentsvc/agentsvc/internal/sessions"
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
	window := compaction.Window(ictx.Events(), cfg.Interval, cfg.Overlap)
	if window == nil {
		return
	}
	ctx := ictx.Context()
	window, err := r.overlapWindow(ictx, window)
	var model models.Model
	if err == nil {
		model, err = r.Models.Model(ctx, cfg.Model)
	}
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

// overlapWindow returns the window of the next summary over the events
// from the start of the latest summary on, when the invocation read only
// the compacted selection of its session and the window overlaps older
// invocations: the selection leaves out the invocations the latest summary
// covers, among which are those the overlap takes again (the latest
// summary covers at least the overlap before its own new invocations).
// Otherwise it returns window.
func (r *Runner) overlapWindow(ictx *InvocationContext, window []*v1.Event) ([]*v1.Event, error) {
	cfg := r.App.Compaction
	if cfg.Overlap <= 0 || ictx.inv.load.Select != sessions.SelectCompacted {
		return window, nil
	}
	events := ictx.Events()
	var latest *v1.EventCompaction
	for i := len(events) - 1; i >= 0 && latest == nil; i-- {
		if c := events[i].GetActions().GetCompaction(); c != nil && c.GetEndTimestamp() != 0 {
			latest = c
		}
	}
	if latest == nil {
		return window, nil // the selection is the whole history
	}
	load := ictx.inv.load
	load.Select, load.NumRecentEvents, load.AfterTimestamp = sessions.SelectAll, 0, max(latest.GetStartTimestamp(), 0)
	sess, err := r.Sessions.Get(ictx.Context(), load)
	if err != nil {
		return nil, fmt.Errorf("runner: read the compaction overlap: %w", err)
	}
	return compaction.Window(sess.Events, cfg.Interval, cfg.Overlap), nil
}
