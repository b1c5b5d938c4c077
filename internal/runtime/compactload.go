package runtime

import (
	"log/slog"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	"github.com/agentsvc/agentsvc/internal/sessions"
)

// slidingWindow returns the events the next sliding-window summary covers,
// or nil when none is due (see [compaction.Window]).
//
// When the invocation read only the compacted selection of its session and
// the window overlaps older invocations, the window is taken again over the
// events from the start of the latest summary on: the selection leaves out
// the invocations that summary covers, among which are those the overlap
// takes again (the latest summary covers at least the overlap before its
// own new invocations). That read happens only when a summary is due; when
// it fails, the failure is logged and the next invocation tries again.
func (r *Runner) slidingWindow(ictx *InvocationContext) []*v1.Event {
	cfg := r.App.Compaction
	events := ictx.Events()
	window := compaction.Window(events, cfg.Interval, cfg.Overlap)
	if window == nil || cfg.Overlap <= 0 || ictx.inv.load.Select != sessions.SelectCompacted {
		return window
	}
	var latest *v1.EventCompaction
	for i := len(events) - 1; i >= 0 && latest == nil; i-- {
		if c := events[i].GetActions().GetCompaction(); c != nil && c.GetEndTimestamp() != 0 {
			latest = c
		}
	}
	if latest == nil {
		return window // the selection is the whole history
	}
	load := ictx.inv.load
	load.Select, load.NumRecentEvents, load.AfterTimestamp = sessions.SelectAll, 0, max(latest.GetStartTimestamp(), 0)
	ctx := ictx.Context()
	sess, err := r.Sessions.Get(ctx, load)
	if err != nil {
		slog.WarnContext(ctx, "event compaction failed: read the overlap", "app", r.App.Name,
			"session", ictx.inv.session.GetId(), "err", err)
		return nil
	}
	return compaction.Window(sess.Events, cfg.Interval, cfg.Overlap)
}
