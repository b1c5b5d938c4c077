package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
)

// rpcHandler is A2A's JSON-RPC binding over an [a2asrv.RequestHandler],
// answering with a2a-sdk's server's texts (the one ADK's A2A apps run):
// the envelope checked first (-32600 with pydantic's errors as data), then
// the method (-32601), then the request of that method, whose params must
// be an object (-32602); every answer is HTTP 200. A notification (a
// request without an id) is not answered, as JSON-RPC 2.0 requires: it
// runs nothing (every A2A method answers something) and gets HTTP 204,
// where a2a-sdk 0.3 answers -32602. Safe for concurrent use.
type rpcHandler struct {
	handler a2asrv.RequestHandler
	log     *slog.Logger
}

// rpcMethods are the methods served, with the check of their params.
var rpcMethods = map[string]func(*checker, map[string]any, []any){
	"message/send":                        messageSendParams,
	"message/stream":                      messageSendParams,
	"tasks/get":                           taskQueryParams,
	"tasks/cancel":                        taskIDParams,
	"tasks/resubscribe":                   taskIDParams,
	"tasks/pushNotificationConfig/get":    nil,
	"tasks/pushNotificationConfig/set":    nil,
	"tasks/pushNotificationConfig/list":   nil,
	"tasks/pushNotificationConfig/delete": nil,
	"agent/getAuthenticatedExtendedCard":  nil,
}

type rpcResponse struct {
	ID      any       `json:"id,omitempty"`
	JSONRPC string    `json:"jsonrpc"`
	Result  any       `json:"result,omitempty"`
	Error   *rpcError `json:"error,omitempty"`
}

func (h *rpcHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			h.write(ctx, w, nil, &rpcError{Code: -32600, Message: "Payload too large"})
		}
		return
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var body any
	if err := dec.Decode(&body); err != nil || dec.More() {
		h.write(ctx, w, nil, newRPCError(a2a.ErrParseError, nil))
		return
	}
	obj, _ := body.(map[string]any)
	id := responseID(obj["id"])
	if errs := checkEnvelope(body); len(errs) > 0 {
		h.write(ctx, w, id, newRPCError(a2a.ErrInvalidRequest, errs))
		return
	}
	if _, ok := obj["id"]; !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	method := obj["method"].(string)
	check, known := rpcMethods[method]
	if !known {
		h.write(ctx, w, id, newRPCError(a2a.ErrMethodNotFound, nil))
		return
	}
	if errs := checkRequest(obj, check); len(errs) > 0 {
		h.write(ctx, w, id, newRPCError(a2a.ErrInvalidParams, errs))
		return
	}
	params := obj["params"].(map[string]any)
	camelCase(params)
	p, _ := json.Marshal(params)
	switch method {
	case "message/stream", "tasks/resubscribe":
		h.stream(ctx, w, id, method, p)
	default:
		res, err := h.call(ctx, method, p)
		if err != nil {
			h.write(ctx, w, id, toRPCError(err))
			return
		}
		writeJSON(ctx, h.log, w, rpcResponse{ID: id, JSONRPC: "2.0", Result: res})
	}
}

// responseID is the id an answer carries: the request's when it is a
// string or an integer, else none.
func responseID(v any) any {
	switch v := v.(type) {
	case string:
		return v
	case bool:
		if v {
			return 1
		}
		return 0
	case json.Number:
		if numberKind(v) == "int" {
			if n, err := v.Int64(); err == nil {
				return n
			}
			f, _ := v.Float64()
			return int64(f)
		}
	}
	return nil
}

// decode reads params into v; params a2a-sdk accepts and a2a-go cannot
// read are invalid params.
func decode[T any](raw []byte) (*T, error) {
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("%w: %v", a2a.ErrInvalidParams, err)
	}
	return v, nil
}

// call runs a method answered by one result.
func (h *rpcHandler) call(ctx context.Context, method string, p []byte) (any, error) {
	switch method {
	case "message/send":
		params, err := decode[a2a.MessageSendParams](p)
		if err != nil {
			return nil, err
		}
		return h.handler.OnSendMessage(withRequestMetadata(ctx, params.Metadata), params)
	case "tasks/get":
		params, err := decode[a2a.TaskQueryParams](p)
		if err != nil {
			return nil, err
		}
		return h.handler.OnGetTask(ctx, params)
	case "tasks/cancel":
		params, err := decode[a2a.TaskIDParams](p)
		if err != nil {
			return nil, err
		}
		return h.handler.OnCancelTask(ctx, params)
	case "tasks/pushNotificationConfig/get", "tasks/pushNotificationConfig/set",
		"tasks/pushNotificationConfig/list", "tasks/pushNotificationConfig/delete":
		return nil, a2a.ErrPushNotificationNotSupported
	}
	return h.handler.OnGetExtendedAgentCard(ctx)
}

// stream answers a streaming method with server-sent events, an error of
// the method as its one event.
func (h *rpcHandler) stream(ctx context.Context, w http.ResponseWriter, id any, method string, p []byte) {
	var events iter.Seq2[a2a.Event, error]
	switch method {
	case "message/stream":
		params, err := decode[a2a.MessageSendParams](p)
		if err != nil {
			h.write(ctx, w, id, toRPCError(err))
			return
		}
		events = h.handler.OnSendMessageStream(withRequestMetadata(ctx, params.Metadata), params)
	default:
		params, err := decode[a2a.TaskIDParams](p)
		if err != nil {
			h.write(ctx, w, id, toRPCError(err))
			return
		}
		events = h.handler.OnResubscribeToTask(ctx, params)
	}
	flusher, _ := w.(http.Flusher)
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func(resp rpcResponse) bool {
		b, err := json.Marshal(resp)
		if err != nil {
			h.log.ErrorContext(ctx, "a2a: encode event", "err", err)
			return false
		}
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	for ev, err := range events {
		if err != nil {
			send(rpcResponse{ID: id, JSONRPC: "2.0", Error: toRPCError(err)})
			return
		}
		if !send(rpcResponse{ID: id, JSONRPC: "2.0", Result: ev}) {
			return
		}
	}
}

func (h *rpcHandler) write(ctx context.Context, w http.ResponseWriter, id any, e *rpcError) {
	writeJSON(ctx, h.log, w, rpcResponse{ID: id, JSONRPC: "2.0", Error: e})
}

func writeJSON(ctx context.Context, log *slog.Logger, w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		log.DebugContext(ctx, "a2a: write answer", "err", err)
	}
}

// requestMetadataKey carries a message's request-level metadata
// (MessageSendParams.metadata) to its execution.
type requestMetadataKey struct{}

func withRequestMetadata(ctx context.Context, m map[string]any) context.Context {
	if len(m) == 0 {
		return ctx
	}
	return context.WithValue(ctx, requestMetadataKey{}, m)
}

// requestMetadata is the metadata of the request whose execution ctx is.
func requestMetadata(ctx context.Context) map[string]any {
	m, _ := ctx.Value(requestMetadataKey{}).(map[string]any)
	return m
}
