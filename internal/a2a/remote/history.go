package remote

import (
	"github.com/a2aproject/a2a-go/a2a"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	a2aconv "github.com/agentsvc/agentsvc/internal/a2a"
	"github.com/agentsvc/agentsvc/internal/runtime/contents"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
)

var (
	a2aPartFromA2A = a2aconv.PartFromA2A
	longRunningKey = a2aconv.LongRunningKey
)

// credentialKeys are ADK's _CREDENTIAL_PAYLOAD_KEYS.
var credentialKeys = []string{"auth_scheme", "authScheme", "exchanged_auth_credential", "exchangedAuthCredential",
	"raw_auth_credential", "rawAuthCredential"}

// isRemoteResponse reports an answer of this agent from the remote side.
func (a *Agent) isRemoteResponse(ev *v1.Event) bool {
	if ev.GetAuthor() != a.cfg.Name {
		return false
	}
	v, ok := ev.GetCustomMetadata().GetFields()[metaPrefix+"response"]
	return ok && truthy(v.AsInterface())
}

func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	case map[string]any:
		return len(v) > 0
	case []any:
		return len(v) > 0
	case float64:
		return v != 0
	}
	return true
}

// messageParts is ADK's _construct_message_parts_from_session: the parts
// of the events since this agent's last remote answer, other agents'
// replies presented as context, the user's parts marked is_user_input,
// credential responses left out; and the A2A context id of that answer.
//
// In ADK 2.x, a function response that answers no call of this agent is
// history of someone else's call, which the remote side could not resume:
// it travels as the text "Tool <name> returned: <response as JSON>".
func (a *Agent) messageParts(events []*v1.Event, adk2 bool) ([]a2a.Part, string) {
	start, contextID := 0, ""
	for i := len(events) - 1; i >= 0; i-- {
		if a.isRemoteResponse(events[i]) {
			if v, ok := events[i].GetCustomMetadata().GetFields()[metaPrefix+"context_id"]; ok {
				contextID = v.GetStringValue()
			}
			start = i + 1
			break
		}
	}
	var ownCalls map[string]bool
	if adk2 {
		ownCalls = a.callIDs(events)
	}
	var out []a2a.Part
	for _, ev := range events[start:] {
		c := ev.GetContent()
		if ev.GetAuthor() != a.cfg.Name && ev.GetAuthor() != "user" {
			presented, ok := contents.PresentOtherAgent(ev.GetAuthor(), c)
			if !ok {
				continue
			}
			c = presented
		}
		for _, p := range c.GetParts() {
			if fr := p.GetFunctionResponse(); fr != nil && isCredentialResponse(fr) {
				continue
			}
			ap := a2aconv.PartToA2A(p, adk2)
			if fr := p.GetFunctionResponse(); adk2 && fr != nil && !ownCalls[fr.GetId()] {
				ap = a2a.TextPart{Text: "Tool " + fr.GetName() + " returned: " + responseJSON(fr)}
			}
			if ev.GetAuthor() == "user" {
				ap = markUserInput(ap)
			}
			out = append(out, ap)
		}
	}
	return out, contextID
}

// callIDs are the ids of the function calls this agent's events made.
func (a *Agent) callIDs(events []*v1.Event) map[string]bool {
	ids := map[string]bool{}
	for _, ev := range events {
		if ev.GetAuthor() != a.cfg.Name {
			continue
		}
		for _, p := range ev.GetContent().GetParts() {
			if fc := p.GetFunctionCall(); fc != nil && fc.GetId() != "" {
				ids[fc.GetId()] = true
			}
		}
	}
	return ids
}

// responseJSON is a function response's payload as Python's json.dumps
// writes it.
func responseJSON(fr *v1.FunctionResponse) string {
	if fr.GetResponse() == nil {
		return "null"
	}
	return pyfmt.JSONDumpsASCII(structpb.NewStructValue(fr.GetResponse()))
}

// markUserInput sets ADK's is_user_input on a part of the user's.
func markUserInput(p a2a.Part) a2a.Part {
	return a2aconv.WithMetadata(p, map[string]any{"is_user_input": true})
}

// isCredentialResponse is ADK's _is_credential_function_response without
// the matched calls: a credential request's response, or a payload that
// carries an auth config.
func isCredentialResponse(fr *v1.FunctionResponse) bool {
	if fr.GetName() == "adk_request_credential" {
		return true
	}
	payload := fr.GetResponse().AsMap()
	if r, ok := payload["result"].(map[string]any); ok && len(payload) == 1 {
		payload = r
	}
	for _, k := range credentialKeys {
		if _, ok := payload[k]; ok {
			return true
		}
	}
	return false
}
