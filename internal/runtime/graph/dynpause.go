package graph

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"google.golang.org/protobuf/types/known/structpb"
)

// ChildPausedType is the [ChildError] type of a dynamic child that asked
// the user for input (ADK's NodeInterruptedError): the caller ends, and
// waits on the child's questions, whatever it returns. Once the user
// answered, the caller runs again at the same path, and each child it asks
// for again returns what it returned before without running again.
const ChildPausedType = "NodeInterruptedError"

// childPaused is the error run_node returns in a caller whose child path
// waits for the user.
func childPaused(path string) error {
	return &ChildError{Type: ChildPausedType, Message: "Dynamic node " + path + " is waiting for the user's input", Path: path}
}

// childRecord is what a workflow keeps of a dynamic child across the
// invocations of its caller: its output once it finished, or the questions
// it waits on.
type childRecord struct {
	Done   bool
	Output *structpb.Value // nil: none
	// Interrupts are the questions a paused child waits on, Schemas their
	// answers' schemas and Answers the answers received, by interrupt id.
	Interrupts []string
	Schemas    map[string]*structpb.Value
	Answers    map[string]*structpb.Value
	// Rerun is set when the child runs again once answered (with the
	// answers), rather than taking the answer as its output.
	Rerun bool
}

// answered reports whether every question of a paused child is answered.
func (c *childRecord) answered() bool {
	return len(c.Interrupts) > 0 && len(c.Answers) >= len(c.Interrupts)
}

// unanswered lists a paused child's questions without an answer.
func (c *childRecord) unanswered() []string {
	var ids []string
	for _, id := range c.Interrupts {
		if _, ok := c.Answers[id]; !ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// replayChild answers, without running it, a request for the child at
// path that ran before (as ADK's replay of a caller run again on resume):
// a finished child returns its output, one still waiting on the user pauses
// the caller again, and one answered returns the answer, unless it runs
// again (done false) with its answers. A use_as_output child replayed
// stands for its caller, which emits no output event, as in ADK.
func (r *run) replayChild(p *dynamicParent, req *ChildRequest, path string, rec *childRecord) (res *ChildResult, err error, done bool) {
	if req.UseAsOutput && (rec.Done || rec.answered() && !rec.Rerun) {
		r.dyn.delegated.Store(p.path, true)
	}
	switch {
	case rec.Done:
		return &ChildResult{Path: path, Output: rec.Output}, nil, true
	case !rec.answered():
		r.dyn.pauseCaller(p.path, rec.unanswered(), rec.Schemas)
		return nil, childPaused(path), true
	case rec.Rerun:
		return nil, nil, false
	}
	out := resumedOutput(&waiting{Interrupts: rec.Interrupts, Answers: rec.Answers})
	r.dyn.keep(path, &childRecord{Done: true, Output: out})
	return &ChildResult{Path: path, Output: out}, nil, true
}

// pauseChild streams the questions of the child n at path, which asked the
// user for input, records that it and its caller wait on them, and returns
// the caller's error.
func (r *run) pauseChild(p *dynamicParent, n *Node, req *ChildRequest, path string, o outcome) error {
	for _, ev := range o.events {
		if !r.emit(ev) {
			return context.Canceled
		}
	}
	// A function the client runs dynamically takes its answer as its
	// output, as ADK's FunctionNode, unless it paused through children of
	// its own, which it replays; a node of the graph does as on resume.
	_, _, rerun := r.dyn.pausedCaller(path)
	if req.Function == "" {
		rerun = n.RerunOnResume || n.Kind == AgentNode && !answersOnResume(n.Agent)
	}
	r.dyn.keep(path, &childRecord{Interrupts: o.interrupts, Schemas: o.schemas, Rerun: rerun})
	r.dyn.pauseCaller(p.path, o.interrupts, o.schemas)
	return childPaused(path)
}

// record returns the record of the child at path, if any.
func (d *dynamicRuns) record(path string) (*childRecord, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	c, ok := d.records[path]
	return c, ok
}

// keep records what the child at path did.
func (d *dynamicRuns) keep(path string, c *childRecord) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.records == nil {
		d.records = map[string]*childRecord{}
	}
	d.records[path] = c
}

// pauseCaller records that a child of the node run at parent waits on ids,
// whose answers' schemas are in schemas.
func (d *dynamicRuns) pauseCaller(parent string, ids []string, schemas map[string]*structpb.Value) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.paused == nil {
		d.paused = map[string]*childRecord{}
	}
	p := d.paused[parent]
	if p == nil {
		p = &childRecord{Schemas: map[string]*structpb.Value{}}
		d.paused[parent] = p
	}
	for _, id := range ids {
		if !slices.Contains(p.Interrupts, id) {
			p.Interrupts = append(p.Interrupts, id)
		}
		if s := schemas[id]; s != nil {
			p.Schemas[id] = s
		}
	}
}

// pausedCaller returns the questions the children of the node run at path
// wait on; ok is false when none of them paused.
func (d *dynamicRuns) pausedCaller(path string) (ids []string, schemas map[string]*structpb.Value, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	p := d.paused[path]
	if p == nil {
		return nil, nil, false
	}
	return slices.Clone(p.Interrupts), p.Schemas, true
}

// clearPaused forgets the paused children of the node run at path, before
// an attempt of it.
func (d *dynamicRuns) clearPaused(path string) {
	d.mu.Lock()
	delete(d.paused, path)
	d.mu.Unlock()
}

// answer gives the paused children the user's answers it has, by interrupt
// id, validated against each question's schema.
func (d *dynamicRuns) answer(got map[string]*structpb.Struct) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.records {
		for _, id := range c.Interrupts {
			v, ok, err := answerTo(got, id, c.Schemas[id])
			if err != nil {
				return err
			}
			if !ok {
				continue
			}
			if c.Answers == nil {
				c.Answers = map[string]*structpb.Value{}
			}
			c.Answers[id] = v
		}
	}
	return nil
}

// savedChild is a dynamic child's record as a checkpoint keeps it.
type savedChild struct {
	Done       bool                       `json:"done,omitempty"`
	Output     json.RawMessage            `json:"output,omitempty"`
	Interrupts []string                   `json:"interrupts,omitempty"`
	Schemas    map[string]json.RawMessage `json:"schemas,omitempty"`
	Answers    map[string]json.RawMessage `json:"answers,omitempty"`
	Rerun      bool                       `json:"rerun,omitempty"`
}

// savedChildren are the records of the children of the runs that still
// wait or are to run again (under the paths in callers): the others have
// no use for them.
func (d *dynamicRuns) savedChildren(callers []string) map[string]savedChild {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out map[string]savedChild
	for path, c := range d.records {
		if !slices.ContainsFunc(callers, func(p string) bool { return strings.HasPrefix(path, p+"/") }) {
			continue
		}
		if out == nil {
			out = map[string]savedChild{}
		}
		out[path] = savedChild{Done: c.Done, Output: marshalValue(c.Output), Interrupts: c.Interrupts,
			Schemas: marshalValues(c.Schemas), Answers: marshalValues(c.Answers), Rerun: c.Rerun}
	}
	return out
}

// restoreChildren reads the records a checkpoint kept, at most
// MaxDynamicRuns of them.
func restoreChildren(saved map[string]savedChild) map[string]*childRecord {
	if len(saved) == 0 || len(saved) > MaxDynamicRuns {
		return nil
	}
	out := make(map[string]*childRecord, len(saved))
	for path, c := range saved {
		out[path] = &childRecord{Done: c.Done, Output: unmarshalValue(c.Output), Interrupts: c.Interrupts,
			Schemas: unmarshalValues(c.Schemas), Answers: unmarshalValues(c.Answers), Rerun: c.Rerun}
	}
	return out
}
