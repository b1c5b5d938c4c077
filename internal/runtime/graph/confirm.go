package graph

import (
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"
)

// confirmationPrefix starts the interrupt id of a node's confirmation
// question, ADK's confirmation_interrupt_id.
const confirmationPrefix = "wf_tool_confirmation:"

// toolConfirmationSchema is the JSON schema of ADK's ToolConfirmation, the
// answer a confirmation question takes.
var toolConfirmationSchema = mustValue(`{"additionalProperties": false,
	"description": "Represents a tool confirmation configuration.",
	"properties": {"hint": {"default": "", "title": "Hint", "type": "string"},
		"confirmed": {"default": false, "title": "Confirmed", "type": "boolean"},
		"payload": {"anyOf": [{}, {"type": "null"}], "default": null, "title": "Payload"}},
	"title": "ToolConfirmation", "type": "object"}`)

// rejected is a rejected node's output, as ADK's.
var rejected = mustValue(`{"error": "This tool call is rejected."}`)

func mustValue(s string) *structpb.Value {
	var v structpb.Value
	if err := protojson.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	return &v
}

// confirmation is the gate of a node that requires confirmation, as ADK's
// FunctionNode: unanswered, the node asks (a RequestInput whose payload
// names the node and its arguments); rejected, the node outputs ADK's
// rejection without running; confirmed, it runs (ok).
func (r *run) confirmation(n *Node, path string, t trigger) (res *Result, ok bool) {
	id := confirmationPrefix + path
	answer, answered := t.resume.GetFields()[id]
	if !answered {
		args := map[string]*structpb.Value{"node_input": t.in.value}
		if t.in.value == nil {
			args["node_input"] = structpb.NewNullValue()
		}
		payload := structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{
			"tool_name": structpb.NewStringValue(n.Name),
			"args":      structpb.NewStructValue(&structpb.Struct{Fields: args}),
		}})
		return &Result{RequestInputs: []*RequestInput{{InterruptID: id, Payload: payload, ResponseSchema: toolConfirmationSchema,
			Message: "Please approve or reject the tool call " + n.Name + "()."}}}, false
	}
	if !answer.GetStructValue().GetFields()["confirmed"].GetBoolValue() {
		return &Result{Output: rejected}, false
	}
	return nil, true
}
