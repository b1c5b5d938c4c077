package tools_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

// FuzzClientResult answers a client tool call with a fuzzed result: a JSON
// response, an error text and JSON actions. Invariants: no panic; the run
// ends; every function response stored is an object (a non-object result
// wrapped as {"result": value}), and the session stays readable.
func FuzzClientResult(f *testing.F) {
	for _, seed := range []struct {
		response, errText, actions string
		longRunning                bool
	}{
		{`"sunny"`, "", "", false},
		{`{"temp": 21}`, "", "", false},
		{`3`, "", "", false},
		{`["a", null, {"b": [true]}]`, "", "", false},
		{`null`, "", "", true},
		{"", "no such city", "", false},
		{`"pending"`, "", "", true},
		{`true`, "", `{"stateDelta": {"mailed": true, "app:n": 1, "temp:x": null}, "skipSummarization": true}`, false},
		{`{}`, "", `{"escalate": true, "transferToAgent": "nobody"}`, false},
		{`{}`, "", `{"requestedAuthConfigs": {"x": {"credentialKey": "k"}}}`, false},
		{`{}`, "", `{"requestedAuthConfigs": {"a": {}, "b": {"credentialKey": 1}}}`, false},
	} {
		f.Add([]byte(seed.response), seed.errText, []byte(seed.actions), seed.longRunning)
	}
	f.Fuzz(func(t *testing.T, response []byte, errText string, actions []byte, longRunning bool) {
		res := &tools.ClientResult{Error: errText}
		if len(response) > 0 {
			res.Response = &structpb.Value{}
			if protojson.Unmarshal(response, res.Response) != nil {
				return
			}
		}
		if len(actions) > 0 {
			res.Actions = &v1.EventActions{}
			if protojson.Unmarshal(actions, res.Actions) != nil {
				return
			}
		}
		ch := channelFunc(func(context.Context, *tools.ClientCall) (*tools.ClientResult, error) { return res, nil })
		tool := clientTool(t, tools.ClientDeclaration{Name: "t", LongRunning: longRunning}, ch, 0)
		events, h, sid, _ := remoteRun(t, t.Context(), []string{"t"}, client{tool}, map[string]any{"city": "Paris"},
			et.Call("t", `{"city": "Paris"}`), et.Text("ok"), et.Text("ok"))
		for _, ev := range append(events, h.Session(t, sid).GetEvents()...) {
			for _, p := range ev.GetContent().GetParts() {
				if fr := p.GetFunctionResponse(); fr != nil && fr.Response == nil {
					t.Fatalf("function response %v has no object", fr)
				}
			}
		}
	})
}
