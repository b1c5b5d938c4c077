package llmagent

import (
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// saveOutput stores the agent's final answer under output_key in the event's
// state delta: the non-thought text joined, or with an output schema the
// parsed JSON value.
func (a *Agent) saveOutput(ev *v1.Event) {
	if a.cfg.OutputKey == "" || a.cfg.Mode == ModeTask || ev.Author != a.cfg.Name || !runtime.IsFinalResponse(ev) {
		return
	}
	if len(ev.GetContent().GetParts()) == 0 {
		return
	}
	text := AnswerText(ev.GetContent())
	value := structpb.NewStringValue(text)
	if a.cfg.OutputSchema != nil {
		if strings.TrimSpace(text) == "" {
			return
		}
		parsed := &structpb.Value{}
		if err := protojson.Unmarshal([]byte(text), parsed); err != nil {
			return
		}
		value = parsed
	}
	if ev.Actions == nil {
		ev.Actions = &v1.EventActions{}
	}
	if ev.Actions.StateDelta == nil {
		ev.Actions.StateDelta = &structpb.Struct{Fields: map[string]*structpb.Value{}}
	}
	ev.Actions.StateDelta.Fields[a.cfg.OutputKey] = value
}

// AnswerText is the text of an answer as ADK reads it for output_key and
// workflow outputs: its non-thought text parts joined.
func AnswerText(c *v1.Content) string {
	var b strings.Builder
	for _, p := range c.GetParts() {
		if p.Text != "" && !p.Thought {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}
