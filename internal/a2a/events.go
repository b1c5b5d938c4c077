package a2a

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

// session names the session an invocation runs in.
type session struct {
	appName, userID, sessionID string
	// adk2 is set in an app that behaves as ADK 2.x.
	adk2 bool
}

// metadata is ADK's _get_context_metadata: the event's origin under "adk_"
// keys, and its optional fields when set.
func (s session) metadata(ev *v1.Event) map[string]any {
	m := map[string]any{
		metaPrefix + "app_name":      s.appName,
		metaPrefix + "user_id":       s.userID,
		metaPrefix + "session_id":    s.sessionID,
		metaPrefix + "invocation_id": ev.GetInvocationId(),
		metaPrefix + "author":        ev.GetAuthor(),
		metaPrefix + "event_id":      ev.GetId(),
	}
	if ev.GetBranch() != "" {
		m[metaPrefix+"branch"] = ev.GetBranch()
	}
	if ev.GetGroundingMetadata() != nil {
		m[metaPrefix+"grounding_metadata"] = ev.GetGroundingMetadata().AsMap()
	}
	if ev.GetCustomMetadata() != nil {
		// ADK writes a dict as text: str() in 1.x, json.dumps() in 2.x.
		if s.adk2 {
			m[metaPrefix+"custom_metadata"] = pyfmt.JSONDumpsASCII(structpb.NewStructValue(ev.GetCustomMetadata()))
		} else {
			m[metaPrefix+"custom_metadata"] = pyfmt.StructRepr(ev.GetCustomMetadata())
		}
	}
	if u := ev.GetUsageMetadata(); u != nil {
		m[metaPrefix+"usage_metadata"] = protoMap(u)
	}
	if ev.GetErrorCode() != "" {
		m[metaPrefix+"error_code"] = ev.GetErrorCode()
	}
	if a := ev.GetActions(); a != nil {
		m[metaPrefix+"actions"] = actionsMap(a)
	}
	return m
}

// actionsMap is ADK's dump of EventActions, whose four maps are always
// written, empty or not.
func actionsMap(a *v1.EventActions) map[string]any {
	m := protoMap(a)
	if m == nil {
		m = map[string]any{}
	}
	for _, k := range []string{"stateDelta", "artifactDelta", "requestedAuthConfigs", "requestedToolConfirmations"} {
		if _, ok := m[k]; !ok {
			m[k] = map[string]any{}
		}
	}
	return m
}

// protoMap is a message as a JSON object with camelCase names, the form
// of ADK's model_dump(by_alias=True, exclude_none=True); nil if it does not
// encode.
func protoMap(m proto.Message) map[string]any {
	b, err := protojson.Marshal(m)
	if err != nil {
		return nil
	}
	var out map[string]any
	if json.Unmarshal(b, &out) != nil {
		return nil
	}
	return out
}

// toA2AEvents converts one event as ADK's convert_event_to_a2a_events does:
// a failed status for an event with an error code, then a status update
// carrying the event's parts, input_required for a long-running call,
// auth_required for a long-running credential request.
func toA2AEvents(s session, info a2a.TaskInfoProvider, ev *v1.Event, now time.Time) []a2a.Event {
	var out []a2a.Event
	if ev.GetErrorCode() != "" {
		out = append(out, errorStatus(s, info, ev, now))
	}
	if msg := toA2AMessage(ev, s.adk2); msg != nil {
		out = append(out, messageStatus(s, info, ev, msg, now))
	}
	return out
}

func errorStatus(s session, info a2a.TaskInfoProvider, ev *v1.Event, now time.Time) *a2a.TaskStatusUpdateEvent {
	text := ev.GetErrorMessage()
	if text == "" {
		text = defaultErrorMessage
	}
	msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.TextPart{Text: text})
	msg.Metadata = map[string]any{metaPrefix + "error_code": ev.GetErrorCode()}
	u := a2a.NewStatusUpdateEvent(info, a2a.TaskStateFailed, msg)
	u.Status.Timestamp = &now
	u.Metadata = s.metadata(ev)
	return u
}

func messageStatus(s session, info a2a.TaskInfoProvider, ev *v1.Event, msg *a2a.Message, now time.Time) *a2a.TaskStatusUpdateEvent {
	state := a2a.TaskStateWorking
	for _, p := range msg.Parts {
		dp, ok := p.(a2a.DataPart)
		if !ok || dp.Metadata[metaType] != typeFunctionCall || dp.Metadata[metaLongRunning] != true {
			continue
		}
		if dp.Data["name"] == requestEUCFunction {
			state = a2a.TaskStateAuthRequired
			break
		}
		state = a2a.TaskStateInputRequired
	}
	u := a2a.NewStatusUpdateEvent(info, state, msg)
	u.Status.Timestamp = &now
	u.Metadata = s.metadata(ev)
	return u
}

// toA2AMessage is ADK's convert_event_to_a2a_message: the event's parts,
// function calls the event names long-running marked so; nil without
// parts. The role is user for the user's events, agent otherwise. adk2
// carries each part's metadata as ADK 2.13 does.
func toA2AMessage(ev *v1.Event, adk2 bool) *a2a.Message {
	parts := ev.GetContent().GetParts()
	if len(parts) == 0 {
		return nil
	}
	role := a2a.MessageRoleAgent
	if ev.GetAuthor() == "user" {
		role = a2a.MessageRoleUser
	}
	out := make(a2a.ContentParts, 0, len(parts))
	for _, p := range parts {
		ap := PartToA2A(p, adk2)
		if dp, ok := ap.(a2a.DataPart); ok && dp.Metadata[metaType] == typeFunctionCall {
			if id, _ := dp.Data["id"].(string); id != "" && slices.Contains(ev.GetLongRunningToolIds(), id) {
				dp.Metadata[metaLongRunning] = true
			}
		}
		out = append(out, ap)
	}
	return a2a.NewMessage(role, out...)
}
