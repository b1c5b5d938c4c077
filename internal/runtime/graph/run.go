package graph

import (
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
}

// outcome is how one node run ended.
type outcome struct {
	node, path string
	in         input
	output     *structpb.Value
	route      *structpb.Value
	interrupts []string
	err        error
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
	// queue holds the triggered runs not started yet, in order.
	queue   []trigger
	running int
	events  chan message
	done    chan outcome
	wg      sync.WaitGroup
}

func newRun(w *Workflow, ictx *runtime.InvocationContext) *run {
	return &run{w: w, ictx: ictx, st: newState(), events: make(chan message), done: make(chan outcome)}
}

// seed triggers START's successors with the user's message.
func (r *run) seed() {
	in := input{content: r.ictx.UserContent, value: contentValue(r.ictx.UserContent)}
	r.fire(Start, in.value, nil, &in)
}

// fire queues the successors of a completed node for its output and
// route, or the join's run once all its predecessors arrived.
func (r *run) fire(from string, output, route *structpb.Value, start *input) {
	if from != Start {
		r.st.setOutput(from, output)
	}
	for _, to := range r.w.g.next(from, route) {
		in := input{value: output}
		if start != nil {
			in = *start
		}
		if r.w.g.nodes[to].Kind == Join {
			if !r.st.arrive(to, from, r.w.g.preds[to]) {
				continue
			}
			in = input{value: r.st.joinInput(to, r.w.g.preds[to])}
		}
		r.queue = append(r.queue, trigger{node: to, in: in})
	}
}

// loop starts the triggered nodes, yields their events and handles their
// outcomes until no node is left to run; a paused workflow then records
// its state.
func (r *run) loop(yield func(*v1.Event, error) bool) {
	for {
		r.start()
		if r.running == 0 {
			break
		}
		select {
		case m := <-r.events:
			ok := yield(m.ev, nil)
			m.ack <- ok
			if !ok {
				return
			}
		case o := <-r.done:
			r.running--
			if o.err != nil {
				yield(nil, o.err)
				return
			}
			if len(o.interrupts) > 0 {
				r.st.pause(o.node, o.path, o.in, o.interrupts)
				continue
			}
			r.fire(o.node, o.output, o.route, nil)
		}
	}
	if len(r.st.Waiting) > 0 {
		yield(r.checkpoint(), nil)
	}
}

// start starts queued runs while the concurrency bound allows.
func (r *run) start() {
	for len(r.queue) > 0 {
		if m := r.w.cfg.MaxConcurrency; m > 0 && r.running >= m {
			return
		}
		t := r.queue[0]
		r.queue = r.queue[1:]
		n := r.w.g.nodes[t.node]
		r.running++
		r.wg.Add(1)
		path := ""
		if n.Kind != AgentNode {
			path = r.ictx.NodePath() + "/" + n.Name + "@" + strconv.Itoa(r.ictx.NodeRun(n.Name))
		}
		r.st.ran(n.Name)
		go func() {
			defer r.wg.Done()
			o := r.runNode(n, path, t)
			o.node, o.in = n.Name, t.in
			if o.path == "" {
				o.path = path
			}
			r.done <- o
		}()
	}
}

// emit hands ev to the loop and reports whether the run goes on.
func (r *run) emit(ev *v1.Event) bool {
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

// event returns a new event of the workflow for the node run at path.
func (r *run) event(path string) *v1.Event {
	ev := r.ictx.NewEvent()
	ev.NodeInfo = &v1.NodeInfo{Path: path}
	return ev
}
