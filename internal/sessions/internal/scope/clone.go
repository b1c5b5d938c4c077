package scope

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// CloneEvent returns a deep copy of ev equal to proto.Clone's, field for
// field (nil and empty alike), at a fraction of its cost: the messages every
// turn stores (the event, its content and parts, calls and responses,
// actions, and the JSON values inside them) are copied field by field, the
// rare ones through proto.Clone. A message carrying unknown fields is
// copied by proto.Clone whole. TestCloneEventFields fails when a field is
// added to one of the messages copied by hand.
func CloneEvent(ev *v1.Event) *v1.Event {
	if ev == nil {
		return nil
	}
	if hasUnknown(ev) {
		return proto.Clone(ev).(*v1.Event)
	}
	// The event and its actions come in one allocation: stored events
	// live long, and fewer objects are less for the collector to mark.
	var out *v1.Event
	var actions *v1.EventActions
	if ev.Actions != nil {
		block := &eventBlock{}
		out, actions = &block.event, &block.actions
	} else {
		out = new(v1.Event)
	}
	*out = v1.Event{
		Content:             cloneContent(ev.Content),
		Partial:             cloneBool(ev.Partial),
		TurnComplete:        ev.TurnComplete,
		FinishReason:        ev.FinishReason,
		ErrorCode:           ev.ErrorCode,
		ErrorMessage:        ev.ErrorMessage,
		Interrupted:         ev.Interrupted,
		CustomMetadata:      cloneStruct(ev.CustomMetadata),
		UsageMetadata:       cloneMessage(ev.UsageMetadata),
		GroundingMetadata:   cloneStruct(ev.GroundingMetadata),
		ModelVersion:        ev.ModelVersion,
		AvgLogprobs:         ev.AvgLogprobs,
		CitationMetadata:    cloneStruct(ev.CitationMetadata),
		InteractionId:       ev.InteractionId,
		InputTranscription:  cloneMessage(ev.InputTranscription),
		OutputTranscription: cloneMessage(ev.OutputTranscription),
		CacheMetadata:       cloneMessage(ev.CacheMetadata),
		InvocationId:        ev.InvocationId,
		Author:              ev.Author,
		Actions:             cloneActions(ev.Actions, actions),
		LongRunningToolIds:  cloneSlice(ev.LongRunningToolIds),
		Branch:              ev.Branch,
		Id:                  ev.Id,
		Timestamp:           ev.Timestamp,
		RequestId:           ev.RequestId,
		NodeInfo:            cloneMessage(ev.NodeInfo),
		Output:              copyValue(ev.Output),
		IsolationScope:      ev.IsolationScope,
	}
	return out
}

// eventBlock holds an event and its actions.
type eventBlock struct {
	event   v1.Event
	actions v1.EventActions
}

// partBlock holds the content of a single part: the content, its list and
// the part.
type partBlock struct {
	content v1.Content
	list    [1]*v1.Part
	part    v1.Part
}

func cloneContent(c *v1.Content) *v1.Content {
	if c == nil {
		return nil
	}
	if hasUnknown(c) {
		return proto.Clone(c).(*v1.Content)
	}
	if len(c.Parts) == 1 && c.Parts[0] != nil && !hasUnknown(c.Parts[0]) {
		// The usual content, one part, in one allocation.
		b := &partBlock{}
		b.content.Role = c.Role
		copyPart(&b.part, c.Parts[0])
		b.list[0] = &b.part
		b.content.Parts = b.list[:]
		return &b.content
	}
	out := &v1.Content{Role: c.Role}
	if len(c.Parts) > 0 {
		out.Parts = make([]*v1.Part, len(c.Parts))
		for i, p := range c.Parts {
			out.Parts[i] = clonePart(p)
		}
	}
	return out
}

func clonePart(p *v1.Part) *v1.Part {
	if p == nil {
		// proto.Clone turns a nil element of a list into an empty message.
		return &v1.Part{}
	}
	if hasUnknown(p) {
		return proto.Clone(p).(*v1.Part)
	}
	out := &v1.Part{}
	copyPart(out, p)
	return out
}

// copyPart sets dst's fields to deep copies of p's; dst is new.
func copyPart(dst, p *v1.Part) {
	*dst = v1.Part{
		Text:                p.Text,
		Thought:             p.Thought,
		ThoughtSignature:    cloneSlice(p.ThoughtSignature),
		InlineData:          cloneMessage(p.InlineData),
		FileData:            cloneMessage(p.FileData),
		FunctionCall:        cloneCall(p.FunctionCall),
		FunctionResponse:    cloneResponse(p.FunctionResponse),
		ExecutableCode:      cloneMessage(p.ExecutableCode),
		CodeExecutionResult: cloneMessage(p.CodeExecutionResult),
		PartMetadata:        cloneStruct(p.PartMetadata),
	}
}

func cloneCall(fc *v1.FunctionCall) *v1.FunctionCall {
	if fc == nil {
		return nil
	}
	if hasUnknown(fc) {
		return proto.Clone(fc).(*v1.FunctionCall)
	}
	return &v1.FunctionCall{Id: fc.Id, Name: fc.Name, Args: cloneStruct(fc.Args), KeyOrder: cloneSlice(fc.KeyOrder)}
}

func cloneResponse(fr *v1.FunctionResponse) *v1.FunctionResponse {
	if fr == nil {
		return nil
	}
	if hasUnknown(fr) {
		return proto.Clone(fr).(*v1.FunctionResponse)
	}
	return &v1.FunctionResponse{Id: fr.Id, Name: fr.Name, Response: cloneStruct(fr.Response)}
}

// cloneActions copies a into out, new, and returns it.
func cloneActions(a, out *v1.EventActions) *v1.EventActions {
	if a == nil {
		return nil
	}
	if hasUnknown(a) {
		return proto.Clone(a).(*v1.EventActions)
	}
	*out = v1.EventActions{
		SkipSummarization:        a.SkipSummarization,
		StateDelta:               cloneStruct(a.StateDelta),
		TransferToAgent:          a.TransferToAgent,
		Escalate:                 a.Escalate,
		Compaction:               cloneMessage(a.Compaction),
		EndOfAgent:               a.EndOfAgent,
		AgentState:               cloneStruct(a.AgentState),
		RewindBeforeInvocationId: a.RewindBeforeInvocationId,
		Route:                    copyValue(a.Route),
	}
	if len(a.ArtifactDelta) > 0 {
		out.ArtifactDelta = make(map[string]int64, len(a.ArtifactDelta))
		for k, v := range a.ArtifactDelta {
			out.ArtifactDelta[k] = v
		}
	}
	if len(a.RequestedAuthConfigs) > 0 {
		out.RequestedAuthConfigs = make(map[string]*structpb.Struct, len(a.RequestedAuthConfigs))
		for k, v := range a.RequestedAuthConfigs {
			if v == nil {
				v = &structpb.Struct{}
			}
			out.RequestedAuthConfigs[k] = cloneStruct(v)
		}
	}
	if len(a.RequestedToolConfirmations) > 0 {
		out.RequestedToolConfirmations = make(map[string]*v1.ToolConfirmation, len(a.RequestedToolConfirmations))
		for k, v := range a.RequestedToolConfirmations {
			if v == nil {
				v = &v1.ToolConfirmation{}
			}
			out.RequestedToolConfirmations[k] = cloneMessage(v)
		}
	}
	return out
}

// cloneStruct copies a JSON object; [structpb.Struct] and its values are
// well-known types whose fields never change.
func cloneStruct(s *structpb.Struct) *structpb.Struct {
	if s == nil {
		return nil
	}
	if hasUnknown(s) {
		return proto.Clone(s).(*structpb.Struct)
	}
	out := &structpb.Struct{}
	if len(s.Fields) > 0 {
		out.Fields = make(map[string]*structpb.Value, len(s.Fields))
		for k, v := range s.Fields {
			if v == nil {
				out.Fields[k] = &structpb.Value{}
				continue
			}
			out.Fields[k] = copyValue(v)
		}
	}
	return out
}

func copyValue(v *structpb.Value) *structpb.Value {
	if v == nil {
		return nil
	}
	if hasUnknown(v) {
		return proto.Clone(v).(*structpb.Value)
	}
	switch k := v.Kind.(type) {
	case nil:
		return &structpb.Value{}
	case *structpb.Value_NullValue:
		return &structpb.Value{Kind: &structpb.Value_NullValue{NullValue: k.NullValue}}
	case *structpb.Value_NumberValue:
		return &structpb.Value{Kind: &structpb.Value_NumberValue{NumberValue: k.NumberValue}}
	case *structpb.Value_StringValue:
		return &structpb.Value{Kind: &structpb.Value_StringValue{StringValue: k.StringValue}}
	case *structpb.Value_BoolValue:
		return &structpb.Value{Kind: &structpb.Value_BoolValue{BoolValue: k.BoolValue}}
	case *structpb.Value_StructValue:
		if k.StructValue != nil {
			return &structpb.Value{Kind: &structpb.Value_StructValue{StructValue: cloneStruct(k.StructValue)}}
		}
	case *structpb.Value_ListValue:
		if l := k.ListValue; l != nil && !hasUnknown(l) {
			out := &structpb.ListValue{}
			if len(l.Values) > 0 {
				out.Values = make([]*structpb.Value, len(l.Values))
				for i, e := range l.Values {
					if e == nil {
						e = &structpb.Value{}
					}
					out.Values[i] = copyValue(e)
				}
			}
			return &structpb.Value{Kind: &structpb.Value_ListValue{ListValue: out}}
		}
	}
	// A kind holding a nil message: as proto.Clone has it.
	return proto.Clone(v).(*structpb.Value)
}

// cloneMessage copies one of the messages events rarely carry.
func cloneMessage[M proto.Message](m M) M {
	if !m.ProtoReflect().IsValid() {
		return m
	}
	return proto.Clone(m).(M)
}

func cloneBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}

// cloneSlice copies a list, nil when it is empty as in proto.Clone.
func cloneSlice[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return append(S(nil), s...)
}

func hasUnknown(m proto.Message) bool {
	return len(m.ProtoReflect().GetUnknown()) > 0
}
