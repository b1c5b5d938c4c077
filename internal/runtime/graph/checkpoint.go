package graph

import (
	"encoding/json"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// savedState is a paused workflow's state as its checkpoint records it.
type savedState struct {
	Runs     map[string]int             `json:"runs"`
	Outputs  map[string]json.RawMessage `json:"outputs,omitempty"`
	Arrivals map[string][]string        `json:"arrivals,omitempty"`
	Waiting  []savedWaiting             `json:"waiting"`
	// Pending are the runs not finished when the state was recorded
	// (queued, or running while another node asked): a resume runs them.
	Pending []savedTrigger `json:"pending,omitempty"`
	// Children are the records of the dynamic children of the waiting and
	// pending runs, by path.
	Children map[string]savedChild `json:"children,omitempty"`
}

type savedTrigger struct {
	Node    string          `json:"node"`
	Path    string          `json:"path,omitempty"`
	Branch  string          `json:"branch,omitempty"`
	FanOut  bool            `json:"fan_out,omitempty"`
	Input   json.RawMessage `json:"input,omitempty"`
	Content json.RawMessage `json:"content,omitempty"`
}

type savedWaiting struct {
	Node       string                     `json:"node"`
	Path       string                     `json:"path"`
	Branch     string                     `json:"branch,omitempty"`
	Input      json.RawMessage            `json:"input,omitempty"`
	Content    json.RawMessage            `json:"content,omitempty"`
	Interrupts []string                   `json:"interrupts"`
	Schemas    map[string]json.RawMessage `json:"schemas,omitempty"`
	Answers    map[string]json.RawMessage `json:"answers,omitempty"`
}

func marshalValue(v *structpb.Value) json.RawMessage {
	if v == nil {
		return nil
	}
	b, err := protojson.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

func unmarshalValue(b json.RawMessage) *structpb.Value {
	if len(b) == 0 {
		return nil
	}
	var v structpb.Value
	if protojson.Unmarshal(b, &v) != nil {
		return nil
	}
	return &v
}

func marshalValues(m map[string]*structpb.Value) map[string]json.RawMessage {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = marshalValue(v)
	}
	return out
}

func unmarshalValues(m map[string]json.RawMessage) map[string]*structpb.Value {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]*structpb.Value, len(m))
	for k, v := range m {
		if val := unmarshalValue(v); val != nil {
			out[k] = val
		}
	}
	return out
}

// checkpoint returns the event recording the paused workflow's state
// (ADK's agent state event of the workflow, at the workflow's path).
func (r *run) checkpoint() *v1.Event {
	ev := event(r.ictx, r.ictx.NodePath())
	ev.Actions.AgentState = r.stateStruct()
	return ev
}

// saveTrigger is a pending run as a checkpoint records it.
func saveTrigger(t trigger) savedTrigger {
	st := savedTrigger{Node: t.node, Path: t.path, Branch: t.branch, FanOut: t.fanOut, Input: marshalValue(t.in.value)}
	if t.path != "" {
		st.FanOut = false // its branch is its own already
	}
	if t.in.content != nil {
		st.Content, _ = protojson.Marshal(t.in.content)
	}
	return st
}

// stateStruct is the workflow's state as its agent_state records it.
func (r *run) stateStruct() *structpb.Struct {
	s := savedState{Runs: r.st.Runs, Outputs: map[string]json.RawMessage{}, Arrivals: r.st.Arrivals}
	for k, v := range r.st.Outputs {
		s.Outputs[k] = marshalValue(v)
	}
	for _, w := range r.st.Waiting {
		sw := savedWaiting{Node: w.Node, Path: w.Path, Branch: w.Branch, Input: marshalValue(w.Input), Interrupts: w.Interrupts}
		if w.Content != nil {
			sw.Content, _ = protojson.Marshal(w.Content)
		}
		sw.Answers, sw.Schemas = marshalValues(w.Answers), marshalValues(w.Schemas)
		s.Waiting = append(s.Waiting, sw)
	}
	keys := make([]string, 0, len(r.inflight))
	for k := range r.inflight {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s.Pending = append(s.Pending, saveTrigger(r.inflight[k]))
	}
	for _, t := range r.queue {
		s.Pending = append(s.Pending, saveTrigger(t))
	}
	var callers []string
	for _, w := range s.Waiting {
		callers = append(callers, w.Path)
	}
	for _, p := range s.Pending {
		if p.Path != "" {
			callers = append(callers, p.Path)
		}
	}
	s.Children = r.dyn.savedChildren(callers)
	b, _ := json.Marshal(s)
	var st structpb.Struct
	_ = protojson.Unmarshal(b, &st)
	return &structpb.Struct{Fields: map[string]*structpb.Value{stateKey: structpb.NewStructValue(&st)}}
}

// restore reads a checkpoint's state; false when it is not one.
func restore(agentState *structpb.Struct) (*state, bool) {
	raw := agentState.GetFields()[stateKey].GetStructValue()
	if raw == nil {
		return nil, false
	}
	b, err := protojson.Marshal(raw)
	if err != nil {
		return nil, false
	}
	var s savedState
	if json.Unmarshal(b, &s) != nil {
		return nil, false
	}
	st := newState()
	for k, v := range s.Runs {
		st.Runs[k] = v
	}
	for k, v := range s.Outputs {
		if val := unmarshalValue(v); val != nil {
			st.Outputs[k] = val
		}
	}
	for k, v := range s.Arrivals {
		st.Arrivals[k] = v
	}
	for _, w := range s.Waiting {
		pw := &waiting{Node: w.Node, Path: w.Path, Branch: w.Branch, Input: unmarshalValue(w.Input), Interrupts: w.Interrupts}
		if len(w.Content) > 0 {
			var c v1.Content
			if protojson.Unmarshal(w.Content, &c) == nil {
				pw.Content = &c
			}
		}
		pw.Answers, pw.Schemas = unmarshalValues(w.Answers), unmarshalValues(w.Schemas)
		st.Waiting = append(st.Waiting, pw)
	}
	for _, p := range s.Pending {
		t := trigger{node: p.Node, path: p.Path, branch: p.Branch, fanOut: p.FanOut, in: input{value: unmarshalValue(p.Input)}}
		if len(p.Content) > 0 {
			var c v1.Content
			if protojson.Unmarshal(p.Content, &c) == nil {
				t.in.content = &c
			}
		}
		st.pending = append(st.pending, t)
	}
	st.children = restoreChildren(s.Children)
	return st, true
}

// answers are the user's answers in the invocation's message, by function
// call id.
func answers(c *v1.Content) map[string]*structpb.Struct {
	out := map[string]*structpb.Struct{}
	for _, p := range c.GetParts() {
		if fr := p.GetFunctionResponse(); fr != nil && fr.GetId() != "" {
			out[fr.GetId()] = fr.GetResponse()
		}
	}
	return out
}

// latestCheckpoint is the state the workflow last paused with, if its
// latest checkpoint is one.
func (r *run) latestCheckpoint() (*state, bool) {
	events := r.ictx.Events()
	for i := len(events) - 1; i >= 0; i-- {
		ev := events[i]
		if ev.GetAuthor() != r.w.cfg.Name {
			continue
		}
		if ev.GetActions().GetEndOfAgent() {
			return nil, false
		}
		if st := ev.GetActions().GetAgentState(); st != nil {
			return restore(st)
		}
	}
	return nil, false
}

// resume continues the workflow paused in an earlier invocation when the
// user's message answers some of its questions: a node whose questions
// are all answered completes with the answer as its output (or runs again
// with the answers, when it reruns on resume); the others keep waiting.
// It reports false, leaving the run fresh, when there is nothing to resume.
func (r *run) resume() (bool, error) {
	got := answers(r.ictx.UserContent)
	if len(got) == 0 {
		return false, nil
	}
	st, ok := r.latestCheckpoint()
	if !ok {
		return false, nil
	}
	matched := false
	for _, w := range st.Waiting {
		for _, id := range w.Interrupts {
			v, ok, err := answerTo(got, id, w.Schemas[id])
			if err != nil {
				return false, err
			}
			if !ok {
				continue
			}
			if n := r.w.g.nodes[w.Node]; n != nil && n.Auth != nil && strings.HasPrefix(id, authInterruptPrefix) {
				cred, ok := credentialFromAnswer(n.Auth, v)
				if !ok {
					ev := event(r.ictx, w.Path)
					ev.ErrorCode, ev.ErrorMessage = "WorkflowDataError", errMalformedAuth
					return false, &failure{ev: ev, err: &runtime.Error{Code: runtime.CodeInvalidArgument, Reason: v1.ErrorReason_WORKFLOW_DATA_ERROR.String(), Message: errMalformedAuth}}
				}
				r.ictx.SetSessionState("temp:"+CredentialKey(n.Auth), cred)
			}
			if w.Answers == nil {
				w.Answers = map[string]*structpb.Value{}
			}
			w.Answers[id] = v
			matched = true
		}
	}
	if !matched {
		return false, nil
	}
	r.dyn.records = st.children
	if err := r.dyn.answer(got); err != nil {
		return false, err
	}
	r.st, r.unrecorded = st, true
	for name, n := range st.Runs {
		r.ictx.SeedNodeRun(name, n)
	}
	for _, t := range st.pending {
		if r.w.g.nodes[t.node] != nil {
			r.enqueue(t) // cut off when the state was recorded
		}
	}
	var still []*waiting
	var done []*waiting
	for _, w := range st.Waiting {
		if len(w.Answers) < len(w.Interrupts) {
			still = append(still, w)
			continue
		}
		done = append(done, w)
	}
	st.Waiting = still
	for _, w := range done {
		n := r.w.g.nodes[w.Node]
		if n == nil {
			continue
		}
		in := input{value: w.Input, content: w.Content}
		if n.RerunOnResume || n.Kind == TaskNode || n.Kind == AgentNode && !answersOnResume(n.Agent) {
			// ADK runs it again as the same run, at the same path.
			r.enqueue(trigger{node: n.Name, in: in, resume: answerStruct(w), branch: w.Branch, path: w.Path})
			continue
		}
		r.fire(n.Name, resumedOutput(w), nil, w.Branch, nil)
	}
	return true, nil
}

// answersOnResume reports whether agent is a workflow whose answer, when
// it runs as a node, is its output rather than resuming it.
func answersOnResume(agent runtime.Agent) bool {
	w, ok := agent.(*Workflow)
	return ok && w.cfg.AnswerOnResume
}

// answerTo is the answer got holds to the question id, unwrapped and
// checked against the answer's schema; ok is false when it holds none.
func answerTo(got map[string]*structpb.Struct, id string, schema *structpb.Value) (v *structpb.Value, ok bool, err error) {
	a, ok := got[id]
	if !ok {
		return nil, false, nil
	}
	v, err = checkAnswer(id, schema, unwrapAnswer(structpb.NewStructValue(a)))
	return v, err == nil, err
}

// answerStruct is a waiting node's answers by interrupt id.
func answerStruct(w *waiting) *structpb.Struct {
	s := &structpb.Struct{Fields: map[string]*structpb.Value{}}
	for id, a := range w.Answers {
		s.Fields[id] = a
	}
	return s
}

// resumedOutput is the output of a node resumed without running again:
// the user's answer (by interrupt id when it asked several questions).
func resumedOutput(w *waiting) *structpb.Value {
	if len(w.Interrupts) == 1 {
		return w.Answers[w.Interrupts[0]]
	}
	return structpb.NewStructValue(answerStruct(w))
}

// unwrapAnswer is ADK's _unwrap_response: an object whose only key is
// "result" stands for its value, and a string value there is parsed as
// JSON when it is JSON.
func unwrapAnswer(v *structpb.Value) *structpb.Value {
	fields := v.GetStructValue().GetFields()
	if len(fields) != 1 {
		return v
	}
	res, ok := fields["result"]
	if !ok {
		return v
	}
	if s, ok := res.GetKind().(*structpb.Value_StringValue); ok {
		var parsed structpb.Value
		if protojson.Unmarshal([]byte(s.StringValue), &parsed) == nil {
			return &parsed
		}
	}
	return res
}

// failure is an error that an event reports first, as ADK's error events.
type failure struct {
	ev  *v1.Event
	err error
}

func (f *failure) Error() string { return f.err.Error() }
func (f *failure) Unwrap() error { return f.err }
