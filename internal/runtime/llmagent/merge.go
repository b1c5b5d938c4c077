package llmagent

import (
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// mergeResponses merges the response events of parallel calls into one
// (ADK's merge_parallel_function_response_events): parts in call order,
// actions deep-merged, identity and timestamp from the first.
func mergeResponses(events []*v1.Event) *v1.Event {
	switch len(events) {
	case 0:
		return nil
	case 1:
		return events[0]
	}
	first := events[0]
	merged := &v1.Event{
		Id:           runtime.NewEventID(),
		InvocationId: first.InvocationId,
		Author:       first.Author,
		Branch:       first.Branch,
		Timestamp:    first.Timestamp,
		Content:      &v1.Content{Role: "user"},
		Actions:      &v1.EventActions{},
		NodeInfo:     first.NodeInfo,
		// ADK 2.x scopes a delegated task's events.
		IsolationScope: first.IsolationScope,
	}
	for _, ev := range events {
		merged.Content.Parts = append(merged.Content.Parts, ev.Content.GetParts()...)
		mergeActions(merged.Actions, ev.Actions)
	}
	return merged
}

// mergeActions deep-merges src into dst; later values win.
func mergeActions(dst, src *v1.EventActions) {
	if src == nil {
		return
	}
	dst.SkipSummarization = dst.SkipSummarization || src.SkipSummarization
	dst.Escalate = dst.Escalate || src.Escalate
	dst.EndOfAgent = dst.EndOfAgent || src.EndOfAgent
	if src.TransferToAgent != "" {
		dst.TransferToAgent = src.TransferToAgent
	}
	if src.RewindBeforeInvocationId != "" {
		dst.RewindBeforeInvocationId = src.RewindBeforeInvocationId
	}
	if src.Compaction != nil {
		dst.Compaction = src.Compaction
	}
	dst.StateDelta = mergeStruct(dst.StateDelta, src.StateDelta)
	dst.AgentState = mergeStruct(dst.AgentState, src.AgentState)
	for k, v := range src.ArtifactDelta {
		if dst.ArtifactDelta == nil {
			dst.ArtifactDelta = map[string]int64{}
		}
		dst.ArtifactDelta[k] = v
	}
	for k, v := range src.RequestedAuthConfigs {
		if dst.RequestedAuthConfigs == nil {
			dst.RequestedAuthConfigs = map[string]*structpb.Struct{}
		}
		dst.RequestedAuthConfigs[k] = v
	}
	for k, v := range src.RequestedToolConfirmations {
		if dst.RequestedToolConfirmations == nil {
			dst.RequestedToolConfirmations = map[string]*v1.ToolConfirmation{}
		}
		dst.RequestedToolConfirmations[k] = v
	}
}

// mergeStruct deep-merges src into dst (nested objects merged key by key)
// and returns the result.
func mergeStruct(dst, src *structpb.Struct) *structpb.Struct {
	if len(src.GetFields()) == 0 {
		return dst
	}
	if dst == nil {
		dst = &structpb.Struct{}
	}
	if dst.Fields == nil {
		dst.Fields = make(map[string]*structpb.Value, len(src.Fields))
	}
	for k, v := range src.Fields {
		if sv, dv := v.GetStructValue(), dst.Fields[k].GetStructValue(); sv != nil && dv != nil {
			dst.Fields[k] = structpb.NewStructValue(mergeStruct(&structpb.Struct{Fields: copyFields(dv.Fields)}, sv))
			continue
		}
		dst.Fields[k] = v
	}
	return dst
}

func copyFields(m map[string]*structpb.Value) map[string]*structpb.Value {
	out := make(map[string]*structpb.Value, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
