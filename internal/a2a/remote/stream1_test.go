package remote

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
)

// TestSSEEvents: server-sent events read as the W3C has them, within the
// bounds of a line and an event.
func TestSSEEvents(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, body string
		want       []string
		wantErr    string
	}{
		{name: "data", body: "data: {\"a\":1}\n\ndata:{\"b\":2}\r\n\r\n", want: []string{`message {"a":1}`, `message {"b":2}`}},
		{name: "lines joined", body: "data: a\ndata:  b\n\n", want: []string{"message a\n b"}},
		{name: "comments, ids and empty data skipped", body: ": ping\n\nid: 1\nretry: 5\n\ndata:\n\ndata: x\n\n", want: []string{"message x"}},
		{name: "named", body: "event: error\ndata: oops\n\ndata: next\n\n", want: []string{"error oops", "message next"}},
		{name: "cut short", body: "data: x\n\ndata: y", want: []string{"message x"}},
		{name: "line too long", body: "data: x\n\ndata: " + strings.Repeat("y", 40) + "\n\n", want: []string{"message x"},
			wantErr: "line larger than the limit"},
		{name: "event too long", body: strings.Repeat("data: 0123456789\n", 4) + "\n", wantErr: "event larger than the limit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			var gotErr error
			for ev, err := range sseEvents(strings.NewReader(tt.body), 32) {
				if err != nil {
					gotErr = err
					break
				}
				got = append(got, ev.name+" "+string(ev.data))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("events %q, want %q", got, tt.want)
			}
			if (gotErr == nil) != (tt.wantErr == "") || (gotErr != nil && gotErr.Error() != tt.wantErr) {
				t.Errorf("err %v, want %q", gotErr, tt.wantErr)
			}
		})
	}
}

// TestJSONRPC1Stream: SendStreamingMessage reads each 1.0 StreamResponse
// of the stream as its 0.3 type, and ends at the first error: a JSON-RPC
// error in the stream or in an answer that is not a stream, an error
// event, a malformed frame, or an HTTP failure.
func TestJSONRPC1Stream(t *testing.T) {
	t.Parallel()
	const sse = "text/event-stream"
	frame := func(s string) string { return "data: " + s + "\n\n" }
	for _, tt := range []struct {
		name, contentType, body string
		status                  int
		want                    []string
		wantErr                 string
	}{
		{name: "updates", contentType: sse, body: frame(`{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t","contextId":"c","status":{"state":"TASK_STATE_SUBMITTED"}}}}`) +
			frame(`{"jsonrpc":"2.0","id":"1","result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_INPUT_REQUIRED",`+
				`"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"City?"}]}}}}}`) +
			frame(`{"jsonrpc":"2.0","id":"1","result":{"artifactUpdate":{"taskId":"t","contextId":"c","append":true,"lastChunk":true,`+
				`"artifact":{"artifactId":"a","parts":[{"data":{"k":1}},{"url":"https://h/f.png","mediaType":"image/png"}]}}}}`) +
			frame(`{"jsonrpc":"2.0","id":"1","result":{"message":{"messageId":"m2","role":"ROLE_AGENT","parts":[{"text":"Done."}]}}}`),
			want: []string{"task t submitted", "status t input-required agent City?", "artifact t a append=true last=true data,https://h/f.png",
				"message agent Done."}},
		{name: "rpc error", contentType: sse, body: frame(`{"jsonrpc":"2.0","id":"1","result":{"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}}`) +
			frame(`{"jsonrpc":"2.0","id":"1","error":{"code":-32001,"message":"Task not found"}}`) + frame(`{}`),
			want: []string{"task t working"}, wantErr: "Task not found (JSON-RPC error -32001)"},
		{name: "error event", contentType: sse, body: "event: error\ndata: " + `{"jsonrpc":"2.0","id":"1","error":{"code":-32603,"message":"boom"}}` + "\n\n",
			wantErr: "boom (JSON-RPC error -32603)"},
		{name: "error event of text", contentType: sse, body: "event: error\ndata: broken\n\n", wantErr: "SSE stream error: broken"},
		{name: "malformed frame", contentType: sse, body: frame(`{not json`), wantErr: "failed to decode response"},
		{name: "no result", contentType: sse, body: frame(`{"jsonrpc":"2.0","id":"1"}`), wantErr: "neither result nor error"},
		{name: "not a stream", contentType: "application/json", body: `{"jsonrpc":"2.0","id":"1","error":{"code":-32602,"message":"bad params"}}`,
			wantErr: "bad params (JSON-RPC error -32602)"},
		{name: "http failure", contentType: sse, status: http.StatusBadGateway, wantErr: "unexpected HTTP status: 502 Bad Gateway"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var gotMethod, gotAccept string
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				gotMethod, gotAccept = string(b), r.Header.Get("Accept")
				w.Header().Set("Content-Type", tt.contentType)
				if tt.status != 0 {
					w.WriteHeader(tt.status)
				}
				_, _ = io.WriteString(w, tt.body)
			}))
			defer ts.Close()
			c := &jsonRPC1{client: ts.Client(), url: ts.URL}
			var got []string
			var gotErr error
			for ev, err := range c.SendStreamingMessage(t.Context(), &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "x"})}) {
				if err != nil {
					gotErr = err
					continue
				}
				got = append(got, describe(ev))
			}
			if !strings.Contains(gotMethod, `"method":"SendStreamingMessage"`) || gotAccept != sse {
				t.Errorf("request %s, Accept %q", gotMethod, gotAccept)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("items %q, want %q", got, tt.want)
			}
			if (gotErr == nil) != (tt.wantErr == "") || (gotErr != nil && !strings.Contains(gotErr.Error(), tt.wantErr)) {
				t.Errorf("err %v, want %q", gotErr, tt.wantErr)
			}
		})
	}
}

// describe is a stream item in short.
func describe(ev a2a.Event) string {
	text := func(parts a2a.ContentParts) string {
		var out []string
		for _, p := range parts {
			switch p := p.(type) {
			case a2a.TextPart:
				out = append(out, p.Text)
			case a2a.DataPart:
				out = append(out, "data")
			case a2a.FilePart:
				out = append(out, p.File.(a2a.FileURI).URI)
			}
		}
		return strings.Join(out, ",")
	}
	switch e := ev.(type) {
	case *a2a.Task:
		return fmt.Sprintf("task %s %s", e.ID, e.Status.State)
	case *a2a.Message:
		return fmt.Sprintf("message %s %s", e.Role, text(e.Parts))
	case *a2a.TaskStatusUpdateEvent:
		return fmt.Sprintf("status %s %s %s %s", e.TaskID, e.Status.State, e.Status.Message.Role, text(e.Status.Message.Parts))
	case *a2a.TaskArtifactUpdateEvent:
		return fmt.Sprintf("artifact %s %s append=%v last=%v %s", e.TaskID, e.Artifact.ID, e.Append, e.LastChunk, text(e.Artifact.Parts))
	}
	return fmt.Sprintf("%T", ev)
}
