package contents

import (
	"slices"
	"strings"

	"google.golang.org/protobuf/proto"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// referenceBuild is a plain transcription of ADK's _get_contents and
// _get_current_turn_contents, written for clarity rather than speed, to
// check [Build] against. It shares with the package only the steps no fast
// path replaces: compaction ([applyCompaction]) and the retelling of other
// agents' events ([presentOtherAgent]). Contents it clears ids in are
// copies, so results compare by value.
func referenceBuild(events []*v1.Event, agentName, branch string, opts Options) ([]*v1.Content, error) {
	if opts.CurrentTurnOnly {
		start := -1
		for i := len(events) - 1; i >= 0; i-- {
			e := events[i]
			if refIncluded(e, branch) && (e.GetAuthor() == "user" || refOtherAgent(agentName, e.GetAuthor())) {
				start = i
				break
			}
		}
		if start < 0 {
			return nil, nil
		}
		events = events[start:]
	}

	var kept []*v1.Event
	for i := len(events) - 1; i >= 0; i-- {
		e := events[i]
		target := e.GetActions().GetRewindBeforeInvocationId()
		if target == "" {
			kept = append(kept, e)
			continue
		}
		for j := 0; j < i; j++ {
			if events[j].GetInvocationId() == target {
				i = j
				break
			}
		}
	}
	slices.Reverse(kept)

	var filtered []*v1.Event
	compacted := false
	for _, e := range kept {
		if refIncluded(e, branch) {
			filtered = append(filtered, e)
			compacted = compacted || e.GetActions().GetCompaction() != nil
		}
	}
	if compacted {
		filtered = applyCompaction(filtered, agentName)
	}

	// Each entry stands for one event; nil for an event without content.
	var list []*v1.Content
	var input, output string
	for i, e := range filtered {
		c := e.GetContent()
		if c == nil {
			nextIn, nextOut := "", ""
			if i+1 < len(filtered) {
				nextIn = filtered[i+1].GetInputTranscription().GetText()
				nextOut = filtered[i+1].GetOutputTranscription().GetText()
			}
			if t := e.GetInputTranscription().GetText(); t != "" {
				input += t
				if nextIn != "" {
					continue
				}
				c = &v1.Content{Role: "user", Parts: []*v1.Part{{Text: input}}}
				input = ""
			} else if t := e.GetOutputTranscription().GetText(); t != "" {
				output += t
				if nextOut != "" {
					continue
				}
				c = &v1.Content{Role: "model", Parts: []*v1.Part{{Text: output}}}
				output = ""
			}
		}
		if refOtherAgent(agentName, e.GetAuthor()) && c != nil {
			retold, ok := presentOtherAgent(e.GetAuthor(), c)
			if !ok {
				continue
			}
			c = retold
		}
		list = append(list, c)
	}

	list, err := refLatestResponse(list)
	if err != nil {
		return nil, err
	}
	list = refAsyncResponses(list)

	var out []*v1.Content
	for _, c := range list {
		if c == nil {
			continue
		}
		if !opts.KeepClientIDs {
			c = refClearClientIDs(c)
		}
		out = append(out, c)
	}
	return out, nil
}

func refOtherAgent(agentName, author string) bool {
	return agentName != "" && author != agentName && author != "user"
}

// refIncluded is _should_include_event_in_context.
func refIncluded(e *v1.Event, branch string) bool {
	if refEmpty(e) {
		return false
	}
	eb := e.GetBranch()
	if branch != "" && eb != "" && branch != eb && !strings.HasPrefix(branch, eb+".") {
		return false
	}
	for _, p := range e.GetContent().GetParts() {
		if refFramework(p.GetFunctionCall().GetName()) || refFramework(p.GetFunctionResponse().GetName()) {
			return false
		}
	}
	return true
}

func refFramework(name string) bool {
	switch name {
	case "adk_request_credential", "adk_request_confirmation", "adk_request_input", "adk_framework":
		return true
	}
	return false
}

func refEmpty(e *v1.Event) bool {
	if e.GetActions().GetCompaction() != nil || e.GetInputTranscription() != nil || e.GetOutputTranscription() != nil {
		return false
	}
	c := e.GetContent()
	if c == nil || c.GetRole() == "" || len(c.GetParts()) == 0 {
		return true
	}
	for _, p := range c.GetParts() {
		if p.GetFunctionCall() != nil || p.GetFunctionResponse() != nil {
			return false
		}
		if !p.GetThought() && (p.GetText() != "" || p.GetInlineData() != nil || p.GetFileData() != nil ||
			p.GetExecutableCode() != nil || p.GetCodeExecutionResult() != nil) {
			return false
		}
	}
	return true
}

func refCallIDs(c *v1.Content) []string {
	var ids []string
	for _, p := range c.GetParts() {
		if fc := p.GetFunctionCall(); fc != nil && !slices.Contains(ids, fc.GetId()) {
			ids = append(ids, fc.GetId())
		}
	}
	return ids
}

func refResponseIDs(c *v1.Content) []string {
	var ids []string
	for _, p := range c.GetParts() {
		if fr := p.GetFunctionResponse(); fr != nil && !slices.Contains(ids, fr.GetId()) {
			ids = append(ids, fr.GetId())
		}
	}
	return ids
}

func refIntersects(a, b []string) bool {
	return slices.ContainsFunc(a, func(s string) bool { return slices.Contains(b, s) })
}

// refLatestResponse is _rearrange_events_for_latest_function_response.
func refLatestResponse(list []*v1.Content) ([]*v1.Content, error) {
	n := len(list)
	if n < 2 {
		return list, nil
	}
	ids := refResponseIDs(list[n-1])
	if len(ids) == 0 || refIntersects(refCallIDs(list[n-2]), ids) {
		return list, nil
	}
	callIndex := -1
	for i := n - 2; i >= 0; i-- {
		callIDs := refCallIDs(list[i])
		if !refIntersects(callIDs, ids) {
			continue
		}
		callIndex = i
		for _, id := range ids {
			if !slices.Contains(callIDs, id) {
				return nil, &MixedFunctionResponsesError{CallIDs: callIDs, ResponseIDs: ids}
			}
		}
		ids = callIDs
	}
	if callIndex < 0 {
		return nil, &NoFunctionCallError{ResponseIDs: ids}
	}
	var group []*v1.Content
	for i := callIndex + 1; i < n-1; i++ {
		if refIntersects(refResponseIDs(list[i]), ids) {
			group = append(group, list[i])
		}
	}
	group = append(group, list[n-1])
	return append(slices.Clone(list[:callIndex+1]), refMerge(group)), nil
}

// refAsyncResponses is
// _rearrange_events_for_async_function_responses_in_history.
func refAsyncResponses(list []*v1.Content) []*v1.Content {
	latest := map[string]int{}
	for i, c := range list {
		for _, id := range refResponseIDs(c) {
			latest[id] = i
		}
	}
	var out []*v1.Content
	for _, c := range list {
		if len(refResponseIDs(c)) > 0 {
			continue
		}
		out = append(out, c)
		var indexes []int
		for _, id := range refCallIDs(c) {
			if j, ok := latest[id]; ok && !slices.Contains(indexes, j) {
				indexes = append(indexes, j)
			}
		}
		switch len(indexes) {
		case 0:
		case 1:
			out = append(out, list[indexes[0]])
		default:
			slices.Sort(indexes)
			group := make([]*v1.Content, len(indexes))
			for k, j := range indexes {
				group[k] = list[j]
			}
			out = append(out, refMerge(group))
		}
	}
	return out
}

// refMerge is _merge_function_response_events.
func refMerge(group []*v1.Content) *v1.Content {
	parts := slices.Clone(group[0].GetParts())
	at := map[string]int{}
	for i, p := range parts {
		if fr := p.GetFunctionResponse(); fr != nil {
			at[fr.GetId()] = i
		}
	}
	for _, c := range group[1:] {
		for _, p := range c.GetParts() {
			if fr := p.GetFunctionResponse(); fr != nil {
				if j, ok := at[fr.GetId()]; ok {
					parts[j] = p
					continue
				}
				at[fr.GetId()] = len(parts)
			}
			parts = append(parts, p)
		}
	}
	return &v1.Content{Role: group[0].GetRole(), Parts: parts}
}

// refClearClientIDs is remove_client_function_call_id, on a copy when
// there is an id to clear.
func refClearClientIDs(c *v1.Content) *v1.Content {
	if !slices.ContainsFunc(c.GetParts(), func(p *v1.Part) bool {
		return strings.HasPrefix(p.GetFunctionCall().GetId(), "adk-") ||
			strings.HasPrefix(p.GetFunctionResponse().GetId(), "adk-")
	}) {
		return c
	}
	c = proto.CloneOf(c)
	for _, p := range c.GetParts() {
		if fc := p.GetFunctionCall(); fc != nil && strings.HasPrefix(fc.GetId(), "adk-") {
			fc.Id = ""
		}
		if fr := p.GetFunctionResponse(); fr != nil && strings.HasPrefix(fr.GetId(), "adk-") {
			fr.Id = ""
		}
	}
	return c
}
