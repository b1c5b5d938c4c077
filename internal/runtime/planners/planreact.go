package planners

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// The tags of ADK's PlanReActPlanner that open a part of the model's answer.
const (
	PlanningTag    = "/*PLANNING*/"
	ReplanningTag  = "/*REPLANNING*/"
	ReasoningTag   = "/*REASONING*/"
	ActionTag      = "/*ACTION*/"
	FinalAnswerTag = "/*FINAL_ANSWER*/"
)

// thoughtTags open a text part that is marked as thought.
var thoughtTags = [...]string{PlanningTag, ReasoningTag, ActionTag, ReplanningTag}

// PlanReAct is ADK's PlanReActPlanner: the model is told to plan, act and
// reason under tags, and the tagged parts of its answers become thought.
type PlanReAct struct{}

// ProcessRequest implements [Planner]: it appends [Instruction] to the
// system instruction and sends every part of the contents unmarked as
// thought (ADK's _remove_thought_from_request), so the model sees its
// earlier plans as text.
func (PlanReAct) ProcessRequest(req *v1.LlmRequest) {
	runtime.AppendInstruction(req, Instruction)
	req.Contents = withoutThought(req.Contents)
}

// withoutThought returns list with thought flags cleared. The list, which
// may be shared, is copied once it changes; a content with a thought part
// gets a copy of its own, with copies of its thought parts only.
func withoutThought(list []*v1.Content) []*v1.Content {
	copied := false
	for i, c := range list {
		if !slices.ContainsFunc(c.GetParts(), (*v1.Part).GetThought) {
			continue
		}
		if !copied {
			list, copied = slices.Clone(list), true
		}
		parts := slices.Clone(c.Parts)
		for j, p := range parts {
			if p.GetThought() {
				p = proto.CloneOf(p)
				p.Thought = false
				parts[j] = p
			}
		}
		list[i] = &v1.Content{Role: c.Role, Parts: parts}
	}
	return list
}

// ProcessResponse implements [Planner] as ADK's process_planning_response:
// parts up to the first function call are kept, text opening with a
// planning, reasoning, action or replanning tag marked as thought, and a
// text holding the final answer tag split after its last one into a
// thought and the answer; then the first call is kept with the calls that
// follow it; the rest is dropped. Calls with no name are dropped before the
// first named one. Nothing kept gives nil: the answer stays as it is.
//
// ADK 1.x keeps a call that opens the answer alone, and the thoughts keep
// their tags. ADK 2.x keeps the calls after it too, and strips every
// planning tag from a thought, and the final answer tag from its end; a
// thought left empty by the split is dropped.
func (PlanReAct) ProcessResponse(b runtime.Behavior, parts []*v1.Part) []*v1.Part {
	if len(parts) == 0 {
		return nil
	}
	v2 := b == runtime.Behavior2x
	kept := make([]*v1.Part, 0, len(parts))
	first := -1
	for i, p := range parts {
		if fc := p.GetFunctionCall(); fc != nil {
			if fc.Name == "" {
				continue
			}
			kept, first = append(kept, p), i
			break
		}
		kept = appendPlanned(kept, p, v2)
	}
	// ADK 1.x checks for a call after the first part.
	if first > 0 || first == 0 && v2 {
		for _, p := range parts[first+1:] {
			if p.GetFunctionCall() == nil {
				break
			}
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return nil
	}
	return kept
}

// appendPlanned appends p to kept as ADK's _handle_non_function_call_parts
// does, the 2.x way when v2 is set.
func appendPlanned(kept []*v1.Part, p *v1.Part, v2 bool) []*v1.Part {
	text := p.GetText()
	if at := strings.LastIndex(text, FinalAnswerTag); at >= 0 {
		// Both halves are new text parts: nothing else of p carries over.
		end := at + len(FinalAnswerTag)
		reasoning := text[:end]
		if v2 {
			reasoning = stripTags(text[:at])
		}
		if reasoning != "" {
			kept = append(kept, &v1.Part{Text: reasoning, Thought: true})
		}
		if end < len(text) {
			kept = append(kept, &v1.Part{Text: text[end:]})
		}
		return kept
	}
	for _, tag := range thoughtTags {
		if strings.HasPrefix(text, tag) {
			p = proto.CloneOf(p)
			p.Thought = true
			if v2 {
				p.Text = stripTags(text)
			}
			break
		}
	}
	return append(kept, p)
}

// stripTags removes every planning, reasoning, action and replanning tag
// from text, as ADK 2.x does.
func stripTags(text string) string {
	for _, tag := range thoughtTags {
		text = strings.ReplaceAll(text, tag, "")
	}
	return text
}
