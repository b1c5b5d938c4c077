package tools

import (
	"encoding/json"
	"errors"
	"log/slog"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/memory"
	"github.com/agentsvc/agentsvc/internal/runtime"
)

// loadMemoryDescription is the docstring ADK's load_memory function
// declares itself with.
const loadMemoryDescription = "Loads the memory for the current user.\n\nArgs:\n  query: The query to load the memory for.\n\nReturns:\n  A list of memory results."

// loadMemoryInstruction is what ADK's LoadMemoryTool adds to the system
// instruction.
const loadMemoryInstruction = "\nYou have memory. You can use it to answer questions. If any questions need\n" +
	"you to look up the memory, you should call load_memory function with a query.\n"

// LoadMemory is ADK's load_memory tool: the model searches the user's
// memories with a query; the tool also tells the model it has memory.
type LoadMemory struct{}

// Name implements [runtime.Tool].
func (LoadMemory) Name() string { return "load_memory" }

// Description implements [runtime.Tool].
func (LoadMemory) Description() string { return loadMemoryDescription }

// IsLongRunning implements [runtime.Tool].
func (LoadMemory) IsLongRunning() bool { return false }

// Declaration implements [runtime.Tool].
func (LoadMemory) Declaration() *v1.FunctionDeclaration {
	return &v1.FunctionDeclaration{Name: "load_memory", Description: loadMemoryDescription,
		Parameters: mustStruct(map[string]any{
			"type":       "object",
			"properties": map[string]any{"query": map[string]any{"type": "string"}},
			"required":   []any{"query"},
		})}
}

// DeclarationFor implements [runtime.BehaviorDeclarer]: ADK 2.x declares
// the parameters as a JSON schema.
func (t LoadMemory) DeclarationFor(b runtime.Behavior) *v1.FunctionDeclaration {
	d := t.Declaration()
	if b == runtime.Behavior2x {
		d.ParametersJsonSchema, d.Parameters = structpb.NewStructValue(d.Parameters), nil
	}
	return d
}

// ProcessRequest implements [runtime.RequestProcessor]: the instruction
// that the model has memory.
func (LoadMemory) ProcessRequest(_ *runtime.InvocationContext, req *v1.LlmRequest) error {
	runtime.AppendInstruction(req, loadMemoryInstruction)
	return nil
}

// Run implements [runtime.Tool]: the memories found, as ADK returns its
// LoadMemoryResponse, {"result": {"memories": [...]}}. A missing query is
// ADK's missing-argument answer. A query past the store's bound is the
// model's mistake, not the run's: the model is told so and may try again.
func (LoadMemory) Run(tctx *runtime.ToolContext, args *structpb.Struct) (any, error) {
	if missing := MissingArgs("load_memory", []string{"query"}, args); missing != nil {
		return missing, nil
	}
	found, err := tctx.SearchMemory(pyStr(args.GetFields()["query"]))
	if errors.Is(err, memory.ErrQueryTooLarge) {
		return map[string]any{"error": err.Error()}, nil
	}
	if err != nil {
		return nil, err
	}
	list := make([]any, 0, len(found))
	for _, e := range found {
		list = append(list, memoryEntryJSON(e))
	}
	return map[string]any{"result": map[string]any{"memories": list}}, nil
}

// pyStr is a query argument as text: a string as is, anything else as JSON.
func pyStr(v *structpb.Value) string {
	if s, ok := v.GetKind().(*structpb.Value_StringValue); ok {
		return s.StringValue
	}
	b, _ := v.MarshalJSON()
	return string(b)
}

// memoryEntryJSON is a memory as ADK's MemoryEntry dumps into a function
// response: its content with the field names of Python's models, empty
// custom metadata, and id and author only when set.
func memoryEntryJSON(e memory.Entry) map[string]any {
	out := map[string]any{"custom_metadata": map[string]any{}, "timestamp": e.Timestamp}
	if e.Content != nil {
		var content map[string]any
		if b, err := (protojson.MarshalOptions{UseProtoNames: true}).Marshal(e.Content); err == nil && json.Unmarshal(b, &content) == nil {
			out["content"] = content
		}
	}
	if e.Author != "" {
		out["author"] = e.Author
	}
	if e.ID != "" {
		out["id"] = e.ID
	}
	return out
}

// PreloadMemory is ADK's preload_memory tool: before each model call, the
// memories matching the invocation's first text are written into the
// system instruction. The model is not told of the tool.
type PreloadMemory struct{}

// Name implements [runtime.Tool].
func (PreloadMemory) Name() string { return "preload_memory" }

// Description implements [runtime.Tool].
func (PreloadMemory) Description() string { return "preload_memory" }

// IsLongRunning implements [runtime.Tool].
func (PreloadMemory) IsLongRunning() bool { return false }

// Declaration implements [runtime.Tool]: nothing is declared.
func (PreloadMemory) Declaration() *v1.FunctionDeclaration { return nil }

// Run implements [runtime.Tool]; the model is never told of the tool.
func (PreloadMemory) Run(*runtime.ToolContext, *structpb.Struct) (any, error) {
	return errorResult("preload_memory cannot be called"), nil
}

// ProcessRequest implements [runtime.RequestProcessor]: the past
// conversations, as ADK writes them; a failed search is logged and leaves
// the request as it is, as in ADK.
func (PreloadMemory) ProcessRequest(ictx *runtime.InvocationContext, req *v1.LlmRequest) error {
	parts := ictx.UserContent.GetParts()
	if len(parts) == 0 || parts[0].GetText() == "" {
		return nil
	}
	query := parts[0].GetText()
	found, err := ictx.SearchMemory(query)
	if err != nil {
		if ictx.Context().Err() != nil {
			return ictx.Context().Err()
		}
		slog.WarnContext(ictx.Context(), "Failed to preload memory for query", "query", query, "err", err)
		return nil
	}
	var lines []string
	for _, e := range found {
		if e.Timestamp != "" {
			lines = append(lines, "Time: "+e.Timestamp)
		}
		var texts []string
		for _, p := range e.Content.GetParts() {
			if p.GetText() != "" {
				texts = append(texts, p.GetText())
			}
		}
		if text := strings.Join(texts, " "); text != "" {
			if e.Author != "" {
				text = e.Author + ": " + text
			}
			lines = append(lines, text)
		}
	}
	if len(lines) == 0 {
		return nil
	}
	runtime.AppendInstruction(req, "The following content is from your previous conversations with the user.\n"+
		"They may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\n"+
		strings.Join(lines, "\n")+"\n</PAST_CONVERSATIONS>\n")
	return nil
}
