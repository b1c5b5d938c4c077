// Package models defines the interface between the engine and language
// models. Adapters live in sub-packages: gemini (google.golang.org/genai) and
// scripted (a deterministic model for tests).
package models

import (
	"context"
	"iter"
	"strings"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
)

// Model generates content for an [v1.LlmRequest].
//
// Implementations are safe for concurrent use.
type Model interface {
	// Name is the model name, e.g. "gemini-2.5-flash".
	Name() string

	// GenerateContent calls the model once. Without stream it yields exactly
	// one response. With stream it yields every chunk as a partial response
	// (Partial true) and then one aggregated, non-partial response holding all
	// text, thought text and function calls of the chunks in order, with the
	// finish reason and usage of the last chunk. A response the model refused
	// or could not produce carries ErrorCode and ErrorMessage as ADK's
	// LlmResponse.create sets them. Transport and API failures are yielded as
	// errors (see [Error]); iteration stops after the first error.
	GenerateContent(ctx context.Context, req *v1.LlmRequest, stream bool) iter.Seq2[*v1.LlmResponse, error]
}

// Resolver returns the model for a model name.
type Resolver interface {
	Model(ctx context.Context, name string) (Model, error)
}

// SchemaWithTools is implemented by models that accept a response schema
// together with tools in one request. For the others an agent with both an
// output schema and tools is given ADK's set_model_response tool instead.
type SchemaWithTools interface {
	OutputSchemaWithTools() bool
}

// The user turns ADK's BaseLlm adds to a request whose contents are empty
// or do not end with a user turn, so that the model has something to
// answer. Every adapter sends them.
const (
	EmptyContentsText = "Handle the requests as specified in the System Instruction."
	ContinueTurnText  = "Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed."
)

// ClientIDPrefix starts the function call ids the engine makes for calls
// that came without one ("adk-<uuid4>"). Such ids pair a call with its
// response in the session but are never shown to a model: a request's
// contents may carry them, and every [Model] leaves them out of what it
// sends, as ADK's contents processor clears them.
const ClientIDPrefix = "adk-"

// IsClientID reports whether id is an engine-made function call id.
func IsClientID(id string) bool { return strings.HasPrefix(id, ClientIDPrefix) }

// ModelID returns id as a model may see it: empty for an engine-made id.
func ModelID(id string) string {
	if IsClientID(id) {
		return ""
	}
	return id
}
