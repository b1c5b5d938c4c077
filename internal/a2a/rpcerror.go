package a2a

import (
	"errors"

	"github.com/a2aproject/a2a-go/a2a"
)

// rpcError is a JSON-RPC error as a2a-sdk's server answers it: its code,
// message and optional data. It wraps the a2a-go error of its code, so
// that a2a-go's handler and errors.Is read it.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

func (e *rpcError) Unwrap() error {
	for _, c := range rpcCodes {
		if c.code == e.Code {
			return c.err
		}
	}
	return nil
}

// rpcCodes are the A2A errors with their JSON-RPC codes and a2a-sdk's
// default messages.
var rpcCodes = []struct {
	err  error
	code int
	msg  string
}{
	{a2a.ErrParseError, -32700, "Invalid JSON payload"},
	{a2a.ErrInvalidRequest, -32600, "Request payload validation error"},
	{a2a.ErrMethodNotFound, -32601, "Method not found"},
	{a2a.ErrInvalidParams, -32602, "Invalid parameters"},
	{a2a.ErrInternalError, -32603, "Internal error"},
	{a2a.ErrServerError, -32000, "Server error"},
	{a2a.ErrTaskNotFound, -32001, "Task not found"},
	{a2a.ErrTaskNotCancelable, -32002, "Task cannot be canceled"},
	{a2a.ErrPushNotificationNotSupported, -32003, "Push Notification is not supported"},
	{a2a.ErrUnsupportedOperation, -32004, "This operation is not supported"},
	{a2a.ErrUnsupportedContentType, -32005, "Incompatible content types"},
	{a2a.ErrInvalidAgentResponse, -32006, "Invalid agent response"},
	{a2a.ErrAuthenticatedExtendedCardNotConfigured, -32007, "Authenticated Extended Card is not configured"},
}

// newRPCError is the error of err's code with a2a-sdk's default message
// and the given data.
func newRPCError(err error, data any) *rpcError {
	for _, c := range rpcCodes {
		if c.err == err {
			return &rpcError{Code: c.code, Message: c.msg, Data: data}
		}
	}
	return &rpcError{Code: -32603, Message: "Internal error", Data: data}
}

// toRPCError is the JSON-RPC error answered for err: an [rpcError] as it
// is; an A2A error with a2a-sdk's message for its code, and the error's
// own text as data {"error": ...} when it says more, as a2a-go's servers
// send it; anything else an internal error that tells nothing.
func toRPCError(err error) *rpcError {
	var re *rpcError
	if errors.As(err, &re) {
		return re
	}
	for _, c := range rpcCodes {
		if errors.Is(err, c.err) {
			e := &rpcError{Code: c.code, Message: c.msg}
			if err.Error() != c.err.Error() {
				e.Data = map[string]any{"error": err.Error()}
			}
			return e
		}
	}
	return &rpcError{Code: -32603, Message: "Internal error"}
}
