package a2a

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
)

// hangingInvoker starts invocations that run until their context ends,
// reporting each such end on ended, or until stop is closed.
type hangingInvoker struct {
	ended chan error
	stop  chan struct{}
}

func (h hangingInvoker) User(context.Context) string { return "" }

func (h hangingInvoker) Start(context.Context, Request) (Run, error) {
	return func(ctx context.Context, _ func(*v1.Event) error) error {
		select {
		case <-ctx.Done():
			h.ended <- ctx.Err()
			return ctx.Err()
		case <-h.stop:
			return nil
		}
	}, nil
}

// rpcCall posts one JSON-RPC request to app and decodes its answer.
func rpcCall(t *testing.T, s *Service, app, body string) (result map[string]any, rpcErr *rpcError) {
	t.Helper()
	rec := httptest.NewRecorder()
	s.ServeRPC(rec, httptest.NewRequest("POST", "/", strings.NewReader(body)), app)
	var resp struct {
		Result map[string]any `json:"result"`
		Error  *rpcError      `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &resp); err != nil {
		t.Fatalf("answer %s: %v", rec.Body, err)
	}
	return resp.Result, resp.Error
}

// TestCancelRunningTask: in an ADK 2.x app tasks/cancel ends the running
// invocation and the task is canceled; again, it is not cancelable. An ADK
// 1.x app answers ADK 1.x's error and its invocation goes on.
func TestCancelRunningTask(t *testing.T) {
	t.Parallel()
	inv := hangingInvoker{ended: make(chan error, 2), stop: make(chan struct{})}
	t.Cleanup(func() { close(inv.stop) })
	s, err := NewService(Config{Apps: []*api.App{{Name: "two"}, {Name: "one"}}, Invoker: inv, ADK2: map[string]bool{"two": true},
		Logger: discardLog})
	if err != nil {
		t.Fatal(err)
	}
	send := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"configuration":{"blocking":false},` +
		`"message":{"role":"user","messageId":"m1","parts":[{"kind":"text","text":"go"}]}}}`
	cancel := func(app, id string) (map[string]any, *rpcError) {
		return rpcCall(t, s, app, `{"jsonrpc":"2.0","id":2,"method":"tasks/cancel","params":{"id":"`+id+`"}}`)
	}

	task, e := rpcCall(t, s, "two", send)
	if e != nil {
		t.Fatal(e)
	}
	res, e := cancel("two", task["id"].(string))
	if e != nil || res["status"].(map[string]any)["state"] != "canceled" {
		t.Fatalf("cancel = %v, %v", res, e)
	}
	select {
	case err := <-inv.ended:
		if err == nil {
			t.Fatal("the invocation ended without its context")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the invocation still runs")
	}
	_, e = cancel("two", task["id"].(string))
	if e == nil || e.Code != -32002 || e.Message != "Task cannot be canceled - current state: TaskState.canceled" {
		t.Errorf("cancel again = %+v", e)
	}
	if _, e = cancel("two", "nope"); e == nil || e.Code != -32001 || e.Message != "Task not found" {
		t.Errorf("cancel unknown = %+v", e)
	}

	task, e = rpcCall(t, s, "one", send)
	if e != nil {
		t.Fatal(e)
	}
	if _, e = cancel("one", task["id"].(string)); e == nil || e.Code != -32603 || e.Message != "Cancellation is not supported" {
		t.Errorf("1.x cancel = %+v", e)
	}
	select {
	case err := <-inv.ended:
		t.Errorf("the 1.x invocation ended: %v", err)
	default:
	}
}
