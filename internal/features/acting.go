package features

// acting are the features that change what agentsvc does:
//   - PROGRESSIVE_SSE_STREAMING: off, the Gemini adapter streams as ADK's
//     legacy streaming does;
//   - MCP_GRACEFUL_ERROR_HANDLING: off, a failed MCP tool call fails the
//     call (and, unless an on-tool-error callback answers, the run) instead
//     of answering with ADK's error object;
//   - TOOL_CONFIRMATION: off, a tool that asks for the user's confirmation
//     (require_confirmation, or a request from the tool itself) fails the
//     call with ADK's "Feature ... is not enabled." error.
//
// The others gate ADK code that agentsvc does not run (BigQuery, Spanner
// and the other toolsets, computer use, the skill toolset, ADK's own
// session service) or behaviour it has not taken. JSON_SCHEMA_FOR_FUNC_DECL
// is one of these, though it would change the requests sent to the model:
// in google-adk 1.39.1 it declares every tool built from a Python function
// (transfer_to_agent, exit_loop, get_user_choice and the rest) from the
// function's pydantic JSON schema, with pydantic's titles and a dedented
// docstring, and declares MCP tools, agent tools, load_memory and
// load_artifacts with parameters_json_schema and response_json_schema in
// place of the converted parameters and response. agentsvc keeps the
// declarations of the flag's default (off), so setting it is logged as
// having no effect.
var acting = map[Name]bool{
	ProgressiveSSEStreaming:  true,
	MCPGracefulErrorHandling: true,
	ToolConfirmation:         true,
}

// Acts reports whether feature n changes what agentsvc does; setting
// another feature away from its default has no effect.
func Acts(n Name) bool { return acting[n] }
