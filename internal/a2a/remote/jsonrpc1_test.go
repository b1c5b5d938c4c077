package remote

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/google/go-cmp/cmp"
)

// TestJSONRPC1SendMessage: a message to an A2A 1.0 interface goes as
// a2a-sdk 1.x sends it (SendMessage, A2A-Version 1.0, parts without a
// kind, ROLE_USER) and the 1.0 task answered reads as its 0.3 form.
func TestJSONRPC1SendMessage(t *testing.T) {
	t.Parallel()
	var gotBody map[string]any
	var gotVersion string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotVersion = r.Header.Get("A2A-Version")
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &gotBody)
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t1","contextId":"c1",
			"status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"messageId":"m2","role":"ROLE_AGENT","parts":[{"text":"which city?"}]}},
			"artifacts":[{"artifactId":"a1","parts":[{"text":"Rain."},{"data":{"k":1},"metadata":{"adk_type":"x"}},{"url":"https://h/f.png","mediaType":"image/png"}]}]}}}`)
	}))
	defer ts.Close()
	c := &jsonRPC1{client: ts.Client(), url: ts.URL}
	msg := &a2a.Message{ID: "m1", ContextID: "c1", Role: a2a.MessageRoleUser, Parts: a2a.ContentParts{
		a2a.TextPart{Text: "Forecast?"}, a2a.DataPart{Data: map[string]any{"q": "x"}},
		a2a.FilePart{File: a2a.FileBytes{FileMeta: a2a.FileMeta{MimeType: "text/plain", Name: "n.txt"}, Bytes: "aGk="}}}}
	res, err := c.SendMessage(t.Context(), &a2a.MessageSendParams{Message: msg})
	if err != nil {
		t.Fatal(err)
	}
	if gotVersion != "1.0" || gotBody["method"] != "SendMessage" {
		t.Fatalf("version %q, body %v", gotVersion, gotBody)
	}
	wantMsg := map[string]any{"messageId": "m1", "contextId": "c1", "role": "ROLE_USER", "parts": []any{
		map[string]any{"text": "Forecast?"}, map[string]any{"data": map[string]any{"q": "x"}},
		map[string]any{"raw": "aGk=", "mediaType": "text/plain", "filename": "n.txt"}}}
	if d := cmp.Diff(wantMsg, gotBody["params"].(map[string]any)["message"]); d != "" {
		t.Fatalf("message (-want +got):\n%s", d)
	}
	task, ok := res.(*a2a.Task)
	if !ok || task.ID != "t1" || task.Status.State != a2a.TaskStateInputRequired || task.Status.Message.Role != a2a.MessageRoleAgent {
		t.Fatalf("result %#v", res)
	}
	parts := task.Artifacts[0].Parts
	if len(parts) != 3 || parts[0].(a2a.TextPart).Text != "Rain." || parts[1].(a2a.DataPart).Meta()["adk_type"] != "x" ||
		parts[2].(a2a.FilePart).File.(a2a.FileURI).URI != "https://h/f.png" {
		t.Fatalf("artifact parts %#v", parts)
	}
}

// TestJSONRPC1Error: a JSON-RPC error is the request's failure.
func TestJSONRPC1Error(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":"1","error":{"code":-32602,"message":"bad params"}}`)
	}))
	defer ts.Close()
	c := &jsonRPC1{client: ts.Client(), url: ts.URL}
	_, err := c.SendMessage(t.Context(), &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "x"})})
	if err == nil || !strings.Contains(err.Error(), "bad params") {
		t.Fatalf("err = %v", err)
	}
}
