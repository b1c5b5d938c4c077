package runtime

import (
	"context"
	"log/slog"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/compaction"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
)

// compact runs the app's event compaction at the end of an invocation, as
// ADK's runner does once the agent's last event is out. The token
// threshold comes first: when the latest prompt reached it, the older raw
// events are summarised and the sliding window waits for the next
// invocation. Otherwise, when enough invocations are new, their summary is
// appended. Summaries are stored, not yielded. A failure is logged and
// leaves the session as it was; the next invocation tries again, the same
// events still being due.
func (r *Runner) compact(ictx *InvocationContext) {
	cfg := r.App.Compaction
	if cfg == nil {
		return
	}
	// A summary made before a model request of this invocation settles
	// the token threshold until the next one, as ADK's
	// token_compaction_checked does.
	if cfg.TokenThreshold > 0 && !ictx.inv.tokenCompacted.Load() {
		window := tokenWindow(ictx.Events(), cfg, "", "")
		if window != nil {
			if r.summarize(ictx, window, "token_threshold") {
				return
			}
		}
	}
	if window := r.slidingWindow(ictx); window != nil {
		r.summarize(ictx, window, "sliding_window")
	}
}

// CompactBeforeRequest runs the app's token-threshold compaction before a
// model request of agentName on the context's branch, as ADK's compaction
// request processor does ahead of the contents: when the latest prompt
// reached the threshold, the older events are summarised and the summary
// stored (not yielded), so that the request carries it. The end of the
// invocation then skips the token threshold. A failure is logged and the
// request goes on.
func (ictx *InvocationContext) CompactBeforeRequest(agentName string) {
	inv := ictx.inv
	cfg := inv.app.Compaction
	if cfg == nil || cfg.TokenThreshold <= 0 || inv.summarize == nil {
		return
	}
	if window := tokenWindow(ictx.Events(), cfg, agentName, ictx.Branch); window != nil &&
		inv.summarize(ictx, window, "token_threshold") {
		inv.tokenCompacted.Store(true)
	}
}

// tokenWindow returns the events a token-threshold summary covers, or nil
// when the latest prompt is below the threshold or nothing is due. The
// prompt size is the latest reported count, else ADK's estimate from the
// contents of agentName on branch (the root's at the end of an invocation:
// no agent, no branch).
func tokenWindow(events []*v1.Event, cfg *compaction.Config, agentName, branch string) []*v1.Event {
	tokens, ok := compaction.LatestPromptTokens(events)
	if !ok {
		list, err := contents.Build(events, agentName, branch, contents.Options{KeepClientIDs: true})
		if err != nil {
			return nil
		}
		tokens, ok = compaction.EstimateTokens(list)
	}
	if !ok || tokens < cfg.TokenThreshold {
		return nil
	}
	return compaction.TokenWindow(events, cfg.Retention)
}

// summarize asks the app's summarizer for a summary of window and appends
// it; it reports whether a summary was stored. A failure is logged.
func (r *Runner) summarize(ictx *InvocationContext, window []*v1.Event, trigger string) bool {
	ctx := ictx.Context()
	ev, err := r.summary(ctx, window)
	if err == nil && ev != nil {
		ev.Id, ev.Timestamp, ev.NodeInfo = NewEventID(), Now(), r.App.nodeInfo("")
		err = r.append(ictx, ev)
	}
	if err != nil {
		slog.WarnContext(ctx, "event compaction failed", "app", r.App.Name, "session", ictx.inv.session.GetId(),
			"trigger", trigger, "events", len(window), "err", err)
		return false
	}
	return ev != nil
}

// summary returns the summary event of window, or nil when the model gave
// no summary.
func (r *Runner) summary(ctx context.Context, window []*v1.Event) (*v1.Event, error) {
	model, err := r.Models.Model(ctx, r.App.Compaction.Model)
	if err != nil {
		return nil, err
	}
	prompt := compaction.Prompt
	if r.App.Behavior == Behavior2x {
		prompt = compaction.Prompt2x
	}
	ev, err := compaction.SummarizeWith(ctx, model, window, prompt)
	if err != nil || ev == nil {
		return nil, err
	}
	if err := CheckModelResponse(&v1.LlmResponse{Content: ev.GetActions().GetCompaction().GetCompactedContent()}, r.MaxDepth); err != nil {
		return nil, err
	}
	return ev, nil
}
