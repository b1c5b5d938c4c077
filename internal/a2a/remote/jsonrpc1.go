package remote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/a2aproject/a2a-go/a2a"
)

// versionHeader is A2A 1.0's A2A-Version header, which a 1.0 server reads
// to tell a 1.0 call from a 0.3 one.
const versionHeader = "A2A-Version"

// sender sends one blocking message: a2a-go's 0.3 client, or [jsonRPC1].
type sender interface {
	SendMessage(ctx context.Context, params *a2a.MessageSendParams) (a2a.SendMessageResult, error)
}

// jsonRPC1 sends messages over A2A 1.0's JSON-RPC binding, as a2a-sdk 1.x's
// JsonRpcTransport does: method SendMessage with the A2A-Version header
// 1.0, and the 1.0 JSON of messages (parts without a kind, roles and task
// states as ROLE_* and TASK_STATE_*), converted from and to the 0.3 types
// the rest of the agent reads.
type jsonRPC1 struct {
	client *http.Client
	url    string
	tenant string
}

// SendMessage implements [sender].
func (c *jsonRPC1) SendMessage(ctx context.Context, params *a2a.MessageSendParams) (a2a.SendMessageResult, error) {
	resp, err := c.post(ctx, "SendMessage", params, "")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	ev, err := decodeResponse(raw)
	if err != nil {
		return nil, err
	}
	res, ok := ev.(a2a.SendMessageResult)
	if !ok {
		return nil, errors.New("response has neither task nor message")
	}
	return res, nil
}

// post sends a call of method with params in A2A 1.0's JSON, with the
// Accept header accept when set; a response of another status than 200 is
// an error.
func (c *jsonRPC1) post(ctx context.Context, method string, params *a2a.MessageSendParams, accept string) (*http.Response, error) {
	msg, err := toV1(params.Message)
	if err != nil {
		return nil, err
	}
	p := map[string]any{"message": msg}
	if len(params.Metadata) > 0 {
		p["metadata"] = params.Metadata
	}
	if c.tenant != "" {
		p["tenant"] = c.tenant
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": a2a.NewMessageID(), "method": method, "params": p})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	req.Header.Set(versionHeader, "1.0")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("failed to send HTTP request: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("unexpected HTTP status: %s", resp.Status)
	}
	return resp, nil
}

// decodeResponse reads a JSON-RPC response of A2A 1.0: its error, or its
// result (a task, a message, or a stream's status or artifact update) as
// its 0.3 type.
func decodeResponse(raw []byte) (a2a.Event, error) {
	var out struct {
		Result map[string]any `json:"result"`
		Error  *rpcError      `json:"error"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("failed to decode response: %w", err)
	}
	obj := func(key string) map[string]any { m, _ := out.Result[key].(map[string]any); return m }
	switch {
	case out.Error != nil:
		return nil, out.Error
	case out.Result == nil:
		return nil, errors.New("invalid JSON-RPC response: it has neither result nor error")
	case obj("task") != nil:
		t := &a2a.Task{}
		return t, fromV1(taskFromV1(obj("task")), t)
	case obj("message") != nil:
		m := &a2a.Message{}
		return m, fromV1(messageFromV1(obj("message")), m)
	case obj("statusUpdate") != nil:
		u := &a2a.TaskStatusUpdateEvent{}
		return u, fromV1(statusUpdateFromV1(obj("statusUpdate")), u)
	case obj("artifactUpdate") != nil:
		u := &a2a.TaskArtifactUpdateEvent{}
		return u, fromV1(artifactUpdateFromV1(obj("artifactUpdate")), u)
	}
	return nil, errors.New("response has neither task nor message")
}

// rpcError is a JSON-RPC error answered.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("%s (JSON-RPC error %d)", e.Message, e.Code) }

// toV1 is a 0.3 message as A2A 1.0's JSON writes it.
func toV1(m *a2a.Message) (map[string]any, error) {
	var out map[string]any
	b, err := json.Marshal(m)
	if err == nil {
		err = json.Unmarshal(b, &out)
	}
	if err != nil {
		return nil, err
	}
	delete(out, "kind")
	out["role"] = "ROLE_" + strings.ToUpper(fmt.Sprint(out["role"]))
	parts, _ := out["parts"].([]any)
	for i, p := range parts {
		parts[i] = partToV1(p)
	}
	return out, nil
}

// partToV1 is a 0.3 part (text, data, or a file of bytes or a URI) as a
// 1.0 part, whose content field tells its kind.
func partToV1(p any) any {
	m, ok := p.(map[string]any)
	if !ok {
		return p
	}
	delete(m, "kind")
	file, ok := m["file"].(map[string]any)
	if !ok {
		return m
	}
	delete(m, "file")
	for from, to := range map[string]string{"bytes": "raw", "uri": "url", "mimeType": "mediaType", "name": "filename"} {
		if v, ok := file[from]; ok {
			m[to] = v
		}
	}
	return m
}

// partFromV1 is a 1.0 part as a 0.3 one.
func partFromV1(p any) any {
	m, ok := p.(map[string]any)
	if !ok {
		return p
	}
	out := map[string]any{}
	if meta, ok := m["metadata"]; ok {
		out["metadata"] = meta
	}
	switch {
	case m["text"] != nil:
		out["kind"], out["text"] = "text", m["text"]
	case m["data"] != nil:
		data, ok := m["data"].(map[string]any)
		if !ok {
			// A 0.3 data part holds an object: any other value goes under
			// "value", as ADK's converters wrap it.
			data = map[string]any{"value": m["data"]}
		}
		out["kind"], out["data"] = "data", data
	default:
		file := map[string]any{}
		for from, to := range map[string]string{"raw": "bytes", "url": "uri", "mediaType": "mimeType", "filename": "name"} {
			if v, ok := m[from]; ok {
				file[to] = v
			}
		}
		out["kind"], out["file"] = "file", file
	}
	return out
}

// messageFromV1 is a 1.0 message as a 0.3 one.
func messageFromV1(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	m["kind"] = "message"
	role := a2a.MessageRoleAgent
	if m["role"] == "ROLE_USER" {
		role = a2a.MessageRoleUser
	}
	m["role"] = string(role)
	parts, _ := m["parts"].([]any)
	for i, p := range parts {
		parts[i] = partFromV1(p)
	}
	if parts == nil {
		m["parts"] = []any{}
	}
	return m
}

// taskFromV1 is a 1.0 task as a 0.3 one.
func taskFromV1(t map[string]any) map[string]any {
	t["kind"] = "task"
	t["status"] = statusFromV1(t["status"])
	history, _ := t["history"].([]any)
	for i, h := range history {
		if m, ok := h.(map[string]any); ok {
			history[i] = messageFromV1(m)
		}
	}
	artifacts, _ := t["artifacts"].([]any)
	for _, a := range artifacts {
		if a, ok := a.(map[string]any); ok {
			artifactFromV1(a)
		}
	}
	return t
}

// statusFromV1 is a 1.0 task status as a 0.3 one: its state
// TASK_STATE_INPUT_REQUIRED becomes input-required, and so on.
func statusFromV1(s any) map[string]any {
	status, _ := s.(map[string]any)
	if status == nil {
		status = map[string]any{}
	}
	state, _ := status["state"].(string)
	state = strings.TrimPrefix(state, "TASK_STATE_")
	status["state"] = strings.ReplaceAll(strings.ToLower(state), "_", "-")
	if state == "" || state == "UNSPECIFIED" {
		status["state"] = string(a2a.TaskStateUnknown)
	}
	if m, ok := status["message"].(map[string]any); ok {
		status["message"] = messageFromV1(m)
	}
	return status
}

// artifactFromV1 converts a 1.0 artifact's parts to 0.3 ones in place.
func artifactFromV1(a map[string]any) {
	parts, _ := a["parts"].([]any)
	for i, p := range parts {
		parts[i] = partFromV1(p)
	}
	if parts == nil {
		a["parts"] = []any{}
	}
}

// statusUpdateFromV1 is a stream's 1.0 status update as a 0.3 one.
func statusUpdateFromV1(u map[string]any) map[string]any {
	u["kind"] = "status-update"
	u["status"] = statusFromV1(u["status"])
	return u
}

// artifactUpdateFromV1 is a stream's 1.0 artifact update as a 0.3 one.
func artifactUpdateFromV1(u map[string]any) map[string]any {
	u["kind"] = "artifact-update"
	if a, ok := u["artifact"].(map[string]any); ok {
		artifactFromV1(a)
	}
	return u
}

// fromV1 decodes a converted value into its 0.3 type.
func fromV1(v map[string]any, into any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, into); err != nil {
		return fmt.Errorf("result violates A2A spec: %w", err)
	}
	return nil
}
