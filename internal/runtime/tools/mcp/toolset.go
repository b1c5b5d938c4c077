package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/features"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// reserved are the names ADK keeps for its own function calls: an MCP tool
// may not take one.
var reserved = []string{"adk_request_credential", "adk_request_confirmation", "adk_request_input", "transfer_to_agent"}

// Toolset is ADK's McpToolset: the tools a server lists, narrowed by a
// filter and renamed with a prefix.
type Toolset struct {
	mu sync.Mutex
	// listed and built: the server list last turned into tools, and those
	// tools, so that each model call does not convert the schemas again.
	listed []*mcp.Tool
	built  []runtime.Tool

	server *Server
	// Filter keeps only the tools of these names (the server's names);
	// empty keeps all.
	filter []string
	// prefix, when set, names each tool prefix_name.
	prefix string
}

// NewToolset returns the toolset of a server.
func NewToolset(server *Server, filter []string, prefix string) *Toolset {
	return &Toolset{server: server, filter: slices.Clone(filter), prefix: prefix}
}

// Tools implements [runtime.Toolset]: the server's tools, listed on its
// session (or from the session's list).
func (ts *Toolset) Tools(ictx *runtime.InvocationContext) ([]runtime.Tool, error) {
	list, err := ts.server.Tools(ictx.Context())
	if err != nil {
		if ictx.Context().Err() != nil {
			return nil, err
		}
		return nil, &runtime.Error{Code: runtime.CodeUnavailable, Reason: v1.ErrorReason_MCP_UNAVAILABLE.String(),
			Message: fmt.Sprintf("Failed to get tools from MCP server %s: %v", ts.server.params, err), Err: err}
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if len(list) > 0 && len(list) == len(ts.listed) && &list[0] == &ts.listed[0] {
		return ts.built, nil
	}
	out := make([]runtime.Tool, 0, len(list))
	for _, t := range list {
		if slices.Contains(reserved, t.Name) {
			return nil, &runtime.Error{Code: runtime.CodeFailedPrecondition, Reason: v1.ErrorReason_MCP_TOOL_RESERVED.String(),
				Message: fmt.Sprintf("MCP tool name '%s' collides with a reserved ADK tool name.", t.Name)}
		}
		if len(ts.filter) > 0 && !slices.Contains(ts.filter, t.Name) {
			continue
		}
		out = append(out, ts.tool(t))
	}
	ts.listed, ts.built = list, out
	return out, nil
}

func (ts *Toolset) tool(t *mcp.Tool) *Tool {
	name := t.Name
	if ts.prefix != "" {
		name = ts.prefix + "_" + name
	}
	decl := &v1.FunctionDeclaration{Name: name, Description: t.Description}
	if m := schemaMap(t.InputSchema); m != nil {
		if s, err := structpb.NewStruct(geminiSchema(m)); err == nil {
			decl.Parameters = s
		}
	}
	return &Tool{server: ts.server, mcpName: t.Name, name: name, description: t.Description, decl: decl}
}

// Tool is one tool of an MCP server, called on the server's session.
type Tool struct {
	server      *Server
	mcpName     string
	name        string
	description string
	decl        *v1.FunctionDeclaration
}

// Name implements [runtime.Tool].
func (t *Tool) Name() string { return t.name }

// Description implements [runtime.Tool].
func (t *Tool) Description() string { return t.description }

// IsLongRunning implements [runtime.Tool].
func (t *Tool) IsLongRunning() bool { return false }

// Declaration implements [runtime.Tool]: the input schema as ADK converts
// it for Gemini, converted once.
func (t *Tool) Declaration() *v1.FunctionDeclaration { return t.decl }

// schemaMap reads an input schema as a JSON object.
func schemaMap(v any) map[string]any {
	switch s := v.(type) {
	case nil:
		return nil
	case map[string]any:
		return s
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// Run implements [runtime.Tool]: calls the tool and answers with its
// result as ADK renders it. A failed call is answered with ADK's error
// object while the app's MCP_GRACEFUL_ERROR_HANDLING is on (the default);
// with it off the failure is the call's error, as ADK raises it. The
// invocation's end is always an error.
//
// With the flag off ADK also stops watching a streamable HTTP session's
// transport, so that a crashed transport hangs the call until the read
// timeout; a failed session here fails the call at once either way.
func (t *Tool) Run(tctx *runtime.ToolContext, args *structpb.Struct) (any, error) {
	ctx := tctx.Context()
	graceful := tctx.App().Features.Enabled(features.MCPGracefulErrorHandling)
	res, err := t.server.Call(ctx, t.mcpName, args.AsMap())
	if err == nil {
		var out map[string]any
		if out, err = render(res); err == nil {
			return out, nil
		}
	} else if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	t.server.log.Warn("mcp tool call failed", "tool", t.mcpName, "err", err)
	if !graceful {
		return nil, toolError(err)
	}
	return errorResponse(err), nil
}
