package a2a

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// TestRequestPartMetadata: an incoming message's part metadata, all of it,
// is the user's parts' part_metadata in a 2.x app, as ADK 2.13 keeps it;
// a 1.x app drops it as ADK 1.39.1 does.
func TestRequestPartMetadata(t *testing.T) {
	t.Parallel()
	msg := a2a.NewMessage(a2a.MessageRoleUser,
		a2a.TextPart{Text: "hi", Metadata: map[string]any{"is_user_input": true, "x": map[string]any{"n": 1.0}}},
		a2a.DataPart{Data: map[string]any{"name": "f", "response": map[string]any{"a": 1.0}},
			Metadata: map[string]any{metaType: typeFunctionResp, "is_user_input": true}},
		a2a.TextPart{Text: "plain"},
	)
	for _, tc := range []struct {
		adk2 bool
		want string
	}{
		{true, `{"role":"user","parts":[` +
			`{"text":"hi","partMetadata":{"is_user_input":true,"x":{"n":1}}},` +
			`{"functionResponse":{"name":"f","response":{"a":1}},"partMetadata":{"adk_type":"function_response","is_user_input":true}},` +
			`{"text":"plain"}]}`},
		{false, `{"role":"user","parts":[{"text":"hi"},{"functionResponse":{"name":"f","response":{"a":1}}},{"text":"plain"}]}`},
	} {
		e := &executor{app: "app", invoker: hangingInvoker{}, adk2: tc.adk2}
		req, err := e.request(t.Context(), &a2asrv.RequestContext{Message: msg, ContextID: "c"})
		if err != nil {
			t.Fatal(err)
		}
		got, err := protojson.Marshal(req.NewMessage)
		if err != nil {
			t.Fatal(err)
		}
		if compact(t, got) != tc.want {
			t.Errorf("adk2=%v: user content\n%s\nwant\n%s", tc.adk2, compact(t, got), tc.want)
		}
	}
}

// TestPartToA2AMetadata: a 2.x app's parts carry their part_metadata out
// over A2A, over ADK's own keys; a 1.x app's do not.
func TestPartToA2AMetadata(t *testing.T) {
	t.Parallel()
	meta, err := structpb.NewStruct(map[string]any{"is_user_input": true, metaType: "mine"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		part *v1.Part
		adk2 bool
		want map[string]any
	}{
		{"text 2.x", &v1.Part{Text: "hi", Thought: true, PartMetadata: meta}, true,
			map[string]any{metaThought: true, "is_user_input": true, metaType: "mine"}},
		{"call 2.x", &v1.Part{FunctionCall: &v1.FunctionCall{Name: "f"}, PartMetadata: meta}, true,
			map[string]any{metaType: "mine", "is_user_input": true}},
		{"file 2.x", &v1.Part{FileData: &v1.FileData{FileUri: "gs://b/o"}, PartMetadata: meta}, true,
			map[string]any{metaType: "mine", "is_user_input": true}},
		{"text 1.x", &v1.Part{Text: "hi", PartMetadata: meta}, false, nil},
		{"no metadata 2.x", &v1.Part{Text: "hi"}, true, nil},
	} {
		var got map[string]any
		switch p := PartToA2A(tc.part, tc.adk2).(type) {
		case a2a.TextPart:
			got = p.Metadata
		case a2a.DataPart:
			got = p.Metadata
		case a2a.FilePart:
			got = p.Metadata
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: metadata %v, want %v", tc.name, got, tc.want)
			continue
		}
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: metadata %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

// compact is b with protojson's unstable spacing removed.
func compact(t *testing.T, b []byte) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
