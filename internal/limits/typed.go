package limits

import (
	"strconv"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// The walks below cover the message types checked on every run (a user's
// message, a model's response, an event and its actions) without
// reflection, which costs several microseconds on a small event. Each one
// visits every field of its type that can hold a JSON-like value and
// records the same path the reflective walk does;
// TestTypedWalksMatchReflection plants a value too deep in every such field,
// so a field added to the protos without a walk here fails it.

// typed walks m when its type has a walk of its own: handled reports
// whether it did, deep whether a value is too deep. json counts the Struct
// and ListValue levels above m. Message levels are not counted: none of
// these types nests itself.
func (w *walker) typed(m proto.Message, json int) (deep, handled bool) {
	if w.reflectOnly {
		return false, false
	}
	switch m := m.(type) {
	case *structpb.Struct:
		return w.structValue(m, json+1), true
	case *structpb.ListValue:
		return w.listValue(m, json+1), true
	case *structpb.Value:
		return w.value(m, json), true
	case *v1.Content:
		return w.content(m, json), true
	case *v1.Part:
		return w.part(m, json), true
	case *v1.LlmResponse:
		return w.llmResponse(m, json), true
	case *v1.Event:
		return w.event(m, json), true
	case *v1.EventActions:
		return w.actions(m, json), true
	}
	return false, false
}

// step records a field name on the path of a value too deep: deep is
// returned as is.
func (w *walker) step(deep bool, name string) bool {
	if deep {
		w.steps = append(w.steps, name)
	}
	return deep
}

// structField walks a Struct field named name.
func (w *walker) structField(s *structpb.Struct, json int, name string) bool {
	return s != nil && w.step(w.structValue(s, json+1), name)
}

func (w *walker) content(c *v1.Content, json int) bool {
	for i, p := range c.GetParts() {
		if w.part(p, json) {
			w.steps = append(w.steps, "["+strconv.Itoa(i)+"]", "parts")
			return true
		}
	}
	return false
}

func (w *walker) part(p *v1.Part, json int) bool {
	if fc := p.GetFunctionCall(); fc != nil && w.structField(fc.GetArgs(), json, "args") {
		return w.step(true, "function_call")
	}
	if fr := p.GetFunctionResponse(); fr != nil && w.structField(fr.GetResponse(), json, "response") {
		return w.step(true, "function_response")
	}
	return w.structField(p.GetPartMetadata(), json, "part_metadata")
}

// contentField walks a Content field named name.
func (w *walker) contentField(c *v1.Content, json int, name string) bool {
	return c != nil && w.step(w.content(c, json), name)
}

func (w *walker) llmResponse(r *v1.LlmResponse, json int) bool {
	return w.contentField(r.GetContent(), json, "content") ||
		w.structField(r.GetCustomMetadata(), json, "custom_metadata") ||
		w.structField(r.GetGroundingMetadata(), json, "grounding_metadata") ||
		w.structField(r.GetCitationMetadata(), json, "citation_metadata")
}

func (w *walker) event(e *v1.Event, json int) bool {
	return w.contentField(e.GetContent(), json, "content") ||
		w.structField(e.GetCustomMetadata(), json, "custom_metadata") ||
		w.structField(e.GetGroundingMetadata(), json, "grounding_metadata") ||
		w.structField(e.GetCitationMetadata(), json, "citation_metadata") ||
		e.GetOutput() != nil && w.step(w.value(e.GetOutput(), json), "output") ||
		e.GetActions() != nil && w.step(w.actions(e.GetActions(), json), "actions")
}

func (w *walker) actions(a *v1.EventActions, json int) bool {
	if w.structField(a.GetStateDelta(), json, "state_delta") ||
		w.structField(a.GetAgentState(), json, "agent_state") ||
		a.GetRoute() != nil && w.step(w.value(a.GetRoute(), json), "route") {
		return true
	}
	for k, s := range a.GetRequestedAuthConfigs() {
		if w.structField(s, json, "."+k) {
			return w.step(true, "requested_auth_configs")
		}
	}
	for k, c := range a.GetRequestedToolConfirmations() {
		if w.structField(c.GetPayload(), json, "payload") {
			w.steps = append(w.steps, "."+k, "requested_tool_confirmations")
			return true
		}
	}
	if c := a.GetCompaction(); c != nil && w.contentField(c.GetCompactedContent(), json, "compacted_content") {
		return w.step(true, "compaction")
	}
	return false
}
