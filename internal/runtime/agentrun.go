package runtime

import (
	"iter"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// RunAgent runs agent in a child context of parent, as ADK's
// BaseAgent.run_async: before-agent callbacks (plugins first), the agent's
// own events, then after-agent callbacks. A before-agent reply ends the
// invocation with that reply.
func RunAgent(parent *InvocationContext, agent Agent) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		ictx := parent.WithAgent(agent)
		if ictx.nextPath != "" {
			ictx.nodePath, ictx.nextPath = ictx.nextPath, ""
			ictx.inv.nodes.set(agent.Name(), ictx.nodePath)
		} else if ictx.App().NodePaths {
			ictx.nodePath = ictx.inv.nodes.start(ictx.App().Tree, agent.Name())
		}
		ctx, span := ictx.inv.tel.startAgent(ictx, agent)
		defer span.End()
		ictx.ctx = ctx
		ev, err := beforeAgent(ictx, agent)
		if err != nil {
			failSpan(span, err)
			yield(nil, err)
			return
		}
		if ev != nil && !yield(ev, nil) {
			return
		}
		if ictx.Ended() {
			return
		}
		for ev, err := range agent.Run(ictx) {
			if err != nil {
				failSpan(span, err)
			}
			if !yield(ev, err) || err != nil {
				return
			}
		}
		if ictx.Ended() {
			return
		}
		ev, err = afterAgent(ictx, agent)
		if err != nil {
			failSpan(span, err)
			yield(nil, err)
			return
		}
		if ev != nil {
			yield(ev, nil)
		}
	}
}

func beforeAgent(ictx *InvocationContext, agent Agent) (*v1.Event, error) {
	if cbs := agent.Callbacks(); (cbs == nil || len(cbs.Before) == 0) &&
		!ictx.App().Plugins.has(func(p *Plugin) bool { return p.BeforeAgent != nil }) {
		// Nothing runs: no callback context to make.
		return nil, nil
	}
	cctx := NewCallbackContext(ictx)
	content, err := ictx.App().Plugins.BeforeAgent(agent, cctx)
	if err != nil {
		return nil, err
	}
	if content == nil {
		if cbs := agent.Callbacks(); cbs != nil {
			for _, cb := range cbs.Before {
				if content, err = cb(cctx); err != nil {
					return nil, err
				}
				if content != nil {
					break
				}
			}
		}
	}
	if content != nil {
		ictx.EndInvocation()
	}
	return callbackEvent(ictx, cctx, content), nil
}

func afterAgent(ictx *InvocationContext, agent Agent) (*v1.Event, error) {
	if cbs := agent.Callbacks(); (cbs == nil || len(cbs.After) == 0) &&
		!ictx.App().Plugins.has(func(p *Plugin) bool { return p.AfterAgent != nil }) {
		return nil, nil
	}
	cctx := NewCallbackContext(ictx)
	content, err := ictx.App().Plugins.AfterAgent(agent, cctx)
	if err != nil {
		return nil, err
	}
	if content == nil {
		if cbs := agent.Callbacks(); cbs != nil {
			for _, cb := range cbs.After {
				if content, err = cb(cctx); err != nil {
					return nil, err
				}
				if content != nil {
					break
				}
			}
		}
	}
	return callbackEvent(ictx, cctx, content), nil
}

// callbackEvent is the event of an agent callback: its content, or only its
// state delta; nil when it did neither.
func callbackEvent(ictx *InvocationContext, cctx *CallbackContext, content *v1.Content) *v1.Event {
	if content == nil && !cctx.State().HasDelta() {
		return nil
	}
	ev := ictx.NewEvent()
	ev.Content = content
	ev.Actions = cctx.Actions
	return ev
}
