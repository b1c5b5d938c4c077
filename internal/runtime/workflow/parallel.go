package workflow

import (
	"context"
	"iter"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Parallel runs its sub-agents concurrently, each on its own branch
// "<branch>.<parallel>.<child>" so that none sees the others' events. It is
// immutable and safe for concurrent use.
type Parallel struct{ base }

// NewParallel returns a parallel agent.
func NewParallel(cfg Config) (*Parallel, error) {
	if err := cfg.validate("ParallelAgent"); err != nil {
		return nil, err
	}
	return &Parallel{base{cfg}}, nil
}

// Describe implements [runtime.Describer].
func (p *Parallel) Describe() runtime.AgentDescription {
	return runtime.AgentDescription{Kind: runtime.KindParallel}
}

// childEvent is one event of a child, with the channel on which the child
// waits until the event has been handled downstream (stored by the runner),
// as ADK's merge does.
type childEvent struct {
	ev   *v1.Event
	err  error
	done chan struct{}
}

// Run implements [runtime.Agent]. Events of the children interleave in the
// order they are produced; each child waits until its event is consumed
// before it goes on. The first error cancels the other children. In a
// resumable invocation finished children are skipped when it resumes.
func (p *Parallel) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		if len(p.cfg.SubAgents) == 0 || ictx.AgentEnded(p.cfg.Name) {
			return
		}
		if ictx.AgentState(p.cfg.Name) == nil {
			if ev := ictx.Checkpoint(&structpb.Struct{}); ev != nil && !yield(ev, nil) {
				return
			}
		}
		ctx, cancel := context.WithCancel(ictx.Context())
		defer cancel()
		out := make(chan childEvent)
		var wg sync.WaitGroup
		for _, sub := range p.cfg.SubAgents {
			branch := p.cfg.Name + "." + sub.Name()
			if ictx.Branch != "" {
				branch = ictx.Branch + "." + branch
			}
			child := ictx.WithContext(ctx).WithBranch(branch)
			wg.Go(func() { p.runChild(ctx, child, sub, out) })
		}
		go func() {
			wg.Wait()
			close(out)
		}()
		defer func() {
			// Stop the children and let them finish before returning.
			cancel()
			for ce := range out {
				if ce.done != nil {
					close(ce.done)
				}
			}
		}()
		paused := false
		for ce := range out {
			ok := yield(ce.ev, ce.err)
			if ce.done != nil {
				close(ce.done)
			}
			if !ok || ce.err != nil {
				return
			}
			paused = paused || ictx.ShouldPause(ce.ev)
		}
		if paused {
			return
		}
		if ev := ictx.Checkpoint(nil); ev != nil {
			yield(ev, nil)
		}
	}
}

func (p *Parallel) runChild(ctx context.Context, child *runtime.InvocationContext, sub runtime.Agent, out chan<- childEvent) {
	for ev, err := range runtime.RunAgent(child, sub) {
		ce := childEvent{ev: ev, err: err}
		if err == nil {
			ce.done = make(chan struct{})
		}
		select {
		case out <- ce:
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
		select {
		case <-ce.done:
		case <-ctx.Done():
			return
		}
	}
}
