// Package workflow holds ADK's workflow agents, which run their sub-agents
// without a model of their own: Sequential (in order), Parallel
// (concurrently, each on its own branch) and Loop (in order, repeatedly).
package workflow

import (
	"errors"
	"fmt"
	"iter"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// Config declares a workflow agent.
type Config struct {
	Name        string
	Description string
	SubAgents   []runtime.Agent
	Callbacks   runtime.AgentCallbacks
}

func (c Config) validate(kind string) error {
	if c.Name == "" {
		return fmt.Errorf("%s: name is required", kind)
	}
	if c.Name == "user" {
		return errors.New(kind + `: "user" is reserved for the end user`)
	}
	return nil
}

// base carries what every workflow agent has.
type base struct {
	cfg Config
}

func (b *base) Name() string                       { return b.cfg.Name }
func (b *base) Description() string                { return b.cfg.Description }
func (b *base) SubAgents() []runtime.Agent         { return b.cfg.SubAgents }
func (b *base) Callbacks() *runtime.AgentCallbacks { return &b.cfg.Callbacks }

// Sequential runs its sub-agents one after the other. It is immutable and
// safe for concurrent use.
type Sequential struct{ base }

// NewSequential returns a sequential agent.
func NewSequential(cfg Config) (*Sequential, error) {
	if err := cfg.validate("SequentialAgent"); err != nil {
		return nil, err
	}
	return &Sequential{base{cfg}}, nil
}

// Describe implements [runtime.Describer].
func (s *Sequential) Describe() runtime.AgentDescription {
	return runtime.AgentDescription{Kind: runtime.KindSequential}
}

// Run implements [runtime.Agent]. In a resumable invocation it records the
// sub-agent it is in, resumes from it, stops when a sub-agent pauses, and
// records its own end.
func (s *Sequential) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		if ictx.AgentEnded(s.cfg.Name) {
			return
		}
		start, resuming := resumePoint(ictx, s.cfg.Name, s.cfg.SubAgents)
		for _, sub := range s.cfg.SubAgents[start:] {
			if !resuming {
				if ev := ictx.Checkpoint(subAgentState(sub.Name(), -1)); ev != nil && !yield(ev, nil) {
					return
				}
			}
			resuming = false
			paused, ok := runSub(ictx, sub, yield, nil)
			if !ok || paused || ictx.Ended() {
				return
			}
		}
		if ev := ictx.Checkpoint(nil); ev != nil {
			yield(ev, nil)
		}
	}
}

// runSub runs one sub-agent, passing its events on and calling seen for
// each. It reports whether the sub-agent paused the invocation and whether
// iteration should go on.
func runSub(ictx *runtime.InvocationContext, sub runtime.Agent, yield func(*v1.Event, error) bool, seen func(*v1.Event)) (paused, ok bool) {
	for ev, err := range runtime.RunAgent(ictx, sub) {
		if !yield(ev, err) || err != nil {
			return false, false
		}
		if seen != nil {
			seen(ev)
		}
		paused = paused || ictx.ShouldPause(ev)
	}
	return paused, true
}

// subAgentState is the checkpoint of a workflow agent: the sub-agent it is
// in, and for a loop the rounds done (times < 0 leaves it out).
func subAgentState(name string, times int) *structpb.Struct {
	st := &structpb.Struct{Fields: map[string]*structpb.Value{"current_sub_agent": structpb.NewStringValue(name)}}
	if times >= 0 {
		st.Fields["times_looped"] = structpb.NewNumberValue(float64(times))
	}
	return st
}

// resumePoint returns the index of the sub-agent a resumed workflow agent
// continues with, and whether it is resuming one (then its checkpoint is not
// recorded again).
func resumePoint(ictx *runtime.InvocationContext, name string, subs []runtime.Agent) (int, bool) {
	st := ictx.AgentState(name)
	if st == nil {
		return 0, false
	}
	current := st.GetFields()["current_sub_agent"].GetStringValue()
	for i, sub := range subs {
		if sub.Name() == current {
			return i, true
		}
	}
	return 0, false
}

// Loop runs its sub-agents in order, again and again, until one of them
// escalates or MaxIterations rounds are done. It is immutable and safe for
// concurrent use.
type Loop struct {
	base
	maxIterations int
}

// NewLoop returns a loop agent; maxIterations of zero means no bound.
func NewLoop(cfg Config, maxIterations int) (*Loop, error) {
	if err := cfg.validate("LoopAgent"); err != nil {
		return nil, err
	}
	if maxIterations < 0 {
		return nil, errors.New("LoopAgent: max_iterations must not be negative")
	}
	return &Loop{base: base{cfg}, maxIterations: maxIterations}, nil
}

// MaxIterations returns the bound on rounds, zero for none.
func (l *Loop) MaxIterations() int { return l.maxIterations }

// Describe implements [runtime.Describer].
func (l *Loop) Describe() runtime.AgentDescription {
	return runtime.AgentDescription{Kind: runtime.KindLoop, MaxIterations: l.maxIterations}
}

// Run implements [runtime.Agent]. The sub-agent whose events escalate
// finishes (its remaining events still flow) and the loop ends. In a
// resumable invocation it records the sub-agent and round it is in.
func (l *Loop) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		if len(l.cfg.SubAgents) == 0 || ictx.AgentEnded(l.cfg.Name) {
			return
		}
		start, resuming := resumePoint(ictx, l.cfg.Name, l.cfg.SubAgents)
		round := 0
		if st := ictx.AgentState(l.cfg.Name); st != nil {
			round = int(st.GetFields()["times_looped"].GetNumberValue())
		}
		for ; l.maxIterations == 0 || round < l.maxIterations; round++ {
			for _, sub := range l.cfg.SubAgents[start:] {
				if !resuming {
					if ev := ictx.Checkpoint(subAgentState(sub.Name(), round)); ev != nil && !yield(ev, nil) {
						return
					}
				}
				resuming = false
				escalated := false
				paused, ok := runSub(ictx, sub, yield, func(ev *v1.Event) {
					escalated = escalated || ev.GetActions().GetEscalate()
				})
				if !ok || paused || ictx.Ended() {
					return
				}
				if escalated {
					if ev := ictx.Checkpoint(nil); ev != nil {
						yield(ev, nil)
					}
					return
				}
			}
			start = 0
		}
		if ev := ictx.Checkpoint(nil); ev != nil {
			yield(ev, nil)
		}
	}
}
