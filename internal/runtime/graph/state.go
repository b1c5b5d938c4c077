package graph

import (
	"slices"

	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// stateKey is the key of a paused workflow's state in its checkpoint
// event's agent_state.
const stateKey = "graph"

// waiting is a node paused on the user's answers.
type waiting struct {
	Node       string
	Path       string
	Branch     string
	Input      *structpb.Value
	Content    *v1.Content
	Interrupts []string
	// Schemas holds the JSON schema of each question's answer, by
	// interrupt id.
	Schemas map[string]*structpb.Value
	// Answers holds the answers received so far, by interrupt id.
	Answers map[string]*structpb.Value
}

// state is what a workflow run keeps between its nodes, and what a paused
// workflow records to resume from.
type state struct {
	// Runs counts each node's runs, which number their paths.
	Runs map[string]int
	// Outputs holds each completed node's latest output (nil: none).
	Outputs map[string]*structpb.Value
	// Arrivals holds, per join, the predecessors that completed since it
	// last ran.
	Arrivals map[string][]string
	Waiting  []*waiting
	// pending are the runs a restored state has left to run.
	pending []trigger
	// children are a restored state's records of dynamic children.
	children map[string]*childRecord
}

func newState() *state {
	return &state{Runs: map[string]int{}, Outputs: map[string]*structpb.Value{}, Arrivals: map[string][]string{}}
}

func (s *state) ran(node string) { s.Runs[node]++ }

func (s *state) setOutput(node string, v *structpb.Value) {
	if v == nil {
		delete(s.Outputs, node)
		return
	}
	s.Outputs[node] = v
}

// arrive records that pred completed for join and reports whether all of
// join's predecessors have now arrived (then it resets their arrivals).
func (s *state) arrive(join, pred string, preds []string) bool {
	if !slices.Contains(s.Arrivals[join], pred) {
		s.Arrivals[join] = append(s.Arrivals[join], pred)
	}
	for _, p := range preds {
		if p != Start && !slices.Contains(s.Arrivals[join], p) {
			return false
		}
	}
	delete(s.Arrivals, join)
	return true
}

// joinInput is a join's input: its predecessors' outputs by name (null
// for a predecessor without output).
func (s *state) joinInput(join string, preds []string) *structpb.Value {
	fields := map[string]*structpb.Value{}
	for _, p := range preds {
		if v, ok := s.Outputs[p]; ok {
			fields[p] = v
		} else {
			fields[p] = structpb.NewNullValue()
		}
	}
	return structpb.NewStructValue(&structpb.Struct{Fields: fields})
}

// pause records a node waiting on interrupts.
func (s *state) pause(node, path, branch string, in input, interrupts []string, schemas map[string]*structpb.Value) {
	s.Waiting = append(s.Waiting, &waiting{Node: node, Path: path, Branch: branch, Input: in.value, Content: in.content,
		Interrupts: interrupts, Schemas: schemas})
}
