package a2a

import (
	"context"
	"encoding/json"
	"iter"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"google.golang.org/grpc/codes"
)

var discardLog = slog.New(slog.DiscardHandler)

// stubHandler answers every method with a fixed result and records the
// message/send it got.
type stubHandler struct {
	a2asrv.RequestHandler
	sent     *a2a.MessageSendParams
	metadata map[string]any
}

func (h *stubHandler) OnSendMessage(ctx context.Context, p *a2a.MessageSendParams) (a2a.SendMessageResult, error) {
	h.sent, h.metadata = p, requestMetadata(ctx)
	return &a2a.Task{ID: "t1", ContextID: "c1", Status: a2a.TaskStatus{State: a2a.TaskStateCompleted}}, nil
}

func (h *stubHandler) OnGetTask(context.Context, *a2a.TaskQueryParams) (*a2a.Task, error) {
	return nil, a2a.ErrTaskNotFound
}

func (h *stubHandler) OnResubscribeToTask(context.Context, *a2a.TaskIDParams) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(nil, &rpcError{Code: -32602, Message: "Task t1 is in terminal state: completed"})
	}
}

func serveRPC(t *testing.T, h a2asrv.RequestHandler, body string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	(&rpcHandler{handler: h, log: discardLog}).ServeHTTP(rec, httptest.NewRequest("POST", "/", strings.NewReader(body)))
	return rec.Result(), rec.Body.String()
}

// TestRPCEnvelope: every malformed request is answered, with HTTP 200, in
// a2a-sdk's server's words (recorded from a2a-sdk 0.3; params that are an
// array are -32602, as JSON-RPC 2.0 has it, where a2a-sdk says -32600), and
// reaches no handler.
func TestRPCEnvelope(t *testing.T) {
	t.Parallel()
	msg := `{"role":"user","parts":[{"kind":"text","text":"hi"}],"messageId":"m1"}`
	tests := []struct {
		name, body, want string
	}{
		{"not json", `{`, `{"jsonrpc":"2.0","error":{"code":-32700,"message":"Invalid JSON payload"}}`},
		{"batch", `[1]`, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request payload validation error","data":[{"type":"model_type","loc":[],"msg":"Input should be a valid dictionary or instance of JSONRPCRequest","input":[1],"ctx":{"class_name":"JSONRPCRequest"},"url":"https://errors.pydantic.dev/2.14/v/model_type"}]}}`},
		{"missing method", `{"jsonrpc":"2.0","id":1}`, `{"id":1,"jsonrpc":"2.0","error":{"code":-32600,"message":"Request payload validation error","data":[{"type":"missing","loc":["method"],"msg":"Field required","input":{"id":1,"jsonrpc":"2.0"},"url":"https://errors.pydantic.dev/2.14/v/missing"}]}}`},
		{"wrong version", `{"jsonrpc":"1.0","id":"a","method":"tasks/get","params":{"id":"x"}}`, `{"id":"a","jsonrpc":"2.0","error":{"code":-32600,"message":"Request payload validation error","data":[{"type":"literal_error","loc":["jsonrpc"],"msg":"Input should be '2.0'","input":"1.0","ctx":{"expected":"'2.0'"},"url":"https://errors.pydantic.dev/2.14/v/literal_error"}]}}`},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"tasks/get","params":{"id":"x"}}`, `{"jsonrpc":"2.0","error":{"code":-32600,"message":"Request payload validation error","data":[{"type":"string_type","loc":["id","str"],"msg":"Input should be a valid string","input":1.5,"url":"https://errors.pydantic.dev/2.14/v/string_type"},{"type":"int_from_float","loc":["id","int"],"msg":"Input should be a valid integer, got a number with a fractional part","input":1.5,"url":"https://errors.pydantic.dev/2.14/v/int_from_float"}]}}`},
		{"array params", `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":[1]}`, `{"id":2,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid parameters","data":[{"type":"dict_type","loc":["params"],"msg":"Input should be a valid dictionary","input":[1],"url":"https://errors.pydantic.dev/2.14/v/dict_type"}]}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":"u","method":"nope"}`, `{"id":"u","jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found"}}`},
		{"no params", `{"jsonrpc":"2.0","id":3,"method":"tasks/get"}`, `{"id":3,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid parameters","data":[{"type":"missing","loc":["params"],"msg":"Field required","input":{"id":3,"jsonrpc":"2.0","method":"tasks/get"},"url":"https://errors.pydantic.dev/2.14/v/missing"}]}}`},
		{"no messageId", `{"jsonrpc":"2.0","id":4,"method":"message/send","params":{"message":{"role":"user","parts":[]}}}`, `{"id":4,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid parameters","data":[{"type":"missing","loc":["params","message","messageId"],"msg":"Field required","input":{"parts":[],"role":"user"},"url":"https://errors.pydantic.dev/2.14/v/missing"}]}}`},
		{"role robot", `{"jsonrpc":"2.0","id":5,"method":"message/stream","params":{"message":` + strings.Replace(msg, `"user"`, `"robot"`, 1) + `}}`, `{"id":5,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid parameters","data":[{"type":"enum","loc":["params","message","role"],"msg":"Input should be 'agent' or 'user'","input":"robot","ctx":{"expected":"'agent' or 'user'"},"url":"https://errors.pydantic.dev/2.14/v/enum"}]}}`},
		{"unknown part kind", `{"jsonrpc":"2.0","id":6,"method":"message/send","params":{"message":{"role":"user","messageId":"m","parts":[{"kind":"video","x":1}]}}}`, `{"id":6,"jsonrpc":"2.0","error":{"code":-32602,"message":"Invalid parameters","data":[{"type":"literal_error","loc":["params","message","parts",0,"TextPart","kind"],"msg":"Input should be 'text'","input":"video","ctx":{"expected":"'text'"},"url":"https://errors.pydantic.dev/2.14/v/literal_error"},{"type":"missing","loc":["params","message","parts",0,"TextPart","text"],"msg":"Field required","input":{"kind":"video","x":1},"url":"https://errors.pydantic.dev/2.14/v/missing"},{"type":"missing","loc":["params","message","parts",0,"FilePart","file"],"msg":"Field required","input":{"kind":"video","x":1},"url":"https://errors.pydantic.dev/2.14/v/missing"},{"type":"literal_error","loc":["params","message","parts",0,"FilePart","kind"],"msg":"Input should be 'file'","input":"video","ctx":{"expected":"'file'"},"url":"https://errors.pydantic.dev/2.14/v/literal_error"},{"type":"missing","loc":["params","message","parts",0,"DataPart","data"],"msg":"Field required","input":{"kind":"video","x":1},"url":"https://errors.pydantic.dev/2.14/v/missing"},{"type":"literal_error","loc":["params","message","parts",0,"DataPart","kind"],"msg":"Input should be 'data'","input":"video","ctx":{"expected":"'data'"},"url":"https://errors.pydantic.dev/2.14/v/literal_error"}]}}`},
		{"task not found", `{"jsonrpc":"2.0","id":7,"method":"tasks/get","params":{"id":"x"}}`, `{"id":7,"jsonrpc":"2.0","error":{"code":-32001,"message":"Task not found"}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &stubHandler{}
			resp, body := serveRPC(t, h, tc.body)
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("HTTP %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if got := strings.TrimSpace(body); got != tc.want {
				t.Errorf("answer\n%s\nwant\n%s", got, tc.want)
			}
			if h.sent != nil {
				t.Errorf("the handler got %+v", h.sent)
			}
		})
	}
}

// TestRPCNotification: a request without an id is a notification, which
// JSON-RPC 2.0 leaves unanswered: HTTP 204, no body, and nothing runs (a
// message/send included).
func TestRPCNotification(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"tasks/get","params":{"id":"x"}}`,
		`{"jsonrpc":"2.0","method":"message/send","params":{"message":{"role":"user","messageId":"m","parts":[{"kind":"text","text":"hi"}]}}}`,
	} {
		h := &stubHandler{}
		resp, got := serveRPC(t, h, body)
		if resp.StatusCode != http.StatusNoContent || got != "" || h.sent != nil {
			t.Errorf("%s: HTTP %d %q, handler got %+v", body, resp.StatusCode, got, h.sent)
		}
	}
}

// TestRPCSendReadsAsA2ASDK: a part without a kind is read by its fields
// and snake_case names are taken, as a2a-sdk's models take them; the
// request's metadata reaches the execution.
func TestRPCSendReadsAsA2ASDK(t *testing.T) {
	t.Parallel()
	h := &stubHandler{}
	_, body := serveRPC(t, h, `{"jsonrpc":"2.0","id":true,"method":"message/send","params":{"message":{"role":"user",`+
		`"message_id":"m1","context_id":"c1","parts":[{"text":"hi"},{"data":{"a_b":1}}]},"metadata":{"trace_id":"t"}}}`)
	if !strings.HasPrefix(body, `{"id":1,"jsonrpc":"2.0","result":{"kind":"task"`) {
		t.Fatalf("answer %s", body)
	}
	m := h.sent.Message
	if m.ID != "m1" || m.ContextID != "c1" || len(m.Parts) != 2 {
		t.Fatalf("message %+v", m)
	}
	if tp, ok := m.Parts[0].(a2a.TextPart); !ok || tp.Text != "hi" {
		t.Errorf("part 0 = %#v", m.Parts[0])
	}
	if dp, ok := m.Parts[1].(a2a.DataPart); !ok || dp.Data["a_b"] != float64(1) {
		t.Errorf("part 1 = %#v", m.Parts[1])
	}
	if h.metadata["trace_id"] != "t" {
		t.Errorf("request metadata %v", h.metadata)
	}
}

// TestRPCStreamError: a streaming method's error is its one server-sent
// event, as a2a-sdk sends it.
func TestRPCStreamError(t *testing.T) {
	t.Parallel()
	resp, body := serveRPC(t, &stubHandler{}, `{"jsonrpc":"2.0","id":9,"method":"tasks/resubscribe","params":{"id":"t1"}}`)
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Errorf("content type %q", ct)
	}
	want := `data: {"id":9,"jsonrpc":"2.0","error":{"code":-32602,"message":"Task t1 is in terminal state: completed"}}` + "\n\n"
	if body != want {
		t.Errorf("body %q, want %q", body, want)
	}
}

// TestToRPCError: A2A errors carry a2a-sdk's message, and their own text
// as data only when it says more.
func TestToRPCError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{a2a.ErrTaskNotFound, `{"code":-32001,"message":"Task not found"}`},
		{startError(statusWith(t, codes.Aborted, "session is busy")), `{"code":-32000,"message":"Server error","data":{"error":"session is busy"}}`},
		{&rpcError{Code: -32603, Message: "Cancellation is not supported"}, `{"code":-32603,"message":"Cancellation is not supported"}`},
		{context.Canceled, `{"code":-32603,"message":"Internal error"}`},
	} {
		b, _ := json.Marshal(toRPCError(tc.err))
		if string(b) != tc.want {
			t.Errorf("toRPCError(%v) = %s, want %s", tc.err, b, tc.want)
		}
	}
}
