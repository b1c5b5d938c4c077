package mcp

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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
// McpTool words it: the server's errors (an error answer, a lost
// connection, a timeout) as a failed MCP execution, anything else (a
// session that could not be opened) as unexpected.
func errorResponse(err error) map[string]any {
	var wire *mcpWireError
	var timeout *timeoutError
	var conn *connectError
	switch {
	case errors.As(err, &conn):
	case errors.As(err, &wire):
		return map[string]any{"error": "MCP tool execution failed: " + wire.Message}
	case errors.As(err, &timeout):
		return map[string]any{"error": "MCP tool execution failed: " + timeout.Error()}
	case errors.Is(err, mcp.ErrConnectionClosed), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNRESET):
		return map[string]any{"error": "MCP tool execution failed: Connection closed"}
	}
	return map[string]any{"error": fmt.Sprintf("Unexpected error during MCP tool execution: %v", err)}
}
