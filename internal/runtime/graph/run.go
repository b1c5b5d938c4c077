package graph

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// input is a node's input: a value, and the content it came from when it
// is the user's message (an LlmAgent node takes that content as it is).
type input struct {
	value   *structpb.Value
	content *v1.Content
}

// trigger asks for one run of a node.
type trigger struct {
	node string
	in   input
	// resume carries the answers of a node run again on resume.
	resume *structpb.Struct
	// branch is the branch the node runs on: its trigger's, or with
	// fanOut a sub-branch of it named after the run ("<node>@<n>").
	branch string
	fanOut bool
	// path, when set, is the path of the run a resumed node runs again.
	path string
	// ictx is the node run's context, set when it starts.
	ictx *runtime.InvocationContext
	// retried is set for an attempt of a node with a retry policy or a
	// timeout: an agent's error event reports the failed attempt.
	retried bool
	// item is set for a run of one item of a parallel worker.
	item bool
	// depth counts the dynamic nodes the run is nested in (ADK's
	// ctx.run_node); 0 for a node of the graph.
	depth int
}

// outcome is how one node run ended.
type outcome struct {
	node, path string
	in         input
	output     *structpb.Value
	route      *structpb.Value
	interrupts []string
	// inflightKey is the run's key in run.inflight.
	inflightKey string
	schemas     map[string]*structpb.Value
	// events are an ordered run's events (see [rounds]): its questions,
	// the last of which the loop gives the workflow's state, or its
	// output, state changes and route.
	events []*v1.Event
	branch string
	err    error
	// reported is set when an error event of the node reported err.
	reported bool
}

// message is an event a running node hands to the loop, which yields it
// and then acknowledges.
type message struct {
	ev  *v1.Event
	ack chan bool
}

// run is one invocation's run of a workflow.
type run struct {
	w    *Workflow
	ictx *runtime.InvocationContext
	st   *state
	// queue holds the triggered runs not started yet, in order; queued
	// lists the nodes they are for in the order ADK's trigger buffer
	// keeps them: by the time a node went from none queued to some.
	queue   []trigger
	queued  []string
	running int
	started int
	// inflight holds the triggers of the running nodes, by path.
	inflight map[string]trigger
	// active counts the running runs of each node: ADK runs one at a
	// time, the node's later triggers waiting.
	active map[string]int
	order  rounds
	// unrecorded is set when the state changed since the session last
	// recorded it.
	unrecorded bool
	events     chan message
	done       chan outcome
	// dyn tracks the dynamic nodes the run's function nodes run.
	dyn dynamicRuns
	wg  sync.WaitGroup
	// spans holds the spans of the running nodes that are not agents, by
	// path, which record the events their node emits.
	spans sync.Map
}

func newRun(w *Workflow, ictx *runtime.InvocationContext) *run {
	return &run{w: w, ictx: ictx, st: newState(), inflight: map[string]trigger{}, active: map[string]int{}, events: make(chan message), done: make(chan outcome)}
}

// seed triggers START's successors with the workflow's input: the
// enclosing node's input when the workflow runs as a node of another, as
// ADK seeds a nested workflow, else the user's message.
func (r *run) seed() {
	in, ok := r.ictx.Context().Value(nodeInputKey{}).(input)
	if !ok {
		in = input{content: r.ictx.UserContent, value: contentValue(r.ictx.UserContent)}
	}
	r.fire(Start, in.value, nil, r.ictx.Branch, &in)
}

// nodeInputKey keys, in a nested workflow's context, the input of the
// node it runs as.
type nodeInputKey struct{}

// fire queues the successors of a completed node for its output and
// route, or the join's run once all its predecessors arrived.
func (r *run) fire(from string, output, route *structpb.Value, branch string, start *input) {
	if from != Start {
		r.st.setOutput(from, output)
	}
	next := r.w.g.next(from, route)
	for _, to := range next {
		in := input{value: output}
		if start != nil {
			in = *start
		}
		t := trigger{node: to, in: in, branch: branch, fanOut: len(next) > 1}
		if r.w.g.nodes[to].Kind == Join {
			if !r.st.arrive(to, from, r.w.g.preds[to]) {
				continue
			}
			t = trigger{node: to, in: input{value: r.st.joinInput(to, r.w.g.preds[to])}, branch: r.ictx.Branch}
		}
		r.enqueue(t)
	}
}

// loop starts the triggered nodes, yields their events and handles their
// outcomes until no node is left to run; a paused workflow then records
// its state.
func (r *run) loop(yield func(*v1.Event, error) bool) {
	r.start(1)
	for r.running > 0 {
		select {
		case m := <-r.events:
			ok := yield(m.ev, nil)
			m.ack <- ok
			if !ok {
				return
			}
		case o := <-r.done:
			if o.err != nil {
				if r.flush(yield) {
					yield(nil, o.err)
				}
				return
			}
			if !r.order.ended(o) {
				if !r.yieldUnordered(o, yield) {
					return
				}
				r.start(r.order.round + 1)
			}
			if !r.release(yield) {
				return
			}
		}
	}
	if len(r.st.Waiting) > 0 {
		if r.unrecorded {
			yield(r.checkpoint(), nil)
		}
		return
	}
	if n := r.terminalOutputs(); n > 1 {
		msg := fmt.Sprintf("Workflow %s: multiple terminal nodes produced output (%d). A workflow must have at most one terminal output.", r.w.cfg.Name, n)
		ev := event(r.ictx, r.ictx.NodePath())
		ev.ErrorCode, ev.ErrorMessage = "WorkflowConfigurationError", msg
		if yield(ev, nil) {
			yield(nil, &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_WORKFLOW_CONFIGURATION_ERROR.String(), Message: msg})
		}
		return
	}
	// A resumable app records the workflow's end, as ADK's end_of_agent.
	if ev := r.ictx.Checkpoint(nil); ev != nil {
		yield(ev, nil)
	}
}

// terminalOutputs counts the terminal nodes (no edge leaves them) that
// produced an output in the run.
func (r *run) terminalOutputs() int {
	n := 0
	for name := range r.st.Outputs {
		if len(r.w.g.out[name]) == 0 {
			n++
		}
	}
	return n
}

// yieldUnordered yields the events a run outside the rounds returned (an
// agent node's parallel workers' output), its last question carrying the
// workflow's state, and completes the run; false when the caller stopped
// reading.
func (r *run) yieldUnordered(o outcome, yield func(*v1.Event, error) bool) bool {
	paused := len(o.interrupts) > 0 && len(o.events) > 0
	if paused {
		r.pause(o, o.events[len(o.events)-1])
	}
	for _, ev := range o.events {
		if !yield(ev, nil) {
			return false
		}
	}
	r.complete(o, paused)
	return true
}

// complete handles a run that ended: a paused one records that it waits
// (unless that was done when its last question was released), another
// triggers its successors.
func (r *run) complete(o outcome, paused bool) {
	r.running--
	r.active[o.node]--
	if paused {
		return // recorded with its last question
	}
	r.unrecorded = true
	if len(o.interrupts) > 0 {
		r.pause(o, nil)
		return
	}
	delete(r.inflight, o.inflightKey)
	if r.w.g.nodes[o.node].WaitForOutput && o.output == nil && o.route == nil {
		return // ADK's WAITING: a later trigger runs it again
	}
	r.fire(o.node, o.output, o.route, o.branch, nil)
}

// pause records that a run waits for the user's answers; ask, when set,
// is its last question, which carries the workflow's state so a caller
// that stops reading once asked loses nothing.
func (r *run) pause(o outcome, ask *v1.Event) {
	delete(r.inflight, o.inflightKey)
	r.st.pause(o.node, o.path, o.branch, o.in, o.interrupts, o.schemas)
	if ask != nil {
		ask.Actions.AgentState = r.stateStruct()
		r.unrecorded = false
	}
}

// enqueue queues a trigger.
func (r *run) enqueue(t trigger) {
	if !slices.ContainsFunc(r.queue, func(q trigger) bool { return q.node == t.node }) {
		r.queued = append(r.queued, t.node)
	}
	r.queue = append(r.queue, t)
}

// start starts queued runs while the concurrency bound allows, as ADK's
// scheduler does: node by node in the order of [run.queued], the oldest
// trigger of each node that is not running. Ordered runs are to emit
// their first event in the round first.
func (r *run) start(first int) {
	for _, name := range slices.Clone(r.queued) {
		if r.active[name] > 0 {
			continue
		}
		if m := r.w.cfg.MaxConcurrency; m > 0 && r.running >= m {
			return
		}
		i := slices.IndexFunc(r.queue, func(q trigger) bool { return q.node == name })
		t := r.queue[i]
		r.queue = slices.Delete(r.queue, i, i+1)
		if !slices.ContainsFunc(r.queue, func(q trigger) bool { return q.node == name }) {
			r.queued = slices.DeleteFunc(r.queued, func(q string) bool { return q == name })
		}
		n := r.w.g.nodes[t.node]
		r.running++
		r.active[t.node]++
		r.wg.Add(1)
		num, path := r.st.Runs[n.Name], t.path
		if path == "" {
			r.st.ran(n.Name)
			num = r.ictx.NodeRun(n.Name)
			path = r.ictx.NodePath() + "/" + n.Name + "@" + strconv.Itoa(num)
		}
		if t.fanOut {
			t.branch = subBranch(t.branch, n.Name+"@"+strconv.Itoa(num))
		}
		t.ictx = r.ictx
		if t.branch != r.ictx.Branch {
			t.ictx = r.ictx.WithBranch(t.branch)
		}
		key := path + "#" + strconv.Itoa(r.started)
		r.started++
		t.path = path
		r.inflight[key] = t
		if ordered(n) {
			r.order.add(key, first)
		}
		go func() {
			defer r.wg.Done()
			var span *runtime.NodeSpan
			if n.Kind != AgentNode {
				// An agent node runs in its agent's own span.
				if t.ictx, span = t.ictx.StartNode(n.Name); span != nil {
					r.spans.Store(path, span)
					defer r.spans.Delete(path)
				}
			}
			o := r.runNode(n, path, t)
			for _, ev := range o.events { // released later, in ADK's order
				span.Event(ev)
			}
			span.End(o.err)
			o.node, o.in, o.branch, o.inflightKey = n.Name, t.in, t.branch, key
			if o.path == "" {
				o.path = path
			}
			r.done <- o
		}()
	}
}

// emit hands ev to the loop and reports whether the run goes on.
func (r *run) emit(ev *v1.Event) bool {
	if span, ok := r.spans.Load(ev.GetNodeInfo().GetPath()); ok {
		span.(*runtime.NodeSpan).Event(ev)
	}
	ack := make(chan bool, 1)
	select {
	case r.events <- message{ev, ack}:
	case <-r.ictx.Context().Done():
		return false
	}
	select {
	case ok := <-ack:
		return ok
	case <-r.ictx.Context().Done():
		return false
	}
}

// wait waits for every node goroutine to end, dropping what they still
// send: the run was cancelled, or it ended.
func (r *run) wait() {
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case m := <-r.events:
				m.ack <- false
			case <-r.done:
			case <-stop:
				return
			}
		}
	}()
	r.wg.Wait()
	close(stop)
}

// event returns a new event of the workflow for the node run at path, on
// the branch of ictx.
func event(ictx *runtime.InvocationContext, path string) *v1.Event {
	ev := ictx.NewEvent()
	ev.NodeInfo = &v1.NodeInfo{Path: path}
	return ev
}

// subBranch is the branch of a node run that a fan-out starts: named after
// the run, under the branch of the node that fanned out.
func subBranch(parent, run string) string {
	if parent == "" {
		return run
	}
	return parent + "." + run
}
