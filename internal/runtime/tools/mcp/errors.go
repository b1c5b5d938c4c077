package mcp

import (
	"errors"
	"io"
	"strconv"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// mcpWireError is an error answer of the server.
type mcpWireError = jsonrpc.Error

// connectError is a failure to open a session.
type connectError struct{ err error }

func (e *connectError) Error() string { return "Failed to create MCP session: " + e.err.Error() }
func (e *connectError) Unwrap() error { return e.err }

// timeoutError is a call that outlived the call timeout.
type timeoutError struct{ after time.Duration }

func (e *timeoutError) Error() string {
	return "Timed out while waiting for response to ClientRequest. Waited " +
		strconv.FormatFloat(e.after.Seconds(), 'f', -1, 64) + pointZero(e.after) + " seconds."
}

// pointZero writes whole seconds as Python writes a float ("5.0").
func pointZero(d time.Duration) string {
	if d%time.Second == 0 {
		return ".0"
	}
	return ""
}

// errorResponse is the function response of a failed call, as ADK's
// McpTool words it with MCP_GRACEFUL_ERROR_HANDLING on: the server's
// errors (an error answer, a lost connection, a timeout) as a failed MCP
// execution, anything else (a session that could not be opened) as
// unexpected.
func errorResponse(err error) map[string]any {
	text, fromServer := errorText(err)
	if fromServer {
		return map[string]any{"error": "MCP tool execution failed: " + text}
	}
	return map[string]any{"error": "Unexpected error during MCP tool execution: " + text}
}

// toolError is a failed call as ADK's McpTool raises it with
// MCP_GRACEFUL_ERROR_HANDLING off: the exception, worded as Python's str()
// of it, fails the call; the on-tool-error callbacks may answer for it,
// else it fails the run.
func toolError(err error) error {
	text, _ := errorText(err)
	return &runtime.Error{Code: runtime.CodeUnknown, Reason: v1.ErrorReason_MCP_TOOL_FAILED.String(), Message: text, Err: err}
}

// errorText is the text of the exception ADK's McpTool meets for err, and
// whether it is one of the server's errors (an McpError: an error answer,
// a lost connection, a timeout) rather than another failure (a session
// that could not be opened).
func errorText(err error) (text string, fromServer bool) {
	var wire *mcpWireError
	var timeout *timeoutError
	var conn *connectError
	switch {
	case errors.As(err, &conn):
	case errors.As(err, &wire):
		return wire.Message, true
	case errors.As(err, &timeout):
		return timeout.Error(), true
	case errors.Is(err, mcp.ErrConnectionClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET):
		return "Connection closed", true
	}
	return err.Error(), false
}
