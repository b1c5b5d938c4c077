package tools

import (
	"testing"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
)

// TestModelJSON: the arguments come out as pydantic 2 dumps the model of
// the schema (printed by the pydantic of google-adk 1.39.1 for the same
// model: fields text, weight: float, count = 3, note = None, tags:
// list[Inner(b, a)]).
func TestModelJSON(t *testing.T) {
	schema := et.Struct(`{"type":"object","properties":{
		"text":{"type":"string"},"weight":{"type":"number"},"count":{"type":"integer","default":3},
		"note":{"type":"string","default":null},
		"tags":{"type":"array","items":{"type":"object","properties":{"b":{"type":"integer"},"a":{"type":"string"}}}}}}`)
	order := &KeyOrder{Keys: []string{"text", "weight", "count", "note", "tags"},
		Nested: map[string]*KeyOrder{"tags": {Keys: []string{"b", "a"}}}}
	args := et.Struct(`{"weight": 2, "text": "héllo <b>", "extra": 1, "tags": [{"a": "x", "b": 1}]}`)
	want := `{"text":"héllo <b>","weight":2.0,"count":3,"tags":[{"b":1,"a":"x"}]}`
	if got := modelJSON(schema, order, args); got != want {
		t.Errorf("modelJSON = %s\nwant        %s", got, want)
	}
}
