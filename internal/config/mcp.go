package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	api "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1/api"
	"github.com/agentsvc/agentsvc/internal/runtime/tools/mcp"
)

// mcpToolset is a resolved MCPToolset entry: its server (shared by the
// app's toolsets with the same parameters once the app is loaded), filter
// and prefix.
type mcpToolset struct {
	params  mcp.Params
	filter  []string
	prefix  string
	toolset *mcp.Toolset
}

// isMCPToolset reports the names ADK gives its MCP toolset.
func isMCPToolset(name string) bool { return name == "MCPToolset" || name == "McpToolset" }

// ADK's McpToolsetConfig and its connection parameters, as YAML spells
// them.
type (
	mcpToolsetArgs struct {
		StdioServerParams              *stdioServerParams     `json:"stdio_server_params"`
		StdioConnectionParams          *stdioConnectionParams `json:"stdio_connection_params"`
		SSEConnectionParams            *httpConnectionParams  `json:"sse_connection_params"`
		StreamableHTTPConnectionParams *httpConnectionParams  `json:"streamable_http_connection_params"`
		ToolFilter                     []string               `json:"tool_filter"`
		ToolNamePrefix                 string                 `json:"tool_name_prefix"`
		AuthScheme                     any                    `json:"auth_scheme"`
		AuthCredential                 any                    `json:"auth_credential"`
		CredentialKey                  string                 `json:"credential_key"`
		UseMCPResources                bool                   `json:"use_mcp_resources"`
	}
	stdioServerParams struct {
		Command              string            `json:"command"`
		Args                 []string          `json:"args"`
		Env                  map[string]string `json:"env"`
		Cwd                  string            `json:"cwd"`
		Encoding             string            `json:"encoding"`
		EncodingErrorHandler string            `json:"encoding_error_handler"`
	}
	stdioConnectionParams struct {
		ServerParams *stdioServerParams `json:"server_params"`
		Timeout      *float64           `json:"timeout"`
	}
	httpConnectionParams struct {
		URL              string            `json:"url"`
		Headers          map[string]string `json:"headers"`
		Timeout          *float64          `json:"timeout"`
		SSEReadTimeout   *float64          `json:"sse_read_timeout"`
		TerminateOnClose *bool             `json:"terminate_on_close"`
	}
)

// maxMCPTimeout bounds the timeouts of an MCP toolset.
const maxMCPTimeout = time.Hour

// readMCPToolset reads an MCPToolset entry's args, with ADK's rule that
// exactly one kind of connection parameters is given.
func readMCPToolset(args map[string]any) (*mcpToolset, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var a mcpToolsetArgs
	if err := dec.Decode(&a); err != nil {
		return nil, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "json: "))
	}
	switch {
	case a.AuthScheme != nil || a.AuthCredential != nil || a.CredentialKey != "":
		return nil, errors.New("auth_scheme, auth_credential, credential_key: MCP authentication is not supported; pass headers in the connection params")
	case a.UseMCPResources:
		return nil, errors.New("use_mcp_resources: MCP resources are not supported")
	}
	out := &mcpToolset{filter: a.ToolFilter, prefix: a.ToolNamePrefix}
	set := 0
	if a.StdioServerParams != nil {
		set++
		if out.params, err = stdioParams("stdio_server_params", a.StdioServerParams, nil); err != nil {
			return nil, err
		}
	}
	if c := a.StdioConnectionParams; c != nil {
		set++
		if c.ServerParams == nil {
			return nil, errors.New("stdio_connection_params.server_params: required")
		}
		if out.params, err = stdioParams("stdio_connection_params.server_params", c.ServerParams, c.Timeout); err != nil {
			return nil, err
		}
	}
	if c := a.SSEConnectionParams; c != nil {
		set++
		if out.params, err = httpParams("sse_connection_params", mcp.SSE, c); err != nil {
			return nil, err
		}
	}
	if c := a.StreamableHTTPConnectionParams; c != nil {
		set++
		if out.params, err = httpParams("streamable_http_connection_params", mcp.Streamable, c); err != nil {
			return nil, err
		}
	}
	if set != 1 {
		return nil, errors.New("exactly one of stdio_server_params, stdio_connection_params, sse_connection_params, streamable_http_connection_params must be set")
	}
	if out.prefix != "" && !functionName.MatchString(out.prefix) {
		return nil, fmt.Errorf("tool_name_prefix: %q must start a function name (a letter or underscore, then letters, digits, underscores, dots, colons or dashes)", out.prefix)
	}
	return out, nil
}

func stdioParams(field string, p *stdioServerParams, timeout *float64) (mcp.Params, error) {
	if p.Command == "" {
		return mcp.Params{}, fmt.Errorf("%s.command: required", field)
	}
	if p.Encoding != "" && !strings.EqualFold(p.Encoding, "utf-8") {
		return mcp.Params{}, fmt.Errorf("%s.encoding: only utf-8 is supported", field)
	}
	t, err := seconds("stdio_connection_params.timeout", timeout)
	if err != nil {
		return mcp.Params{}, err
	}
	return mcp.Params{Transport: mcp.Stdio, Command: p.Command, Args: p.Args, Env: p.Env, Dir: p.Cwd, Timeout: t}, nil
}

func httpParams(field string, transport mcp.Transport, p *httpConnectionParams) (mcp.Params, error) {
	if !strings.HasPrefix(p.URL, "http://") && !strings.HasPrefix(p.URL, "https://") {
		return mcp.Params{}, fmt.Errorf("%s.url: %q is not an http(s) URL", field, p.URL)
	}
	t, err := seconds(field+".timeout", p.Timeout)
	if err != nil {
		return mcp.Params{}, err
	}
	rt, err := seconds(field+".sse_read_timeout", p.SSEReadTimeout)
	if err != nil {
		return mcp.Params{}, err
	}
	return mcp.Params{Transport: transport, URL: p.URL, Headers: p.Headers, Timeout: t, ReadTimeout: rt}, nil
}

// seconds reads a timeout in seconds; absent gives 0 (ADK's default).
func seconds(field string, v *float64) (time.Duration, error) {
	if v == nil {
		return 0, nil
	}
	d := time.Duration(*v * float64(time.Second))
	if *v <= 0 || d > maxMCPTimeout {
		return 0, fmt.Errorf("%s: %v must be above 0 and at most %v seconds", field, *v, maxMCPTimeout.Seconds())
	}
	return d, nil
}

// info is what GetApp shows of the toolset.
func (t *mcpToolset) info() *api.ToolInfo {
	return &api.ToolInfo{Name: "MCPToolset", Description: "Tools of the MCP server " + t.params.String()}
}

// connectMCP gives every MCP toolset of the app its server: one per
// distinct set of connection parameters, shared by the toolsets that name
// it. It returns the servers.
func connectMCP(root *AgentConfig) []*mcp.Server {
	servers := map[string]*mcp.Server{}
	var list []*mcp.Server
	var walk func(c *AgentConfig)
	walk = func(c *AgentConfig) {
		for _, t := range c.mcpToolsets {
			key := t.params.Key()
			s, ok := servers[key]
			if !ok {
				s = mcp.NewServer(t.params, nil)
				servers[key] = s
				list = append(list, s)
			}
			t.toolset = mcp.NewToolset(s, t.filter, t.prefix)
		}
		for _, child := range c.subAgents {
			walk(child)
		}
		for _, child := range c.agentTools {
			walk(child)
		}
	}
	walk(root)
	return list
}
