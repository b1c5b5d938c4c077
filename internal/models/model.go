// Package models defines the interface between the engine and language
// models. Adapters live in sub-packages: gemini (google.golang.org/genai) and
// scripted (a deterministic model for tests).
package models

import (
	"context"
	"iter"

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
