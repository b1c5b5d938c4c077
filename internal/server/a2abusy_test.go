package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"

	et "github.com/agentsvc/agentsvc/internal/runtime/enginetest"
	"github.com/agentsvc/agentsvc/internal/server"
)

// TestA2ABusySessionIsAServerError: a message to a context whose session
// runs another invocation is refused, past the busy wait, with the
// JSON-RPC server error -32000 whose data names SESSION_BUSY (a2a-go
// clients read a2a.ErrServerError), over message/send and message/stream,
// not with -32603 internal error; once the session is free the same
// message runs.
func TestA2ABusySessionIsAServerError(t *testing.T) {
	t.Parallel()
	s := newA2AStack(t, withConfig(func(c *server.Config) { c.SessionBusyWait = 100 * time.Millisecond }))
	ctx := t.Context()
	lease, err := s.store.Lease(ctx, "help", "A2A_USER_ctx-busy", "ctx-busy", "another-invocation", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	wantBusy := func(how string, err error) {
		t.Helper()
		if !errors.Is(err, a2a.ErrServerError) || !strings.Contains(err.Error(), "SESSION_BUSY: session is busy") {
			t.Errorf("%s on a busy session: %v, want a server error naming SESSION_BUSY", how, err)
		}
	}
	_, err = s.client.SendMessage(ctx, userMessage("ctx-busy", "Hi"))
	wantBusy("message/send", err)
	err = nil
	for _, e := range s.client.SendStreamingMessage(ctx, userMessage("ctx-busy", "Hi")) {
		if e != nil {
			err = e
			break
		}
	}
	wantBusy("message/stream", err)

	// The wire, as any client reads it.
	body := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1",` +
		`"role":"user","contextId":"ctx-busy","parts":[{"kind":"text","text":"Hi"}]}}}`
	resp, err := http.Post(s.url, "application/json", bytes.NewReader([]byte(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct {
		Error struct {
			Code int            `json:"code"`
			Data map[string]any `json:"data"`
		} `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if text, _ := got.Error.Data["error"].(string); resp.StatusCode != http.StatusOK || got.Error.Code != -32000 ||
		!strings.HasPrefix(text, "SESSION_BUSY: ") {
		t.Errorf("HTTP %d, error %+v; want 200 with error -32000, data naming SESSION_BUSY", resp.StatusCode, got.Error)
	}

	if err := lease.Release(ctx); err != nil {
		t.Fatal(err)
	}
	s.model.Enqueue(et.Text("Hello there."))
	res, err := s.client.SendMessage(ctx, userMessage("ctx-busy", "Hi"))
	if task, ok := res.(*a2a.Task); err != nil || !ok || task.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("message/send once the session is free: %+v, %v", res, err)
	}
}
