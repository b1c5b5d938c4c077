package llmagent

import (
	"strings"
	"unicode"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	v1 "github.com/agentsvc/agentsvc/gen/go/agentsvc/v1"
	"github.com/agentsvc/agentsvc/internal/models"
	"github.com/agentsvc/agentsvc/internal/runtime"
	"github.com/agentsvc/agentsvc/internal/runtime/pyfmt"
	"github.com/agentsvc/agentsvc/internal/runtime/tools"
)

const (
	setModelResponseName = "set_model_response"
	// maxToolRounds bounds the tool rounds of an agent that must answer
	// through set_model_response: on the last round but one the model may
	// only call it, on the last the invocation ends.
	maxToolRounds = 25

	// setModelResponseDescription is the tool function's docstring,
	// cleaned, which ADK 2.x declares.
	setModelResponseDescription = "Set your final response using the required output schema.\n\n" +
		"Use this tool to provide your final structured answer instead\nof outputting text directly."
	// setModelResponseDescription1x is the docstring as written, indentation
	// included, which ADK 1.x declares.
	setModelResponseDescription1x = "Set your final response using the required output schema.\n\n" +
		"      Use this tool to provide your final structured answer instead\n      of outputting text directly.\n      "
	// setModelResponseInstruction is the instruction ADK's output-schema
	// processor appends with the tool, in 1.x and 2.x alike.
	setModelResponseInstruction = "IMPORTANT: You have access to other tools, but you must provide your final " +
		"response using the set_model_response tool with the required structured format. After using any other " +
		"tools needed to complete the task, always call set_model_response with your final answer in the " +
		"specified schema format."
)

// nativeSchemaWithTools reports whether the model takes a response schema
// and tools in one request.
func nativeSchemaWithTools(m models.Model) bool {
	s, ok := m.(models.SchemaWithTools)
	return ok && s.OutputSchemaWithTools()
}

// hasTools reports whether the agent declares tools or toolsets.
func (a *Agent) hasTools() bool { return len(a.cfg.Tools) > 0 || len(a.cfg.Toolsets) > 0 }

// outputSchema is ADK's output-schema processor: an agent with an output
// schema and tools, on a model that cannot combine them, answers through the
// set_model_response tool.
func (a *Agent) outputSchema(ictx *runtime.InvocationContext, r *request) {
	if a.cfg.OutputSchema == nil || a.cfg.Mode == ModeTask || !a.hasTools() || nativeSchemaWithTools(r.model) {
		return
	}
	rounds := 0
	for _, ev := range ictx.Events() {
		if ev.InvocationId == ictx.InvocationID && ev.Branch == ictx.Branch && len(runtime.FunctionResponses(ev)) > 0 {
			rounds++
		}
	}
	if rounds >= maxToolRounds {
		ictx.EndInvocation()
		return
	}
	smr := newSetModelResponse(a.cfg.OutputSchema, ictx.App().Behavior)
	r.procTools = append(r.procTools, smr)
	r.addTool(setModelResponseName, smr)
	runtime.AppendInstruction(r.llm, setModelResponseInstruction)
	if rounds >= maxToolRounds-1 {
		r.llm.Config.ToolConfig = &v1.ToolConfig{FunctionCallingConfig: &v1.FunctionCallingConfig{
			Mode: "ANY", AllowedFunctionNames: []string{setModelResponseName},
		}}
	}
}

// setModelResponse is the tool through which the model gives its structured
// answer: an object schema's fields are its parameters; any other schema is
// its "response" parameter.
type setModelResponse struct {
	decl   *v1.FunctionDeclaration
	object bool
}

func newSetModelResponse(schema *structpb.Struct, b runtime.Behavior) *setModelResponse {
	object := schema.GetFields()["type"].GetStringValue() == "object" && schema.GetFields()["properties"] != nil
	params := schema
	if !object {
		params = &structpb.Struct{Fields: map[string]*structpb.Value{
			"type":       structpb.NewStringValue("object"),
			"properties": structpb.NewStructValue(&structpb.Struct{Fields: map[string]*structpb.Value{"response": structpb.NewStructValue(schema)}}),
			"required":   structpb.NewListValue(&structpb.ListValue{Values: []*structpb.Value{structpb.NewStringValue("response")}}),
		}}
	}
	description := setModelResponseDescription1x
	if b == runtime.Behavior2x {
		description = setModelResponseDescription
	} else if object {
		// ADK 1.x declares the parameters of a function built from the
		// schema's fields, which carry no titles.
		params = proto.CloneOf(params)
		delete(params.Fields, "title")
		for _, prop := range params.GetFields()["properties"].GetStructValue().GetFields() {
			if p := prop.GetStructValue(); p != nil {
				delete(p.Fields, "title")
			}
		}
	}
	decl := tools.Declaration(setModelResponseName, description, params, nil, false)
	if b == runtime.Behavior2x {
		// ADK 2.x declares the JSON schema pydantic derives from the
		// function's parameters: the schema's fields with their titles.
		js := proto.CloneOf(params)
		js.Fields["title"] = structpb.NewStringValue(setModelResponseName + "Params")
		for name, prop := range js.GetFields()["properties"].GetStructValue().GetFields() {
			if p := prop.GetStructValue(); p != nil && p.Fields["title"] == nil {
				p.Fields["title"] = structpb.NewStringValue(pyTitle(strings.ReplaceAll(name, "_", " ")))
			}
		}
		decl.ParametersJsonSchema = structpb.NewStructValue(js)
		decl.Parameters = nil
	}
	return &setModelResponse{decl: decl, object: object}
}

// pyTitle is Python's str.title, as pydantic titles fields: a letter after
// a letter in lower case, any other letter in upper case.
func pyTitle(s string) string {
	var b strings.Builder
	prevLetter := false
	for _, r := range s {
		letter := unicode.IsLetter(r)
		switch {
		case letter && prevLetter:
			r = unicode.ToLower(r)
		case letter:
			r = unicode.ToTitle(r)
		}
		prevLetter = letter
		b.WriteRune(r)
	}
	return b.String()
}

func (s *setModelResponse) Name() string                         { return setModelResponseName }
func (s *setModelResponse) Description() string                  { return setModelResponseDescription }
func (s *setModelResponse) Declaration() *v1.FunctionDeclaration { return s.decl }
func (s *setModelResponse) IsLongRunning() bool                  { return false }

func (s *setModelResponse) Run(_ *runtime.ToolContext, args *structpb.Struct) (any, error) {
	if s.object {
		return args, nil
	}
	v := args.GetFields()["response"]
	if v == nil {
		v = structpb.NewNullValue()
	}
	return v, nil
}

// structuredResponse returns the event carrying the model's structured
// answer when resp answers set_model_response, or nil.
func structuredResponse(ictx *runtime.InvocationContext, resp *v1.Event) *v1.Event {
	for _, fr := range runtime.FunctionResponses(resp) {
		if fr.Name != setModelResponseName {
			continue
		}
		value := structpb.NewStructValue(fr.Response)
		if r, ok := fr.Response.GetFields()["result"]; ok {
			value = r
		}
		ev := ictx.NewEvent()
		ev.Content = &v1.Content{Role: "model", Parts: []*v1.Part{{Text: pyfmt.JSONDumps(value)}}}
		return ev
	}
	return nil
}
