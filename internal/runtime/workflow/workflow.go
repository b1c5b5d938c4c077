// Package workflow holds ADK's workflow agents, which run their sub-agents
// without a model of their own: Sequential (in order), Parallel
// (concurrently, each on its own branch) and Loop (in order, repeatedly).
package workflow

import (
	"errors"
	"fmt"
	"iter"

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

// Run implements [runtime.Agent].
func (s *Sequential) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		for _, sub := range s.cfg.SubAgents {
			for ev, err := range runtime.RunAgent(ictx, sub) {
				if !yield(ev, err) || err != nil {
					return
				}
			}
			if ictx.Ended() {
				return
			}
		}
	}
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

// Run implements [runtime.Agent]. The sub-agent whose events escalate
// finishes (its remaining events still flow) and the loop ends.
func (l *Loop) Run(ictx *runtime.InvocationContext) iter.Seq2[*v1.Event, error] {
	return func(yield func(*v1.Event, error) bool) {
		if len(l.cfg.SubAgents) == 0 {
			return
		}
		for round := 0; l.maxIterations == 0 || round < l.maxIterations; round++ {
			for _, sub := range l.cfg.SubAgents {
				escalated := false
				for ev, err := range runtime.RunAgent(ictx, sub) {
					if !yield(ev, err) || err != nil {
						return
					}
					if ev.GetActions().GetEscalate() {
						escalated = true
					}
				}
				if escalated || ictx.Ended() {
					return
				}
			}
		}
	}
}
